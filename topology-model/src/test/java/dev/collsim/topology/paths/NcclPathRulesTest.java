package dev.collsim.topology.paths;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostContext;
import dev.collsim.units.Bandwidth;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL's path rules on small hand-built hosts (NCCL 2.30 src/graph/paths.cc, nccl-model.md section 5.1); expected
 * types and bandwidths worked out by hand from those rules and NCCL's constants (Gen3 x16 = 12 GB/s, Gen4 x16 = 24).
 */
class NcclPathRulesTest {

    private static final double EPS = 1e-9;

    /**
     * CPU - top switch - {switch A: GPU0, GPU1, NIC0 (no GDR)}, {switch B: GPU2}. GPU0-GPU1: one switch, PIX.
     * GPU0-GPU2: PCI-PCI hops, PXB. GPU0-NIC0 is PIX but the NIC lacks GPU Direct RDMA, so NCCL routes it through the
     * CPU: PHB, both directions.
     */
    @Test
    void pixPxbAndNoGdrThroughTheCpu() {
        TopologyBuilder b = Topology.builder("hand");
        HostContext ctx = new HostContext(b, 0);
        Cpu cpu = ctx.cpu(0, "x86_64", "GenuineIntel", "Xeon Platinum 8480C");
        PcieSwitch top = ctx.pcieSwitch(0, 0);
        PcieSwitch a = ctx.pcieSwitch(1, -1);
        PcieSwitch c = ctx.pcieSwitch(2, -1);
        ctx.pcie(cpu, top, PcieGen.GEN4, 16);
        ctx.pcie(top, a, PcieGen.GEN4, 16);
        ctx.pcie(top, c, PcieGen.GEN4, 16);
        Gpu g0 = ctx.gpu(0, "X", 80, 0);
        Gpu g1 = ctx.gpu(1, "X", 80, 0);
        Gpu g2 = ctx.gpu(2, "X", 80, 0);
        Nic nic = ctx.nic(0, "mlx5_0", Bandwidth.ofGbits(100), false, 0);
        ctx.pcie(a, g0, PcieGen.GEN4, 16);
        ctx.pcie(a, g1, PcieGen.GEN4, 16);
        ctx.pcie(a, nic, PcieGen.GEN3, 16);
        ctx.pcie(c, g2, PcieGen.GEN4, 16);
        PathFinder pf = PathFinder.of(b.build());
        assertEquals(PathType.PIX, pf.path(g0, g1).type());
        assertEquals("PIX", pf.path(g0, g1).smiLabel());
        assertEquals(24.0, pf.path(g0, g1).nccl().gbps(), EPS);
        assertEquals(PathType.PXB, pf.path(g0, g2).type());
        assertEquals("PXB", pf.path(g0, g2).smiLabel());
        DevicePath toNic = pf.path(g0, nic);
        assertEquals(PathType.PHB, toNic.type());
        assertEquals(PathType.PHB, pf.path(nic, g0).type());
        assertEquals(12.0, toNic.nccl().gbps(), EPS, "Gen3 x16 NIC link");
        assertEquals(6, toNic.hopCount(), "GPU-A-top-CPU-top-A-NIC");
    }

    /** With NCCL_NVB_DISABLE=1, DGX-1 GPU0 to GPU5 (no direct NVLink) falls back to PCIe across the sockets: SYS. */
    @Test
    void nvbDisabled() {
        Topology t = Catalog.standalone(Catalog.hostType("dgx1-v100").orElseThrow(), 1);
        assertEquals(PathType.NVB, PathFinder.of(t).path("h0/gpu0", "h0/gpu5").type());
        DevicePath p = PathFinder.of(t, new PathFinder.Options(false, true)).path("h0/gpu0", "h0/gpu5");
        assertEquals(PathType.SYS, p.type());
        assertEquals(6.0, p.nccl().gbps(), EPS, "NCCL Broadwell QPI 6 GB/s");
    }

    /** With NCCL_PXN_DISABLE=1, DGX H100 GPU0 to GPU1's NIC stays on PCIe through the CPU: PHB. */
    @Test
    void pxnDisabled() {
        Topology t = Catalog.standalone(Catalog.dgxH100(), 1);
        assertEquals(PathType.PHB, PathFinder.of(t, new PathFinder.Options(true, false))
                .path("h0/gpu0", "h0/nic1").type());
    }

    /**
     * NVLink counts per GPU from the datasheets: V100 6, A100 12, H100/H200 18, B200 18; every catalog host has a path
     * between every GPU pair.
     */
    @Test
    void catalogNvlinkCountsAndConnectivity() {
        var expected = Map.of("dgx1-v100", 6, "dgx-a100", 12, "dgx-h100", 18, "dgx-h200", 18,
                "hgx-b200", 18, "pcie-8x-l40s", 0, "pcie-8x-rtx4090", 0);
        for (String name : Catalog.names()) {
            Topology t = Catalog.standalone(Catalog.hostType(name).orElseThrow(), 1);
            HostPaths hp = PathFinder.of(t).host(0);
            for (Gpu a : hp.gpus()) {
                int links = t.graph().outgoingEdgesOf(a).stream()
                        .filter(l -> l.type() == LinkType.NVLINK).mapToInt(l -> l.count()).sum();
                if (expected.containsKey(name)) {
                    assertEquals(expected.get(name), links, name + " " + a.id());
                }
                for (Gpu c : hp.gpus()) {
                    assertEquals(a == c, hp.path(a, c).type() == PathType.LOC, name);
                    assertEquals(false, hp.path(a, c).type() == PathType.DIS, name);
                }
            }
        }
    }
}
