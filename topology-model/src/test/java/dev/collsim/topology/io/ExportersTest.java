package dev.collsim.topology.io;

import dev.collsim.topology.io.export.TopologyExporters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DOT and GraphML exports of one DGX A100 (counts from the catalog's construction, checked by hand). */
class ExportersTest {

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /**
     * One DGX A100 with storage NICs: 8 GPUs + 1 NVS + 8 CPUs (NPS4) + 22 PCIe switches (4 complexes x (1 top + 2 GPU
     * bridges + 2 NIC bridges) + 2 storage cards) + 12 NICs = 51 devices. Physical links: 8 NVLink + 28 SMP (8 choose
     * 2) + 4 x (1 uplink + 4 bridges + 4 devices) PCIe + 2 x 3 storage PCIe = 78, i.e. 156 directed edges.
     */
    @Test
    void graphmlHasEveryDeviceAndDirectedLink() {
        Topology t = Catalog.standalone(Catalog.hostType("dgx-a100").orElseThrow(), 1);
        String xml = TopologyExporters.graphml(t);
        assertEquals(8 + 1 + 8 + 22 + 12, count(xml, "<node "));
        assertEquals(2 * (8 + 28 + 36 + 6), count(xml, "<edge "));
        assertTrue(xml.contains("nccl_bandwidth_GBps"));
        String dot = TopologyExporters.dot(t);
        assertEquals(2 * (8 + 28 + 36 + 6), count(dot, " -> "));
        assertTrue(dot.contains("\"h0/gpu7\""));
    }

    /** The atomic writer leaves the complete file and no temporary file behind. */
    @Test
    void atomicWrite(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("out.dot");
        AtomicFiles.write(f, "digraph {}\n");
        assertEquals("digraph {}\n", Files.readString(f));
        try (var s = Files.list(dir)) {
            assertEquals(1, s.count());
        }
    }
}
