package dev.collsim.topology.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.CpuModels;
import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PathType;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.PathFinder;
import dev.collsim.units.Bandwidth;
import org.junit.jupiter.api.Test;

/** Hosts synthesized from the GPU database: NVLink shape per model, one NIC per GPU, GDR off for GeForce. */
class SynthesizedHostTest {

    private static Topology host(String sku, int gpus) {
        return Catalog.standalone(new SynthesizedHost(GpuModels.sku(sku).orElseThrow(), gpus, Bandwidth.ofGbits(200)),
                1);
    }

    /** NVLinks between two GPUs (0 when none). */
    private static int nvlinks(Topology t, Gpu a, Gpu b) {
        return t.outgoing(a).stream().filter(l -> l.type() == LinkType.NVLINK && t.target(l).equals(b))
                .mapToInt(l -> l.count()).sum();
    }

    @Test
    void bridgedBoardsJoinPairs() {
        // H100 NVL datasheet: NVLink bridge 600 GB/s = 12 NVLink4 links, joining two boards
        Topology t = host("H100-NVL-94GB", 4);
        var g = t.gpus();
        assertEquals(12, nvlinks(t, g.get(0), g.get(1)));
        assertEquals(12, nvlinks(t, g.get(2), g.get(3)));
        assertEquals(0, nvlinks(t, g.get(1), g.get(2)));
    }

    @Test
    void eighteenLinkModelsWithoutNvSwitchMeetAllToAll() {
        // 4 GH200 (18 NVLink4 each) share links with 3 peers: 18 / 3 = 6 per pair (HPE Cray EX quad node)
        Topology t = host("GH200 96GB", 4);
        var g = t.gpus();
        for (int a = 0; a < 4; a++) {
            for (int b = 0; b < 4; b++) {
                assertEquals(a == b ? 0 : 6, nvlinks(t, g.get(a), g.get(b)), a + "-" + b);
            }
        }
    }

    @Test
    void nvSwitchModelsAndPcieOnlyModels() {
        Topology h800 = host("H800-SXM5-80GB", 8);
        assertEquals(1, h800.devices(NvSwitch.class).size());
        Gpu g0 = h800.gpus().get(0);
        // H800 datasheet: NVLink 400 GB/s bidirectional = 8 NVLink4 links, all to the NVSwitch
        assertEquals(8, h800.outgoing(g0).stream().filter(l -> l.type() == LinkType.NVLINK).mapToInt(l -> l.count())
                .sum());
        Topology t4 = host("T4", 2);
        assertEquals(0, nvlinks(t4, t4.gpus().get(0), t4.gpus().get(1)));
        assertEquals(2, t4.devices(Nic.class).size());
    }

    @Test
    void geforceBoardsHaveNoGpuDirectRdma() {
        SynthesizedHost rtx = new SynthesizedHost(GpuModels.sku("GeForce RTX 2080 Ti").orElseThrow(), 2,
                Bandwidth.ofGbits(100));
        assertFalse(rtx.gdr());
        assertTrue(rtx.assumptions().stream().anyMatch(a -> a.contains("GPUDirect RDMA off")));
        assertTrue(new SynthesizedHost(GpuModels.sku("L4").orElseThrow(), 1, Bandwidth.ofGbits(100)).gdr());
        assertThrows(IllegalArgumentException.class,
                () -> new SynthesizedHost(GpuModels.sku("L4").orElseThrow(), 0, Bandwidth.ofGbits(100)));
    }

