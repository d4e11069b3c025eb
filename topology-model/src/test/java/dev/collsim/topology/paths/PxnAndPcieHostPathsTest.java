package dev.collsim.topology.paths;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.PathType;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostContext;
import dev.collsim.topology.catalog.PcieEightGpu;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NCCL's path rules worked out by hand (NCCL 2.30.7 {@code src/graph/paths.cc}): PXN only in the GPU to NIC direction,
 * a PCIe-only host, NVSwitch chips of one domain as one NVS node, and 2.30's path update rule (better type first).
 * NCCL constants: Gen3 x16 12, Gen4 x16 24, Gen5 x16 48 GB/s; sm70 NVLink 20, sm90 20.6 GB/s per link; Broadwell QPI
 * 6, Sapphire Rapids UPI 22 GB/s ({@code src/graph/topo.h}).
 */
class PxnAndPcieHostPathsTest {

    private static final double EPS = 1e-9;

    /**
     * DGX-1 V100: NIC1 sits on PCIe switch 1 with GPU2 and GPU3, under CPU0; GPU0 is on switch 0, also under CPU0.
     * GPU0 to NIC1 by the search: GPU0-sw0-CPU0-sw1-NIC1, PHB, 12 GB/s, 4 hops. The NIC's local GPU is GPU2 (PIX 12,
     * lowest index of the two PIX GPUs); GPU2 reaches NIC1 at PIX (at most P2C, NCCL_PXN_C2C=1 default) with GDR, is
     * joined to GPU0 by one NVLink (NVL, 20 GB/s), and GPU0's own path is worse than PXN (PHB), so NCCL moves GPU0 to
     * NIC1 through GPU2: PXN, min(20, 12) = 12 GB/s, 3 hops (NVLink, PCIe, PCIe). NCCL does this "only in the
     * GPU->NIC direction" (paths.cc, {@code addInterStep(system, GPU, localGpuIndex, GPU, g, NET, n)}), so NIC1 to
     * GPU0 stays PHB, 12 GB/s, 4 hops; PHB is not below PHB, so the GPU Direct RDMA rule leaves it alone.
     */
    @Test
    void dgx1PxnIsGpuToNicOnly() {
        Topology t = Catalog.standalone(Catalog.hostType("dgx1-v100").orElseThrow(), 1);
        PathFinder pf = PathFinder.of(t);
        DevicePath out = pf.path("h0/gpu0", "h0/nic1");
        assertEquals(PathType.PXN, out.type());
        assertEquals(12.0, out.nccl().gbps(), EPS);
        assertEquals(3, out.hopCount());
        assertEquals("h0/gpu2", out.hops().get(0).to().id(), "relay is NIC1's local GPU");
        DevicePath in = pf.path("h0/nic1", "h0/gpu0");
        assertEquals(PathType.PHB, in.type());
        assertEquals(12.0, in.nccl().gbps(), EPS);
        assertEquals(4, in.hopCount());
        assertTrue(in.hops().stream().anyMatch(h -> h.to() instanceof Cpu), "through CPU0");
        assertEquals(PathType.PHB, PathFinder.of(t, new PathFinder.Options(true, false))
                .path("h0/gpu0", "h0/nic1").type(), "NCCL_PXN_DISABLE=1");
    }

    /**
     * 8x L40S: 4 Gen4 switches (2 GPUs + 1 NIC each), switches 0-1 under CPU0, 2-3 under CPU1, UPI 22 GB/s. GPU0-GPU1
     * share switch 0: PIX 24. GPU0-GPU2 cross CPU0 (PHB, above the default P2P level PXB): routed through GPU2's CPU,
     * CPU0, still PHB 24. GPU0-GPU4 cross the UPI: SYS, through CPU1, min(24, 22) = 22. GPU0-NIC0: PIX, min(24, 200
     * Gb/s = 25) = 24. GPU0-NIC1: PHB 24 both ways; no NVLink peer, so no PXN. GPU0-NIC2: SYS 22.
     */
    @Test
    void pcieOnlyHost() {
        Topology t = Catalog.standalone(PcieEightGpu.l40s(), 1);
        PathFinder pf = PathFinder.of(t);
        assertPath(pf, "h0/gpu0", "h0/gpu1", PathType.PIX, 24);
        assertPath(pf, "h0/gpu0", "h0/gpu2", PathType.PHB, 24);
        assertPath(pf, "h0/gpu0", "h0/gpu4", PathType.SYS, 22);
        assertPath(pf, "h0/gpu0", "h0/nic0", PathType.PIX, 24);
        assertPath(pf, "h0/gpu0", "h0/nic1", PathType.PHB, 24);
        assertPath(pf, "h0/nic1", "h0/gpu0", PathType.PHB, 24);
        assertPath(pf, "h0/gpu0", "h0/nic2", PathType.SYS, 22);
        assertEquals(0, CatalogPathsTest.gpuPairs(pf.host(0), PathType.PXN)
                + CatalogPathsTest.gpuPairs(pf.host(0), PathType.NVL));
        DevicePath noP2p = PathFinder.of(t, new PathFinder.Options(true, true, PathType.LOC)).path("h0/gpu0", "h0/gpu1");
        assertEquals(PathType.PHB, noP2p.type(), "NCCL_P2P_DISABLE=1: through CPU0");
        assertEquals(4, noP2p.hopCount());
    }

