package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.TestClusters;
import dev.collsim.simulator.tuning.GraphPattern;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
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
}
