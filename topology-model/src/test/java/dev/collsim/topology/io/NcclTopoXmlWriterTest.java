package dev.collsim.topology.io;

import static dev.collsim.topology.io.TestFiles.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.topology.Device;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Topology;
import dev.collsim.units.Bandwidth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Round trip on the real NCCL topology XML files: read, write, read again, and the two graphs must have the same
 * devices (records: ids, bus ids, sm, speeds) and the same directed links (ends, type, count, bandwidth, detail).
 * The truncated issue-256 dump cannot be read (see {@link NcclTopoXmlReaderTest}); its two hand-closed excerpts
 * stand in for it.
 */
class NcclTopoXmlWriterTest {

    private final NcclTopoXmlReader reader = new NcclTopoXmlReader(
            HardwareHints.NONE.withGpu("A100-SXM4-80GB", 80).withNicSpeed(Bandwidth.ofGbits(200)));
    private final NcclTopoXmlWriter writer = new NcclTopoXmlWriter();

    @ParameterizedTest
    @ValueSource(strings = {"C-topo-azure-ncv4-4xA100pcie.xml", "C-topo-azure-ncv4-4xA100pcie-2023-nvlink-pairs.xml",
        "C-topo-azure-ndv4-8xA100.xml", "C-topo-azure-ndv5-8xH100.xml", "C-topodump-h200-baremetal-numa0-closed.xml",
        "C-topodump-h200-vm-closed.xml", "h200-1gpu-topo.xml"})
    void readWriteReadGivesTheSameGraph(String file) throws InputException {
        Topology first = reader.read(file, text(file));
        String xml = writer.write(first);
        Topology second = reader.read("written-" + file, xml);
        assertEquals(first.graph().vertexSet(), second.graph().vertexSet(), xml);
        assertEquals(edges(first), edges(second), xml);
        assertEquals(byType(first), byType(second));
        assertTrue(new NcclTopoXmlReader().accepts(xml));
    }

    @ParameterizedTest
    @ValueSource(strings = {"C-topodump-h200-baremetal-numa0-closed.xml"})
    void switchChipsAndNcclDefaultsAreWrittenBackAsTheFileHadThem(String file) throws InputException {
        String xml = writer.write(reader.read(file, text(file)));
        assertTrue(xml.contains("<nvlink target=\"0000:07:00.0\" count=\"5\" tclass=\"0x068000\"/>"), xml);
        assertTrue(xml.contains("link_speed=\"32.0 GT/s PCIe\" link_width=\"16\""), xml);
        String ncv4 = writer.write(reader.read("ncv4", text("C-topo-azure-ncv4-4xA100pcie.xml")));
        assertTrue(ncv4.contains("link_speed=\"\" link_width=\"0\""), ncv4);
        assertTrue(ncv4.contains("<nic>"), ncv4);
        assertFalse(ncv4.contains("<nvlink"), ncv4);
    }

    @ParameterizedTest
    @ValueSource(strings = {"C-topo-azure-ndv5-8xH100.xml"})
    void writingToAFileReplacesItAtomically(String file, @TempDir Path dir) throws Exception {
        Path out = dir.resolve("topo.xml");
        writer.write(reader.read(file, text(file)), out);
        assertEquals(List.of(out), list(dir));
        assertEquals(edges(reader.read(file, text(file))), edges(reader.read("x", Files.readString(out))));
    }

    private static List<Path> list(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.toList();
        }
    }

    /** Every directed link as text: ends, type, count, bandwidth, detail (ids are compared with the ends). */
    static Set<String> edges(Topology t) {
        return t.graph().edgeSet().stream().map(l -> describe(t, l)).collect(Collectors.toSet());
    }

    private static String describe(Topology t, Link l) {
        Device a = t.source(l);
        Device b = t.target(l);
        return l.id() + " " + a.id() + "->" + b.id() + " " + l.type() + " x" + l.count() + " "
                + l.bandwidth().gbps() + " nccl " + l.ncclBandwidth().gbps() + " " + l.detail();
    }

    static Map<LinkType, Long> byType(Topology t) {
        return t.graph().edgeSet().stream().collect(Collectors.groupingBy(Link::type, TreeMap::new,
                Collectors.counting()));
    }
}
