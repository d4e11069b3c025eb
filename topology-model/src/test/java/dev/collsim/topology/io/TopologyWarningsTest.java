package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.export.TopologyExporters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topology readers' warnings are a list of their own ({@link Topology#warnings()}, printed and counted by the
 * commands), not only words in the source line; CRLF files read as LF files; bytes that are not text are refused
 * with their place. The reproducers in src/test/resources/fuzz are the public Azure NC A100 v4 XML
 * (C-topo-azure-ncv4-4xA100pcie-2023-nvlink-pairs.xml) with one nvlink changed; lines counted by hand.
 */
class TopologyWarningsTest {

    private static final Path FUZZ = Path.of("src/test/resources/fuzz");
    private static final Path MACHINES = Path.of("src/test/resources/dev/collsim/topology/io");

    private static Topology read(Path p) throws Exception {
        return ClusterLoader.read(p.getFileName().toString(), Files.readString(p));
    }

    /** s01: the asymmetric NV pair is one warning, prefixed with the file name. */
    @Test
    void asymmetricNvCountsAreOneWarning() throws Exception {
        Topology t = read(FUZZ.resolve("s01-smi-asymmetric-nv.txt"));
        assertEquals(List.of("s01-smi-asymmetric-nv.txt: GPU0/GPU1 is NV6 at 12:10 but GPU1/GPU0 is NV12 at 13:6;"
                + " NVLinks are bidirectional, the pair is read as NV12"), t.warnings());
    }

    /**
     * A PCIe label facing an NV# across the diagonal (GPU0/GPU3 PIX, GPU3/GPU0 NV4) is the same warning, and the
     * label is not taken as a PCIe switch: as PIX it would join GPU3 to NIC0's switch, which GPU3/NIC0 SYS denies, and
     * the file was refused at cells the user never touched. Columns by hand: line 2 is GPU0, tab, ' X ', tab, NV4,
     * tab, NV4, tab, so PIX starts at 18; line 5's NV4 at 6.
     */
    @Test
    void aPcieLabelFacingAnNvLabelIsTheNvWarningNotAPcieSwitch() throws Exception {
        String m = "\tGPU0\tGPU1\tGPU2\tGPU3\tNIC0\tCPU Affinity\tNUMA Affinity\n"
                + "GPU0\t X \tNV4\tNV4\tPIX\tPIX\t0-15\t0\n"
                + "GPU1\tNV4\t X \tNV4\tNV4\tPIX\t0-15\t0\n"
                + "GPU2\tNV4\tNV4\t X \tNV4\tSYS\t16-31\t1\n"
                + "GPU3\tNV4\tNV4\tNV4\t X \tSYS\t16-31\t1\n"
                + "NIC0\tPIX\tPIX\tSYS\tSYS\t X \n";
        Topology t = ClusterLoader.read("m.txt", m);
        assertEquals(List.of("m.txt: GPU0/GPU3 is PIX at 2:18 but GPU3/GPU0 is NV4 at 5:6; NVLinks are bidirectional,"
                + " the pair is read as NV4"), t.warnings());
    }

    /**
     * An asymmetric pair is read as its larger count everywhere, not only in the direct links: four GPUs NV18 to every
     * peer but GPU1/GPU2 NV12 (GPU2/GPU1 NV18) read as NV18 give each GPU 3 x 18 = 54 NVLinks, more than an H100's 18
     * (NVIDIA H100 datasheet: 18 NVLink4 links), so they meet at one NVSwitch node, each GPU with its 18 links to it.
     * Before, GPU1's row (NV12 and NV18) failed the equal-counts test and six direct NV18 pairs gave each GPU
     * 3 x 450 GB/s of NVLink.
     */
    @Test
    void anAsymmetricPairIsReadAsTheLargerCountForTheNvswitchTest() throws Exception {
        String m = "\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity\n"
                + "GPU0\t X \tNV18\tNV18\tNV18\t0-55\t0\n"
                + "GPU1\tNV18\t X \tNV12\tNV18\t0-55\t0\n"
                + "GPU2\tNV18\tNV18\t X \tNV18\t56-111\t1\n"
                + "GPU3\tNV18\tNV18\tNV18\t X \t56-111\t1\n";
        Topology t = ClusterLoader.read("m.txt", m);
        assertEquals(1, t.warnings().size(), t.warnings().toString());
        assertEquals(1, t.devices(NvSwitch.class).size(), t.source());
        for (Gpu g : t.gpus()) {
            List<Link> nvl = t.outgoing(g).stream().filter(l -> l.type() == LinkType.NVLINK).toList();
            assertEquals(1, nvl.size(), g + ": " + nvl);
            assertEquals(18, nvl.get(0).count(), g + ": " + nvl);
        }
    }

