package dev.collsim.simulator.tuning;

import dev.collsim.topology.GraphPattern;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.PathType;
import java.util.Map;

/**
 * Tuning inputs shared by the tuning tests: the fact sheet's §2.8 worked examples (graph values hand-derived there),
 * the graph set of a ring and a tree only, and a two-host CollNet communicator.
 */
final class TuningFixtures {

    private TuningFixtures() {
    }

    /**
     * @param ring the ring graph
     * @param tree the tree graph
     * @return the two graphs with no NVLS, CollNetDirect or CollNetChain graph ({@link GraphSummary#none})
     */
    static GraphSet ringAndTree(GraphSummary ring, GraphSummary tree) {
        return new GraphSet(ring, tree, GraphSummary.none(GraphPattern.NVLS),
                GraphSummary.none(GraphPattern.COLLNET_DIRECT), GraphSummary.none(GraphPattern.TREE));
    }

    /**
     * 2 hosts x 8 ranks of one compute capability with a CollNet and {@code NCCL_COLLNET_ENABLE=1}: ring, tree,
     * CollNetDirect and CollNetChain graphs of nCh channels at bwIntra 20, bwInter 12.5 GB/s (intra NVL, inter PXB,
     * latencyInter 0), an NVSwitch in each host, Intel x86.
     *
     * @param v               the release
     * @param nCh             channels of every graph
     * @param sm              compute capability x 10 of every rank
     * @param runtimeChannels comm.nChannels
     * @return NCCL's tuned table
     */
    static CostTable collNet(NcclVersion v, int nCh, int sm, int runtimeChannels) {
        GraphSummary ring = new GraphSummary(GraphPattern.RING, nCh, 20, 12.5, PathType.NVL, PathType.PXB, 0, true);
        GraphSummary tree = new GraphSummary(GraphPattern.BALANCED_TREE, nCh, 20, 12.5, PathType.NVL, PathType.PXB,
                0, true);
        GraphSummary direct = new GraphSummary(GraphPattern.COLLNET_DIRECT, nCh, 20, 12.5, PathType.NVL,
                PathType.PXB, 0, true);
        GraphSummary chain = new GraphSummary(GraphPattern.TREE, nCh, 20, 12.5, PathType.NVL, PathType.PXB, 0, true);
        GraphSet g = new GraphSet(ring, tree, GraphSummary.none(GraphPattern.NVLS), direct, chain);
        return NcclTuningModel.tune(new TuningInput(g, 16, 2, sm, sm, CpuKind.INTEL_X86, false, true, true, 8,
                GraphPattern.BALANCED_TREE, runtimeChannels, NcclSettings.parse(Map.of("NCCL_COLLNET_ENABLE", "1")),
                TuningConstants.of(v)));
    }

    /** 8x H100 SXM + NVSwitch, one host: ring/tree 12 ch x 30 GB/s, NVLS 8 ch, bwIntra 40, bwInter 60. */
    static TuningInput h100(Map<String, String> env, NcclVersion v) {
        GraphSummary ring = GraphSummary.singleHost(GraphPattern.RING, 12, 30, PathType.NVL);
        GraphSummary tree = GraphSummary.singleHost(GraphPattern.BALANCED_TREE, 12, 30, PathType.NVL);
        GraphSummary nvls = new GraphSummary(GraphPattern.NVLS, 8, 40, 60, PathType.NVL, PathType.PIX, 0, true);
        GraphSet g = new GraphSet(ring, tree, nvls, GraphSummary.none(GraphPattern.COLLNET_DIRECT),
                GraphSummary.none(GraphPattern.TREE));
        return new TuningInput(g, 8, 1, 90, 90, CpuKind.INTEL_X86, true, false, true, 8,
                GraphPattern.BALANCED_TREE, 24, NcclSettings.parse(env), TuningConstants.of(v));
    }

    /** 8x A100 SXM + NVSwitch, one host: ring/tree 12 ch x 20 GB/s, no NVLS (sm80). */
    static TuningInput a100(Map<String, String> env) {
        GraphSummary ring = GraphSummary.singleHost(GraphPattern.RING, 12, 20, PathType.NVL);
        GraphSummary tree = GraphSummary.singleHost(GraphPattern.BALANCED_TREE, 12, 20, PathType.NVL);
        GraphSet g = ringAndTree(ring, tree);
        return new TuningInput(g, 8, 1, 80, 80, CpuKind.AMD_X86, false, false, true, 8,
                GraphPattern.BALANCED_TREE, 24, NcclSettings.parse(env), TuningConstants.NCCL_2_30_7);
    }
}
