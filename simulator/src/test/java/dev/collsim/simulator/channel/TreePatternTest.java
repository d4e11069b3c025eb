package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.TestClusters;
import dev.collsim.topology.GraphPattern;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tree pattern NCCL's search ends with (NCCL 2.18.5 to 2.30.7 {@code src/graph/search.cc ncclTopoCompute}: a
 * balanced tree first, then on sm90+ "a simpler tree"; the balanced tree's second GPU must reach the channel's NIC
 * within typeInter, {@code ncclTopoSearchCheckNet}). Expected patterns are worked from those rules and the hosts'
 * PCIe layout, not read from collsim.
 */
class TreePatternTest {

    private static GraphPattern treePattern(Topology t) {
        return ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_30_7).graphs().tree()
                .pattern();
    }

    /**
     * Catalog DGX H100 (DGX H100 User Guide: GPU i and NIC i alone on one PCIe switch): at the first typeInter, PXB,
     * only GPU i reaches NIC i, so the balanced tree finds no channel; the plain tree finds one channel per NIC,
     * 8 = the ring's count (the tree's maxChannels), perfect, and the search stops there: pattern 3.
     */
    @Test
    void oneGpuPerNicEndsAsPlainTreeOnHopper() {
        assertEquals(GraphPattern.TREE, treePattern(TestClusters.dgxH100(2, null)));
    }

    /**
     * The test fixture's hosts put 2 GPUs and 2 NICs on each PCIe switch: both GPUs of a switch reach its NICs at the
     * same path type, so the balanced tree's second GPU exists for every channel and NCCL keeps pattern 1.
     */
    @Test
    void twoGpusPerSwitchKeepTheBalancedTree() {
        assertEquals(GraphPattern.BALANCED_TREE, treePattern(TestClusters.cluster(TestClusters.DGX_H100, 2)));
    }

    /**
     * 2 x 2 DGX H100 (GPUs 0 and 1 of each host, as A-allreduce-2x2xH100-dgx-ib.txt lines 14-17: buses 0x1b and
     * 0x43), worked by hand from NCCL 2.30.7 {@code src/graph/search.cc}. GPU 0 reaches NIC 0 and GPU 1 NIC 1 at PXB;
     * each GPU reaches the other's NIC only through the other GPU (PXN) or the CPU. Ring: at 48 GB/s (the first
     * sm90 inter speed under the 48 GB/s Gen5 x16 GPU-NIC path, {@code sm90SpeedArrayInter}) a 50 GB/s NIC holds one
     * channel, so 2 channels (first found at PXN: NET 0, GPU 0, GPU 1, back to NET 0 through GPU 0); 24 GB/s gives
     * 4 x 24, no better, and 22 / 48 is under the .49 step limit; {@code ncclTopoDupChannels} (bwIntra 48 >= 25,
     * 2 channels not > 4) makes 4 x 24. Tree (min = max = the ring's 4 channels): the balanced tree needs GPU 1 to
     * send to GPU 0's NIC within PXB, which it cannot; the plain tree needs 2 channels per NIC, 24 GB/s, and is
     * perfect at PXB (4 = maxChannels), so the search stops with pattern 3 before typeInter reaches PXN; pass 2
     * raises a tree's bwIntra while below twice bwInter: 30, 40, 42, 45, 48.
     */
    @Test
    void twoGpusOfEachDgxH100HostEndAsPlainTreeOfFourChannels() {
        Topology t = TestClusters.dgxH100(2, null);
        var plan = ChannelSearch.search(t, List.of(t.gpus().get(0), t.gpus().get(1), t.gpus().get(8),
                t.gpus().get(9)), NcclSettings.DEFAULTS, NcclVersion.V2_30_7);
        var tree = plan.graphs().tree();
        var ring = plan.graphs().ring();
        assertEquals(GraphPattern.TREE, tree.pattern());
        assertEquals(4, tree.nChannels());
        assertEquals(48.0, tree.bwIntra(), 1e-9);
        assertEquals(24.0, tree.bwInter(), 1e-9);
        assertEquals(4, ring.nChannels());
        assertEquals(24.0, ring.bwIntra(), 1e-9);
        assertEquals(2, ring.dupFactor());
        assertEquals(48.0, ring.searchBwInter(), 1e-9);
        assertEquals(1, tree.dupFactor());
    }

    /** One GPU per node: {@code if (ngpus == 1) ... graph->pattern = NCCL_TOPO_PATTERN_TREE}, any GPU. */
    @Test
    void oneGpuPerNodeIsAPlainTree() {
        Topology t = TestClusters.cluster(TestClusters.DGX_A100, 2);
        assertEquals(GraphPattern.TREE, ChannelSearch.search(t, List.of(t.gpus().get(0), t.gpus().get(8)),
                NcclSettings.DEFAULTS, NcclVersion.V2_30_7).graphs().tree().pattern());
    }

    /** One node: no network split, pattern 1 as asked (the fallback needs a NIC to split). */
    @Test
    void oneNodeKeepsTheBalancedTree() {
        assertEquals(GraphPattern.BALANCED_TREE, treePattern(TestClusters.dgxH100(1, null)));
    }

    /**
     * NCCL 2.8-2.9 ask for a split tree below sm80 (v2.8.4-1 {@code src/graph/search.cc} line 682: {@code ccMin < 80}
     * turns pattern 1 into 2) and 2.10.3 no longer does (v2.10.3-1 line 740 keeps only the comment). ABCI Compute Node
     * (V), 4 V100 (sm70) and 2 EDR NICs a node, 2 nodes: split under the 2.8.4 entry, balanced under 2.18.5 (sm70 is
     * below the sm90 "simpler tree"). 2 ABCI Compute Nodes (A), 8 A100 (sm80): balanced under 2.8.4 ({@code ccMin} 80
     * is not below 80).
     */
    @Test
    void splitTreeBelowSm80OnlyInNccl28To29() {
        Topology v = ClusterLoader.load("abci-node-vx2");
        assertEquals(GraphPattern.SPLIT_TREE, ChannelSearch.search(v, v.gpus(), NcclSettings.DEFAULTS,
                NcclVersion.V2_8_4).graphs().tree().pattern());
        assertEquals(GraphPattern.BALANCED_TREE, ChannelSearch.search(v, v.gpus(), NcclSettings.DEFAULTS,
                NcclVersion.V2_18_5).graphs().tree().pattern());
        Topology a = ClusterLoader.load("abci-node-ax2");
        assertEquals(GraphPattern.BALANCED_TREE, ChannelSearch.search(a, a.gpus(), NcclSettings.DEFAULTS,
                NcclVersion.V2_8_4).graphs().tree().pattern());
    }
}
