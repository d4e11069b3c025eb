package dev.collsim.topology.io;

import dev.collsim.io.InputException;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.export.NcclTopoXmlWriter;
import dev.collsim.topology.io.smi.NvidiaSmiTopoReader;
import dev.collsim.topology.io.xml.NcclTopoXmlReader;
import dev.collsim.topology.paths.DevicePath;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.collsim.topology.io.TestFiles.count;
import static dev.collsim.topology.io.TestFiles.link;
import static dev.collsim.topology.io.TestFiles.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;


/**
 * Reads every real {@code nvidia-smi topo -m} output in the shared data ({@code B-topo-*.txt}) and checks, for every
 * labelled pair of every matrix, that the path computed back from the inferred graph (topo's {@link PathFinder})
 * carries the file's label, and that NCCL's path type between two GPUs is the one nccl-model.md section 5.1 maps the
 * label to (NODE and PHB are both PHB; GPU-NIC types are left out because NCCL's PXN and GPU Direct RDMA rules
 * reroute them). Structural expectations are read off the files by hand; NVLink bandwidths are
 * count x 25 GB/s (V100, A100 and H100 datasheets: 300, 600 and 900 GB/s bidirectional over 6, 12 and 18 links).
 */
class NvidiaSmiTopoReaderTest {

    private final NvidiaSmiTopoReader reader = new NvidiaSmiTopoReader();

    @ParameterizedTest
    @ValueSource(strings = {"B-topo-2xRTX2080Ti-autodl-container-pix-nop2p.txt",
        "B-topo-8xA100-pcie-nvlink-bridge-pairs-issue-nccltests178.txt",
        "B-topo-8xH200-4xcx7-host-and-kvm-guest-issue-nccltests380.txt",
        "B-topo-8xRTX4090-dual-epyc7542-nopcieswitch.txt", "B-topo-8xRTXPRO6000-wrx90-cpayne-microchip-switchtec.txt",
        "B-topo-azure-nc96ads-a100-v4-4xA100pcie.txt", "B-topo-dell-c4140-4xV100-sxm2-nv2.txt", "B-topo-dgx-a100.txt",
        "B-topo-dgx-h100-12nic-partial.txt", "B-topo-dgx1-v100-pcie-paths.txt",
        "B-topo-device-1xH200-vm-ansi-header.txt"})
    void everyLabelOfTheFileIsThePathComputedBackFromTheGraph(String file) throws InputException {
        List<Topology> topologies = reader.readAll(file, text(file));
        List<Map<String, Map<String, String>>> tables = LabelTable.parse(text(file));
        assertEquals(tables.size(), topologies.size());
        int checked = 0;
        for (int k = 0; k < tables.size(); k++) {
            Topology t = topologies.get(k);
            HostPaths paths = PathFinder.of(t).host(0);
            for (Map.Entry<String, Map<String, String>> row : tables.get(k).entrySet()) {
                for (Map.Entry<String, String> cell : row.getValue().entrySet()) {
                    Device a = device(t, row.getKey());
                    Device b = device(t, cell.getKey());
                    DevicePath p = paths.path(a, b);
                    assertEquals(cell.getValue(), p.smiLabel(), file + " " + row.getKey() + "/" + cell.getKey());
                    if (a instanceof Gpu && b instanceof Gpu) {
                        assertEquals(ncclType(cell.getValue()), p.type(), file + " " + row.getKey() + "/" + cell.getKey());
                    }
                    checked++;
                }
            }
        }
        assertTrue(checked >= (topologies.get(0).gpus().size() > 1 ? 2 : 0), "labels checked: " + checked);
        // exported as NCCL XML and read back, NCCL and nvidia-smi see the same paths
        for (Topology t : topologies) {
            Topology back = new NcclTopoXmlReader().read("x.xml", new NcclTopoXmlWriter().write(t));
            HostPaths p = PathFinder.of(t).host(0);
            HostPaths q = PathFinder.of(back).host(0);
            for (Device a : p.endpoints()) {
                for (Device b : p.endpoints()) {
                    DevicePath x = p.path(a, b);
                    DevicePath y = q.path(back.device(a.id()).orElseThrow(), back.device(b.id()).orElseThrow());
                    assertEquals(x.smiLabel() + " " + x.type(), y.smiLabel() + " " + y.type(), a.id() + "/" + b.id());
                }
            }
        }
    }

    /** nccl-model.md section 5.1: X = LOC, NV# = NVL, PIX, PXB, PHB and NODE = PHB, SYS. */
    private static PathType ncclType(String label) {
        return label.equals("X") ? PathType.LOC : label.startsWith("NV") ? PathType.NVL
                : label.equals("NODE") ? PathType.PHB : PathType.valueOf(label);
    }

