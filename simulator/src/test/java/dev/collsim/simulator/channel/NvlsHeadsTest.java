package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.TestClusters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * NVLS heads between nodes: one per NIC (NCCL 2.30.7 {@code src/graph/search.cc ncclTopoSearchRecNet}, the NVLS
 * branch, and {@code src/graph/topo.cc ncclTopoGetLocalNet / ncclTopoGetLocalGpu}), not one per GPU.
 */
class NvlsHeadsTest {

    /** 8 H100 per host as the DGX fixture, but 4 x 400 Gb/s NICs: NIC n on PCIe switch n with GPUs 2n and 2n+1. */
    private static final TestClusters.Shape FOUR_NICS = new TestClusters.Shape("H100-SXM5-80GB", 90, 18, 4, 5, 4, 400,
            true);

    private static ChannelPlan plan(Topology t) {
        return ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_30_7);
    }

    /**
     * Two NICs and two GPUs per PCIe switch (DGX fixture): GPU 1's local NICs are NIC 0 and NIC 1 (both PIX, 48 GB/s),
     * shared by the 2 GPUs local to NIC 0, so netsPerGpu = ceil(2 / 2) = 1; GPU 1 starts at 1 % 2 = 1, mirrored over
     * 2 NICs to 1: NIC 1 on every channel. NIC 1's GPU is then GPU 1 (GPU 0 starts at 0: NIC 0).
     */
    @Test
    void twoNicsPerSwitchGiveEachGpuItsOwn() {
        Topology t = TestClusters.cluster(TestClusters.DGX_H100, 2);
        HostModel h = new HostModel(t, Set.of(0), t.gpus().subList(0, 8), NcclSettings.DEFAULTS, 30);
        assertEquals(1, LocalNet.ofGpu(h, 1, 0));
        assertEquals(1, LocalNet.ofGpu(h, 1, 5));
        assertEquals(0, LocalNet.ofGpu(h, 0, 0));
        assertEquals(1, LocalNet.gpuOf(h, 1));
        assertEquals(8, NvlsSearch.netHeads(h).length);
    }

    /**
     * Two hosts, 4 NICs each, one per GPU pair. Heads: both GPUs of a pair take the pair's NIC (one local NIC, 2 local
     * GPUs: netsPerGpu 1, mirrorBits over 1 NIC is 0), NIC n's GPU is 2n, so 4 heads (NCCL stops at netCount = 4).
     * bwIntra: on several nodes the sm90 speeds are the inter array (48, 45, ...); every GPU's NVSwitch links carry
     * (4 + 1) x 48 = 240 <= 18 x 20.6 = 370.8, so 48. bwInter: a head's NIC path is PIX at min(PCIe Gen5 48, NIC 50) =
     * 48; no faster speed exists, so 48. One head per GPU instead (8 heads, as collsim had) gave 9 x 40 = 360 -> 40
     * and each head a half NIC, 25 -> 24.
     */
    @Test
    void fourNicsPerHostGiveFourHeads() {
        ChannelPlan p = plan(TestClusters.cluster(FOUR_NICS, 2));
        assertEquals(4, p.graphs().nvls().nChannels());
        assertEquals(48.0, p.graphs().nvls().bwIntra(), 1e-9);
        assertEquals(48.0, p.graphs().nvls().bwInter(), 1e-9);
        assertEquals(PathType.PIX, p.graphs().nvls().typeInter());
    }

    /**
     * 8 NICs per host keep 8 heads: 9 x 40 = 360 <= 370.8 (9 x 42 = 378 is not), bwIntra 40; pass 2 raises bwInter
     * 40 -> 42 -> 45 -> 48 (each <= the head's NIC path 48, below 2 x 40).
     */
    @Test
    void eightNicsPerHostKeepEightHeads() {
        ChannelPlan p = plan(TestClusters.cluster(TestClusters.DGX_H100, 2));
        assertEquals(8, p.graphs().nvls().nChannels());
        assertEquals(40.0, p.graphs().nvls().bwIntra(), 1e-9);
        assertEquals(48.0, p.graphs().nvls().bwInter(), 1e-9);
    }

    /**
     * NCCL's choice at 8 GiB on 2 x (8 H100, 4 NICs): NVLSTree's table entry is 4 heads x min(48 x nvlsEfficiency
     * 0.85 x 3/4 x 2 = 61.2, 2 x bwInter 96, perChMaxNVLSTreeBw 57.7 (Hopper, 2 nodes)) = 230.8 GB/s busBw (NCCL
     * 2.30.7 {@code src/graph/tuning.cc}), below what Tree's entry can reach with its own graph (at most nChannels x
     * perChMaxTreeBw 41.4 per channel; this search's tree graph has 8 channels: 331.2), so NCCL runs Tree/Simple. On 8
     * NICs NVLSTree has 8 x min(40 x 0.85 x 7/8 x 2 = 59.5, 96, 57.7) = 461.6 and stays NCCL's choice. With one head
     * per GPU (as collsim had) the 4-NIC host also ran NVLSTree.
     */
    @Test
    void fourHeadsMakeNcclPickTreeAtLargeSizes() {
        NcclPredictor predictor = new NcclPredictor();
        Prediction four = predict(predictor, TestClusters.cluster(FOUR_NICS, 2));
        Prediction eight = predict(predictor, TestClusters.cluster(TestClusters.DGX_H100, 2));
        assertEquals(Algorithm.TREE, four.algorithm());
        assertEquals(Protocol.SIMPLE, four.protocol());
        assertEquals(Algorithm.NVLS_TREE, eight.algorithm());
    }

    private static Prediction predict(NcclPredictor predictor, Topology t) {
        return predictor.predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, 8L << 30, DataType.FLOAT,
                RedOp.SUM, NcclSettings.DEFAULTS));
    }
}
