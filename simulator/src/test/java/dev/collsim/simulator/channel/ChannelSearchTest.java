package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.TestClusters;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Channel search against the fact sheet's §2.8 hand-derived graphs (NCCL 2.30.7 {@code src/graph/search.cc}).
 */
class ChannelSearchTest {

    private static ChannelPlan plan(Topology t, Map<String, String> env) {
        return ChannelSearch.search(t, t.gpus(), NcclSettings.parse(env), NcclVersion.V2_30_7);
    }

    /**
     * DGX H100 (18 x 20.6 = 370.8 GB/s to the NVS node): sm90 intra speeds start at 60 (<= maxBw 370.8, 60 x 1 <=
     * totalBw 370.8); 6 channels fit (6 x 60 = 360 <= 370.8, 7 x 60 = 420 does not); not optimal (360 < 370.8)
     * so 50 (7 ch = 350), 40 (9 ch = 360, a tie) and 30 (12 ch = 360, a tie) are tried and do not beat 360; 24/60
     * < 0.49 stops. Dup (bwIntra 60 >= 50) gives 12 ch x 30. Tree: min = max = 12 channels, first speed with
     * 12 x speed <= 370.8 x 8/7 = 423.8 is 30, a chain fits 12 x 30. comm.nChannels = min(12, 12) x 2 = 24.
     * NVLS: 8 heads, each GPU's switch links carry 9 x bw <= 370.8 -> 40; pass 2 raises bwInter 40 -> 50 -> 60.
     */
    @Test
    void dgxH100SingleHost() {
        ChannelPlan p = plan(TestClusters.cluster(TestClusters.DGX_H100, 1), Map.of());
        assertEquals(12, p.graphs().ring().nChannels());
        assertEquals(30.0, p.graphs().ring().bwIntra(), 1e-9);
        assertEquals(PathType.NVL, p.graphs().ring().typeIntra());
        assertEquals(12, p.graphs().tree().nChannels());
        assertEquals(30.0, p.graphs().tree().bwIntra(), 1e-9);
        assertEquals(24, p.runtimeChannels());
        assertEquals(8, p.graphs().nvls().nChannels());
        assertEquals(40.0, p.graphs().nvls().bwIntra(), 1e-9);
        assertEquals(60.0, p.graphs().nvls().bwInter(), 1e-9);
        assertTrue(p.nvlsSupport());
        assertEquals(16, p.nvlsChannels());
    }

    /**
     * DGX A100 (12 x 20 = 240 GB/s): sm80 intra speed 40, 6 channels = 240 = totalBw, optimal. Dup (40 >= 25,
     * sm80 is not > 80) gives 12 ch x 20. No NVLS below sm90.
     */
    @Test
    void dgxA100SingleHost() {
        ChannelPlan p = plan(TestClusters.cluster(TestClusters.DGX_A100, 1), Map.of());
        assertEquals(12, p.graphs().ring().nChannels());
        assertEquals(20.0, p.graphs().ring().bwIntra(), 1e-9);
        assertEquals(24, p.runtimeChannels());
        assertFalse(p.graphs().nvls().present());
        assertFalse(p.nvlsSupport());
    }

    /**
     * Two DGX H100 hosts, 8 x 400 Gb/s NICs (50 GB/s), PCIe Gen5 x16 = 48 GB/s in NCCL's view: inter speeds start
     * at 48 (maxBw = min(48, 50)); each NIC carries one 48 GB/s channel each way, so 8 channels, NET -> GPU -> ...
     * -> GPU on the same PCIe switch -> NET (PIX); 8 x 48 = 384 >= 370.8 is optimal; no dup (sm90, 48 < 50,
     * 8 > 4). comm.nChannels = 8 x 2 = 16 (no further doubling: 16 is not < 16), as the AWS p5 2-node log shows
     * ("16 coll channels", validation/src/test/resources/data/D-info-1x8-2x8xH100-aws-p5-eks-channels-excerpt.txt).
     */
    @Test
    void twoDgxH100Hosts() {
        ChannelPlan p = plan(TestClusters.cluster(TestClusters.DGX_H100, 2), Map.of());
        assertEquals(2, p.nNodes());
        assertEquals(8, p.graphs().ring().nChannels());
        assertEquals(48.0, p.graphs().ring().bwInter(), 1e-9);
        assertEquals(PathType.PIX, p.graphs().ring().typeInter());
        assertEquals(16, p.runtimeChannels());
        assertEquals(400.0, p.nodeNicBw(), 1e-9);
    }