    static Device device(Topology t, String column) {
        if (column.startsWith("GPU")) {
            return t.device("h0/gpu" + column.substring(3)).orElseThrow();
        }
        if (column.matches("NIC\\d+")) {
            return t.device("h0/nic" + column.substring(3)).orElseThrow();
        }
        return t.devices(Nic.class).stream().filter(n -> n.name().equals(column)).findFirst().orElseThrow();
    }

    @Test
    void dgxA100IsTwelveNvlink3LinksPerGpuIntoOneNvswitchAndPxbNicPairs() throws InputException {
        Topology t = reader.read("dgx-a100", text("B-topo-dgx-a100.txt"));
        assertEquals(8, t.gpus().size());
        assertEquals(12, t.devices(Nic.class).size());
        for (Gpu g : t.gpus()) {
            Link l = link(t, g.id(), "h0/nvs0", LinkType.NVLINK);
            assertEquals(12, l.count());
            assertEquals(12 * 25.0, l.bandwidth().gbps(), 1e-9);
            assertEquals(80, g.sm()); // NVSwitch with 12 links per GPU: NVLink3, A100
        }
        // NUMA Affinity column: GPU0,1 -> 3; GPU2,3 -> 1; GPU4,5 -> 7; GPU6,7 -> 5
        assertEquals("h0/cpu3", cpuOf(t, "h0/gpu0"));
        assertEquals("h0/cpu1", cpuOf(t, "h0/gpu3"));
        assertEquals("h0/cpu5", cpuOf(t, "h0/gpu7"));
        // mlx5_4/5 and mlx5_10/11 are SYS to every GPU: two more NUMA nodes, 6 CPUs, 15 SMP pairs
        assertEquals(6, t.devices(Cpu.class).size());
        assertEquals(15 * 2, count(t, LinkType.SMP));
        assertTrue(t.source().contains("sm 80 assumed"), t.source());
        // the 8 NICs PXB to a GPU are the compute NICs (DGX A100: 8 HDR compute + 2 dual-port storage NICs)
        assertEquals(8, t.devices(Nic.class).stream().filter(x -> x.rail() >= 0).count());
        assertEquals(4, ((Nic) device(t, "mlx5_6")).rail());
        assertEquals(-1, ((Nic) device(t, "mlx5_4")).rail());
    }

    @Test
    void dgxH100PartialOutputKeepsTheNicsWhoseRowsAreMissing() throws InputException {
        Topology t = reader.read("dgx-h100", text("B-topo-dgx-h100-12nic-partial.txt"));
        assertEquals(12, t.devices(Nic.class).size());
        assertEquals(18, link(t, "h0/gpu7", "h0/nvs0", LinkType.NVLINK).count());
        assertTrue(t.source().contains("rows [NIC6, NIC7, NIC8, NIC9, NIC10, NIC11] are missing"), t.source());
        // GPU0 PXB NIC0 (file row GPU0): one upper switch over two leaves
        String leafGpu = TestFiles.pcieParent(t, "h0/gpu0", "pcisw");
        String leafNic = TestFiles.pcieParent(t, "h0/nic0", "pcisw");
        assertFalse(leafGpu.equals(leafNic));
        assertEquals(TestFiles.pcieParent(t, leafGpu, "pcisw"), TestFiles.pcieParent(t, leafNic, "pcisw"));
    }

    /**
     * The same partial file cut after its GPU1 row (a paste cut short): GPU2..GPU7 lose their CPU and NUMA affinity
     * (nvidia-smi prints it on GPU rows only) and have no label between themselves, so that is a warning naming the
     * header's line (10), where the NIC rows missing (above) stay a note.
     */
    @Test
    void missingGpuRowsAreAWarning() throws InputException {
        String full = text("B-topo-dgx-h100-12nic-partial.txt");
        String cut = full.substring(0, full.indexOf("\nGPU2"));
        Topology t = reader.read("cut.txt", cut);
        assertEquals(1, t.warnings().size(), t.warnings().toString());
        assertTrue(t.warnings().get(0).startsWith("cut.txt:10:1: GPU rows [GPU2, GPU3, GPU4, GPU5, GPU6, GPU7] are"
                + " missing (the header lists them; is the file cut short?)"), t.warnings().get(0));
        assertTrue(reader.read("dgx-h100", full).warnings().isEmpty(), "NIC rows missing: a note, not a warning");
    }