    /** s07: GPU 0's nvlink (line 15) names GPU class but bus id 0009:00:00.0, which no GPU has: a warning. */
    @Test
    void nvlinkToNoGpuIsAWarning() throws Exception {
        Topology t = read(FUZZ.resolve("s07-xml-nvlink-gpu-class-no-device.xml"));
        List<String> nv = nvlinkWarnings(t);
        assertEquals(1, nv.size(), t.warnings().toString());
        String w = nv.get(0);
        assertTrue(w.startsWith("s07-xml-nvlink-gpu-class-no-device.xml: nvlink target 0009:00:00.0 of "), w);
        assertTrue(w.contains("(line 15) has GPU class 0x030200 but is not a GPU of this host; its 12 NVLinks are"
                + " ignored, as NCCL does"), w);
        assertTrue(t.source().contains("nvlink target 0009:00:00.0"), t.source());
    }

    /**
     * s08: GPU 2's nvlink (line 32) has the NIC class 0x020700. NCCL 2.30 (src/graph/topo.cc ncclTopoAddNvLinks)
     * joins any class other than GPU and CPU to the NVSwitch node; collsim does the same, now with a warning.
     */
    @Test
    void nvlinkOfAnotherClassIsTakenAsAnNvSwitchWithAWarning() throws Exception {
        Topology t = read(FUZZ.resolve("s08-xml-nvlink-nic-class.xml"));
        List<String> nv = nvlinkWarnings(t);
        assertEquals(1, nv.size(), t.warnings().toString());
        String w = nv.get(0);
        assertTrue(w.contains("nvlink target 0004:00:00.0 of ") && w.contains("(line 32) has class 0x020700, which is"
                + " neither a GPU (0x03...), a CPU (0x068001) nor an NVSwitch (0x068000); its 12 NVLinks are taken to"
                + " the NVSwitch"), w);
        assertTrue(t.graph().vertexSet().stream().anyMatch(d -> d.id().endsWith("/nvs0")), "the NVSwitch node NCCL makes");
    }

    /**
     * The unchanged public file has no nvlink warning (the check can tell a good file from a bad one); its one warning
     * is the PCIe links the Hyper-V guest hides (every GPU has link_speed="" link_width="0", lines 13, 23, 30, 37 of
     * the file, counted by hand), which the fuzzed copies share.
     */
    @Test
    void theOriginalHasNoNvlinkWarning() throws Exception {
        List<String> w = read(MACHINES.resolve("C-topo-azure-ncv4-4xA100pcie-2023-nvlink-pairs.xml")).warnings();
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).startsWith("C-topo-azure-ncv4-4xA100pcie-2023-nvlink-pairs.xml:13:5: pci.link_speed,"
                + " link_width: found '' and '0'; "), w.get(0));
        assertTrue(w.get(0).endsWith("(4 GPUs alike, lines 13, 23, 30, 37)"), w.get(0));
    }

    private static List<String> nvlinkWarnings(Topology t) {
        return t.warnings().stream().filter(w -> w.contains("nvlink target")).toList();
    }

    /** Every machine file and shipped config reads the same with CRLF line ends: same graph, same warnings. */
    @Test
    void crlfReadsAsLf() throws Exception {
        List<Path> files;
        try (Stream<Path> m = Files.list(MACHINES); Stream<Path> c = Files.list(Path.of("../configs"))) {
            files = Stream.concat(m.filter(p -> p.getFileName().toString().matches("[BC]-.*")),
                    c.filter(p -> p.toString().endsWith(".yaml"))).sorted().toList();
        }
        assertTrue(files.size() >= 20, files.toString());
        for (Path f : files) {
            String lf = Files.readString(f).replace("\r\n", "\n");
            Topology a;
            try {
                a = ClusterLoader.read("x", lf);
            } catch (InputException e) {
                continue; // a file that is refused (e.g. a graph dump, not a topology) is refused with CRLF too
            }
            Topology b = ClusterLoader.read("x", lf.replace("\n", "\r\n"));
            assertEquals(TopologyExporters.graphml(a), TopologyExporters.graphml(b), f.toString());
            assertEquals(a.warnings(), b.warnings(), f.toString());
        }
    }

    /** Random bytes given as -c: a located refusal naming the byte, not "Input length = 1". */
    @Test
    void bytesThatAreNotTextAreRefused(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("noise.yaml");
        Files.write(f, new byte[] {'a', ':', ' ', (byte) 0xC3, (byte) 0x28});
        InputException e = assertThrows(InputException.class, () -> ClusterLoader.load(f.toString()));
        // 0xC3 starts a 2-byte character, 0x28 cannot continue it: the bad sequence starts at offset 3, column 4
        assertTrue(e.getMessage().contains(f + ":1:4: not UTF-8 text: byte 0xC3 at byte offset 3"), e.getMessage());
    }
}