    /**
     * Two sm90 GPUs, each with 9 NVLinks to each of two NVSwitch chips of one host and both on one Gen5 switch. NCCL
     * has one NVS node per domain, so GPU0-GPU1 is NVL over 18 links: 18 x 20.6 = 370.8 GB/s, 2 hops, NV18. With one
     * NVLink to one chip the NVL path is 20.6 GB/s and the PIX path 48 GB/s, both 2 hops: NCCL 2.30 keeps the better
     * type (NVL 20.6), where 2.28 kept the wider one.
     */
    @Test
    void nvSwitchChipsAreOneNodeAndTypeComesFirst() {
        DevicePath wide = PathFinder.of(twoGpus(9)).path("h0/gpu0", "h0/gpu1");
        assertEquals(PathType.NVL, wide.type());
        assertEquals(18 * 20.6, wide.nccl().gbps(), EPS);
        assertEquals(2, wide.hopCount());
        assertEquals("NV18", wide.smiLabel());
        DevicePath thin = PathFinder.of(twoGpus(0)).path("h0/gpu0", "h0/gpu1");
        assertEquals(PathType.NVL, thin.type());
        assertEquals(20.6, thin.nccl().gbps(), EPS);
    }

    /** The hop index numbers each hop once, gives NCCL's capacity and the reverse hop, and maps a path to it. */
    @Test
    void hopIndexOfAPath() {
        Topology t = twoGpus(9);
        PathFinder pf = PathFinder.of(t);
        HopIndex idx = pf.hopIndex(List.of(0));
        DevicePath p = pf.path("h0/gpu0", "h0/gpu1");
        int[] hops = idx.indices(p);
        assertEquals(2, hops.length);
        double[] cap = idx.ncclCapacities();
        assertEquals(9 * 2 * 20.6, cap[hops[0]], EPS);
        assertEquals(9 * 2 * 20.6, cap[hops[1]], EPS);
        assertEquals(idx.hop(hops[0]).to(), idx.hop(hops[1]).from());
        DevicePath back = pf.path("h0/gpu1", "h0/gpu0");
        assertArrayEquals(new int[] {idx.reverse(hops[1]), idx.reverse(hops[0])}, idx.indices(back));
        Gpu g0 = t.gpus().get(0);
        assertEquals(2, idx.outgoing(g0).length, "to the NVS node and to the PCIe switch");
    }

    private static Topology twoGpus(int linksPerChip) {
        TopologyBuilder b = Topology.builder("two");
        HostContext ctx = new HostContext(b, 0);
        Cpu cpu = ctx.cpu(0, "x86_64", "GenuineIntel", "Xeon Platinum 8480C");
        PcieSwitch sw = ctx.pcieSwitch(0, 0);
        ctx.pcie(cpu, sw, PcieGen.GEN5, 16);
        var chip0 = ctx.nvSwitch(0, 1);
        var chip1 = ctx.nvSwitch(1, 1);
        for (int i = 0; i < 2; i++) {
            Gpu g = ctx.gpu(i, "H100", 90, 0);
            ctx.pcie(sw, g, PcieGen.GEN5, 16);
            ctx.nvlink(g, chip0, linksPerChip == 0 ? 1 : linksPerChip, 25, "NVLink4");
            if (linksPerChip > 0) {
                ctx.nvlink(g, chip1, linksPerChip, 25, "NVLink4");
            }
        }
        return b.build();
    }

    private static void assertPath(PathFinder pf, String from, String to, PathType type, double gbps) {
        DevicePath p = pf.path(from, to);
        assertEquals(type, p.type(), from + " -> " + to);
        assertEquals(gbps, p.nccl().gbps(), EPS, from + " -> " + to);
    }
}