    /**
     * Two p5.48xlarge hosts as NCCL sees them through aws-ofi-nccl's RDMA devices (one 4 x 100 Gb/s device per GPU,
     * topology.catalog.OfiRailGroups): the DGX H100 search above, 8 ring channels at 48 GB/s, 16 at run time and 16
     * NVLS channels, as the 2-node p5 log prints ("16 coll channels, 16 nvls channels",
     * validation/src/test/resources/data/D-info-1x8-2x8xH100-aws-p5-eks-channels-excerpt.txt line 23); 32 devices of
     * 12.5 GB/s gave 32 channels of 12 and 64 at run time.
     */
    @Test
    void twoP5HostsSeeEightDevices() {
        ChannelPlan p = plan(ClusterLoader.load("p5.48xlargex2"), Map.of());
        assertEquals(8, p.graphs().ring().nChannels());
        assertEquals(48.0, p.graphs().ring().bwInter(), 1e-9);
        assertEquals(16, p.runtimeChannels());
        assertEquals(16, p.nvlsChannels());
    }

    /**
     * Two NREL Kestrel GPU nodes (HGX H100 4-GPU board: no NVSwitch, 6 NVLink4 per GPU pair; 2 x 200 Gb/s Slingshot
     * NICs, one per socket, PHB from their GPUs). NCCL 2.21.5 {@code src/transport/nvls.cc} {@code ncclNvlsInit}
     * takes NVLS support from the driver's multicast attribute, which needs NVSwitch: none here. Ring
     * ({@code src/graph/search.cc}): maxBw is the GPU-NIC path, min(Gen5 x16 48, 200 Gb/s = 25) = 25; the first sm90
     * inter speed not above it is 24 ({@code sm90SpeedArrayInter} 48, 45, 42, 40, 30, 24, ...); a NIC of 25 GB/s
     * carries one channel of 24, so 2 channels, NET -> GPU -> NVLink peers -> GPU -> NET; no dup
     * ({@code ncclTopoDupChannels}: bwIntra 24 < 25); run time 2 x 2 = 4. Tree: the same 2 channels at 24, then
     * pass 2 raises a tree's bwIntra alone while it is below twice bwInter (30, 40, 42, 45, 48; 2 x 48 = 96 fits a
     * pair's 6 x 20.6 = 123.6): 48 intra, 24 inter.
     */
    @Test
    void twoKestrelNodesRingOverDirectNvlinkWithoutNvls() {
        ChannelPlan p = plan(ClusterLoader.load("kestrel-gpux2"), Map.of());
        assertFalse(p.hasNvSwitch());
        assertFalse(p.nvlsSupport());
        assertFalse(p.graphs().nvls().present());
        assertEquals(2, p.graphs().ring().nChannels());
        assertEquals(24.0, p.graphs().ring().bwInter(), 1e-9);
        assertEquals(PathType.NVL, p.graphs().ring().typeIntra());
        assertEquals(PathType.PHB, p.graphs().ring().typeInter());
        assertEquals(2, p.graphs().tree().nChannels());
        assertEquals(48.0, p.graphs().tree().bwIntra(), 1e-9);
        assertEquals(24.0, p.graphs().tree().bwInter(), 1e-9);
        assertEquals(4, p.runtimeChannels());
    }

    /** NCCL_MAX_CTAS caps the runtime channels only; the graph is unchanged (fact sheet §3.4). */
    @Test
    void maxCtasChangesRuntimeChannelsOnly() {
        ChannelPlan p = plan(TestClusters.cluster(TestClusters.DGX_H100, 1), Map.of("NCCL_MAX_CTAS", "8"));
        assertEquals(8, p.runtimeChannels());
        assertEquals(12, p.graphs().ring().nChannels());
    }

    /**
     * PCIe-only host, Gen4 x16 = 24 GB/s: two GPUs per switch, switches under two CPUs (40 GB/s SMP). Without
     * NVLink the ring crosses the CPUs (PHB/SYS); P2P level PXB pushes farther pairs through the CPU. The ring
     * uses PCIe, so typeIntra is worse than NVB and LL128 is off (§2.5).
     */
    @Test
    void pcieHostRingIsNotNvlink() {
        ChannelPlan p = plan(TestClusters.cluster(TestClusters.PCIE_L40S, 1), Map.of());
        assertTrue(p.graphs().ring().typeIntra().ordinal() > PathType.NVB.ordinal());
        assertTrue(p.graphs().ring().nChannels() >= 1);
        assertTrue(p.graphs().ring().bwIntra() <= 24.0);
    }
}