    /**
     * GPUs behind one PCIe switch (the 2x RTX 2080 Ti file's header, "both GPUs behind one PCIe switch (PIX)"):
     * the GPU pair path is PIX (one switch, no host bridge; NCCL 2.30.7 src/graph/paths.cc), where one switch per GPU
     * gives PHB (through the CPU).
     */
    @Test
    void sharedSwitchGivesPixBetweenGpus() {
        GpuModels.Sku sku = GpuModels.sku("GeForce RTX 2080 Ti").orElseThrow();
        Topology one = Catalog.standalone(new SynthesizedHost(sku, 2, Bandwidth.ofGbits(100), 2), 1);
        Topology own = Catalog.standalone(new SynthesizedHost(sku, 2, Bandwidth.ofGbits(100)), 1);
        assertEquals(PathType.PIX, PathFinder.of(one).path("h0/gpu0", "h0/gpu1").type());
        assertEquals(PathType.PHB, PathFinder.of(own).path("h0/gpu0", "h0/gpu1").type());
        assertEquals(1, one.devices(PcieSwitch.class).size());
        assertTrue(new SynthesizedHost(sku, 2, Bandwidth.ofGbits(100), 2).assumptions().stream()
                .anyMatch(a -> a.contains("all GPUs behind one")));
    }
    /**
     * Switches of 4 (the 8x RTX PRO 6000 file's header: "4x c-payne PCIe Gen5 switches (4 GPUs each)", 8 of its GPUs
     * used): GPUs 0-3 behind the first switch, 4-7 behind the second, so 2 switches; a pair inside a switch is PIX,
     * a pair across switches goes through the CPU, PHB (NCCL 2.30.7 src/graph/paths.cc: a PCI link touching the CPU
     * makes the path PHB). Each switch hangs off the CPU by one x16 link of the GPU's generation (Gen5: 63.02 GB/s,
     * 32 GT/s x 16 lanes x 128/130 / 8 bits). A count outside 1 to gpus is refused.
     */
    @Test
    void switchesOfFourSplitEightGpus() {
        GpuModels.Sku sku = GpuModels.sku("RTX PRO 6000 Blackwell").orElseThrow();
        SynthesizedHost type = new SynthesizedHost(sku, 8, Bandwidth.ofGbits(400), 4);
        Topology t = Catalog.standalone(type, 1);
        assertEquals(2, t.devices(PcieSwitch.class).size());
        PathFinder paths = PathFinder.of(t);
        assertEquals(PathType.PIX, paths.path("h0/gpu0", "h0/gpu3").type());
        assertEquals(PathType.PIX, paths.path("h0/gpu4", "h0/gpu7").type());
        assertEquals(PathType.PHB, paths.path("h0/gpu3", "h0/gpu4").type());
        assertEquals(PathType.PHB, paths.path("h0/gpu0", "h0/gpu7").type());
        assertEquals(63.02, paths.path("h0/gpu3", "h0/gpu4").physical().gbps(), 0.01);
        // NCCL's figure for the same links: width x speed code / 80 = 16 x 240 / 80 (NCCL 2.27.5 src/graph/topo.cc)
        assertEquals(48.0, paths.path("h0/gpu3", "h0/gpu4").nccl().gbps(), 1e-9);
        assertTrue(type.name().endsWith("-4-per-switch"), type.name());
        assertTrue(type.assumptions(1).stream().anyMatch(a -> a.contains("4 GPUs behind each of 2")),
                type.assumptions(1).toString());
        assertThrows(IllegalArgumentException.class, () -> new SynthesizedHost(sku, 8, Bandwidth.ofGbits(400), 9));
        assertThrows(IllegalArgumentException.class, () -> new SynthesizedHost(sku, 8, Bandwidth.ofGbits(400), 0));
    }