    /** The lent H200 (nvidia-smi underlines its header with ANSI escapes even into a file): 1 GPU on NUMA 0. */
    @Test
    void lentH200OutputWithAnsiUnderlinedHeaderIsOneGpuOnNumaZero() throws InputException {
        Topology t = new NvidiaSmiTopoReader(HardwareHints.NONE.withGpu("H200", 90))
                .read("device", text("B-topo-device-1xH200-vm-ansi-header.txt"));
        assertEquals(1, t.gpus().size());
        assertEquals(90, t.gpus().get(0).sm()); // nvidia-smi --query-gpu compute_cap 9.0
        assertEquals("h0/cpu0", cpuOf(t, "h0/gpu0"));
        assertEquals(0, count(t, LinkType.NVLINK));
        assertTrue(reader.accepts(text("B-topo-device-1xH200-vm-ansi-header.txt")));
    }

    @Test
    void dellC4140V100sHaveTwoDirectNvlink2LinksPerPair() throws InputException {
        Topology t = reader.read("c4140", text("B-topo-dell-c4140-4xV100-sxm2-nv2.txt"));
        assertEquals(6 * 2, count(t, LinkType.NVLINK)); // 6 pairs, both directions
        Link l = link(t, "h0/gpu0", "h0/gpu3", LinkType.NVLINK);
        assertEquals(2, l.count());
        assertEquals(50.0, l.bandwidth().gbps(), 1e-9);
        assertEquals(70, t.gpus().get(0).sm());
        assertEquals(1, t.devices(Cpu.class).size());
    }

    /**
     * The RTX 4090 box's NICs are PHB to GPU6 and SYS to every other GPU (file lines 16 and 18-21), so GPU6's nearest
     * NICs, all four, are compute NICs on rails 0..3, as NCCL's ncclTopoGetLocal gives GPU6 its four PHB NICs; a NIC
     * SYS from every GPU is none (a hand-made two-socket matrix: GPU0 on NUMA 0, NIC0 on NUMA 1); the source said
     * "compute NICs on rails 0..-1" once. The DGX A100's 8 PXB NICs are rails 0..7.
     */
    @Test
    void theRailNoteSaysWhenNoNicIsAComputeNic() throws InputException {
        Topology rtx = reader.read("rtx4090", text("B-topo-8xRTX4090-dual-epyc7542-nopcieswitch.txt"));
        assertEquals(List.of(0, 1, 2, 3), rtx.devices(Nic.class).stream().map(Nic::rail).sorted().toList());
        assertTrue(rtx.source().contains("compute NICs on rails 0..3 in column order"), rtx.source());
        Topology none = reader.read("far", "\tGPU0\tNIC0\tCPU Affinity\tNUMA Affinity\n"
                + "GPU0\t X \tSYS\t0-7\t0\nNIC0\tSYS\t X \t\t\n\nNIC Legend:\n\n  NIC0: mlx5_0\n");
        assertTrue(none.devices(Nic.class).stream().allMatch(n -> n.rail() < 0));
        assertFalse(none.source().contains("0..-1"), none.source());
        assertTrue(none.source().contains("no NIC is nearer than SYS to a GPU, so none is a compute NIC"),
                none.source());
        Topology dgx = reader.read("dgx-a100", text("B-topo-dgx-a100.txt"));
        assertTrue(dgx.source().contains("compute NICs on rails 0..7 in column order"), dgx.source());
    }

    @Test
    void h200HostAndGuestAreTwoMatricesOfEighteenLinksPerGpu() throws InputException {
        List<Topology> both = reader.readAll("h200", text("B-topo-8xH200-4xcx7-host-and-kvm-guest-issue-nccltests380.txt"));
        assertEquals(2, both.size());
        Topology host = both.get(0);
        assertEquals(18 * 25.0, link(host, "h0/gpu5", "h0/nvs0", LinkType.NVLINK).bandwidth().gbps(), 1e-9);
        assertEquals(90, host.gpus().get(0).sm());
        assertEquals("mlx5_2", ((Nic) host.device("h0/nic2").orElseThrow()).name());
        // unlabeled NUMA column: GPU0-3 on NUMA 0, GPU4-7 on NUMA 2
        assertEquals("h0/cpu2", cpuOf(host, "h0/gpu4"));
        assertTrue(host.source().contains("lacks the 'NUMA Affinity' label"), host.source());
        assertEquals("h0/cpu1", cpuOf(both.get(1), "h0/gpu4"));
    }

    @Test
    void azureNc96PairsAreNvlinkBridgesOnFourNumaNodes() throws InputException {
        Topology t = reader.read("nc96", text("B-topo-azure-nc96ads-a100-v4-4xA100pcie.txt"));
        assertEquals(12 * 25.0, link(t, "h0/gpu2", "h0/gpu3", LinkType.NVLINK).bandwidth().gbps(), 1e-9);
        assertEquals(4, count(t, LinkType.NVLINK));
        assertEquals(4, t.devices(Cpu.class).size());
        assertEquals("h0/cpu3", cpuOf(t, "h0/gpu3"));
    }

