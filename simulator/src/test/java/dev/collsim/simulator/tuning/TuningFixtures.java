package dev.collsim.simulator.tuning;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.PathType;
import java.util.Map;

/** Tuning inputs of the fact sheet's §2.8 worked examples (graph values hand-derived there). */
final class TuningFixtures {

    private TuningFixtures() {
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
        GraphSet g = new GraphSet(ring, tree, GraphSummary.none(GraphPattern.NVLS),
                GraphSummary.none(GraphPattern.COLLNET_DIRECT), GraphSummary.none(GraphPattern.TREE));
        return new TuningInput(g, 8, 1, 80, 80, CpuKind.AMD_X86, false, false, true, 8,
                GraphPattern.BALANCED_TREE, 24, NcclSettings.parse(env), TuningConstants.NCCL_2_30_7);
    }
}