    /**
     * NICs on another NUMA node than the GPUs (the header of NVIDIA/nccl#2441's H100 NVL hosts: 2x AMD EPYC 9534,
     * "GPUs on different NUMA domains from NIC"): NCCL makes one CPU node per NUMA node, joined by a SYS link
     * (NCCL 2.30.7 src/graph/topo.cc ncclTopoConnectCpus), so GPU to NIC crosses it: PCIe to CPU 0, SYS to CPU 1,
     * PCIe to the NIC, type SYS (src/graph/topo.h: PATH_SYS "traversing PCIe as well as the SMP interconnect"). SYS is
     * farther than NCCL's default GPUDirect RDMA level P2C (src/graph/paths.cc ncclTopoCheckGdr), so GDR is off and
     * the path goes through the GPU's CPU; its NCCL bandwidth is the SYS link's, AMD_BW = 16 GB/s (src/graph/topo.h),
     * below the Gen5 x16 PCIe links' 48 GB/s. Physically the link is xGMI, 4 x16 links at 32 GT/s = 4 x 64 GB/s
     * (AMD 4th Gen EPYC architecture white paper), above PCIe Gen5 x16 (63.02 GB/s), so the NIC's own port binds:
     * 200 Gb/s = 25 GB/s.
     */
    @Test
    void nicOnAnotherNumaNodeGivesSysPathThroughTheCpus() {
        GpuModels.Sku sku = GpuModels.sku("H100-NVL-94GB").orElseThrow();
        CpuModel genoa = CpuModels.find("2x AMD EPYC 9534").orElseThrow();
        SynthesizedHost type = new SynthesizedHost(sku, 2, Bandwidth.ofGbits(200), 1,
                new SynthesizedHost.NicNuma(genoa, 2, 2));
        Topology t = Catalog.standalone(type, 1);
        PathFinder paths = PathFinder.of(t);
        for (int g = 0; g < 2; g++) {
            var p = paths.path("h0/gpu" + g, "h0/nic" + g);
            assertEquals(PathType.SYS, p.type(), p.toString());
            assertEquals(16.0, p.nccl().gbps(), 1e-9);
            assertEquals(25.0, p.physical().gbps(), 1e-9);
        }
        assertEquals(12, nvlinks(t, t.gpus().get(0), t.gpus().get(1)));
        assertTrue(type.name().endsWith("-nic-numa-apart"), type.name());
        assertTrue(type.assumptions(2).stream().anyMatch(a -> a.contains("GPU-NIC path SYS, GPUDirect RDMA off")),
                type.assumptions(2).toString());
        Topology near = Catalog.standalone(new SynthesizedHost(sku, 2, Bandwidth.ofGbits(200)), 1);
        assertEquals(PathType.PIX, PathFinder.of(near).path("h0/gpu0", "h0/nic0").type());
    }

    /**
     * A GH200 host is built as superchips: each GPU on its own Grace by NVLink-C2C, its NIC on that Grace's PCIe. NCCL
     * types GPU to C2C to CPU to PCIe to NIC as P2C (NCCL 2.30.7 {@code src/graph/paths.cc}: a C2C hop merged with a
     * host-bridge hop), so the GPU-NIC path is P2C, not the PIX of a PCIe switch, and the GPUs still meet all-to-all
     * over 6 NVLink4 links per pair (18 / 3 peers).
     */
    @Test
    void gh200GpusReachTheirNicsThroughTheirGrace() {
        Topology t = host("GH200 96GB", 4);
        PathFinder paths = PathFinder.of(t);
        for (int g = 0; g < 4; g++) {
            assertEquals(PathType.P2C, paths.path("h0/gpu" + g, "h0/nic" + g).type(), "gpu" + g);
        }
        assertEquals(4, t.devices(Cpu.class).size(), "one Grace per superchip");
        assertTrue(t.devices(PcieSwitch.class).isEmpty(), "no PCIe switch joins a GH200's GPU and NIC");
        assertEquals(6, nvlinks(t, t.gpus().get(0), t.gpus().get(3)));
        Topology one = host("GH200 96GB", 1);
        assertEquals(PathType.P2C, PathFinder.of(one).path("h0/gpu0", "h0/nic0").type());
    }

    /**
     * A NIC on a CPU root port of its own (nicOnCpu): GPU to its switch to the CPU to the NIC crosses a host bridge,
     * which NCCL types PHB (NCCL 2.30.7 {@code src/graph/topo.h}: PATH_PHB "traversing a PCIe Host Bridge"); the
     * A100 PCIe file's log prints that distance (NCCL 2.16.5 {@code distance 6}). The physical path is PCIe Gen4 x16
     * all the way (25.0 GB/s is the 200 Gb/s NIC's port, below the links), and the NIC is no longer on a switch.
     */
    @Test
    void nicOnItsOwnRootPortGivesPhb() {
        GpuModels.Sku sku = GpuModels.sku("A100-PCIE-40GB").orElseThrow();
        SynthesizedHost type = new SynthesizedHost(sku, 1, Bandwidth.ofGbits(200), 1, null, true);
        Topology t = Catalog.standalone(type, 1);
        var p = PathFinder.of(t).path("h0/gpu0", "h0/nic0");
        assertEquals(PathType.PHB, p.type(), p.toString());
        assertEquals(25.0, p.physical().gbps(), 1e-9);
        assertTrue(type.name().endsWith("-nic-on-cpu"), type.name());
        assertTrue(type.assumptions(2).stream().anyMatch(a -> a.contains("GPU-NIC path PHB")),
                type.assumptions(2).toString());
    }
}