    @Test
    void rtxPro6000SwitchesHangBelowTwoHostBridges() throws InputException {
        Topology t = reader.read("wrx90", text("B-topo-8xRTXPRO6000-wrx90-cpayne-microchip-switchtec.txt"));
        String leaf0 = TestFiles.pcieParent(t, "h0/gpu0", "pcisw");
        assertEquals(leaf0, TestFiles.pcieParent(t, "h0/gpu1", "pcisw")); // PIX
        assertFalse(leaf0.equals(TestFiles.pcieParent(t, "h0/gpu2", "pcisw"))); // PXB
        assertEquals(1, t.devices(Cpu.class).size()); // all NODE: one NUMA node, assumed 0
        assertEquals(6, t.devices(PcieSwitch.class).size()); // 2 upper + 4 leaf
        assertEquals(0, count(t, LinkType.NVLINK));
    }

    @Test
    void hintsReplaceAssumptions() throws InputException {
        HardwareHints h = HardwareHints.NONE.withGpu("RTX 4090", 89).withNicSpeed(Bandwidth.ofGbits(100))
                .withCpu("AuthenticAMD", 23, 49);
        Topology t = new NvidiaSmiTopoReader(h).read("4090", text("B-topo-8xRTX4090-dual-epyc7542-nopcieswitch.txt"));
        assertEquals("RTX 4090", t.gpus().get(0).model());
        assertEquals(8, t.devices(Cpu.class).size()); // every GPU SYS to every other: 8 NUMA nodes
        assertEquals(16.0, link(t, "h0/cpu0", "h0/cpu7", LinkType.SMP).bandwidth().gbps(), 1e-9); // NCCL AMD_BW
        assertEquals(16.0 * 128 / 130 * 16 / 8, link(t, "h0/gpu6", "h0/cpu5", LinkType.PCIE).bandwidth().gbps(), 1e-9);
        assertEquals(12.5, ((Nic) t.device("h0/nic0").orElseThrow()).speed().gbps(), 1e-9);
        assertTrue(t.source().contains("sm 89 (hint)"), t.source());
    }

    /**
     * A GPU model hint the GPU database knows sets the sm without {@code --gpu-sm}: NV12 bridged pairs alone read as
     * A100 (sm 80, NVLink3, PCIe Gen4), but with H100 PCIe named they are sm 90 (CUDA compute capability 9.0 of
     * Hopper), NVLink4 and PCIe Gen5. Expected by hand: 12 links x 25 GB/s = 300 GB/s per direction (H100 PCIe
     * datasheet: NVLink bridge 600 GB/s bidirectional); the GPU's Gen5 x16 link 32 GT/s x 16 lanes x 128/130 / 8
     * = 63.015 GB/s.
     */
    @Test
    void aKnownGpuModelHintSetsTheSmWithoutAnSmHint() throws InputException {
        String file = "B-topo-8xA100-pcie-nvlink-bridge-pairs-issue-nccltests178.txt";
        Topology t = new NvidiaSmiTopoReader(HardwareHints.NONE.withGpu("H100-PCIE-80GB", 0))
                .read(file, text(file));
        assertEquals(90, t.gpus().get(0).sm());
        Link nv = link(t, "h0/gpu0", "h0/gpu1", LinkType.NVLINK);
        assertEquals(300.0, nv.bandwidth().gbps(), 1e-9);
        assertEquals(12, nv.count());
        assertTrue(nv.detail().contains("NVLink4"), nv.detail());
        Link pcie = t.outgoing(t.device("h0/gpu0").orElseThrow()).stream()
                .filter(l -> l.type() == LinkType.PCIE).findFirst().orElseThrow();
        assertEquals(32.0 * 16 * 128 / 130 / 8, pcie.bandwidth().gbps(), 1e-9);
        assertTrue(t.source().contains("H100-PCIE-80GB (hint), sm 90 from the GPU database"), t.source());
        assertFalse(t.source().contains("assumed from NV12"), t.source());
    }

    private static String cpuOf(Topology t, String id) {
        Device d = t.device(id).orElseThrow();
        List<Device> seen = new ArrayList<>(List.of(d));
        for (int i = 0; i < seen.size(); i++) {
            for (Link l : t.outgoing(seen.get(i))) {
                Device n = t.target(l);
                if (l.type() == LinkType.PCIE && n instanceof Cpu) {
                    return n.id();
                }
                if (l.type() == LinkType.PCIE && n instanceof PcieSwitch && !seen.contains(n)) {
                    seen.add(n);
                }
            }
        }
        return "";
    }
}
