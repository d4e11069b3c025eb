package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Context parallelism worked by hand with {@link FormulaPredictor} ({@code 5 us + factor x S / B}, NVLink 450 GB/s =
 * 450,000 B/us). h=2048, L=16, N=805,306,368, no GQA (h_kv = h); tp=2 cp=2 pp=1 dp=2 on one host of 8 GPUs,
 * s=1024, b=1, G=4 so m = 4/(1 x 2) = 2; fp32 gradient reduction. Ranks r = t + 2 (c + 2 d).
 */
class ContextParallelTest {

    private static final StepPlanner PLANNER = new StepPlanner(new FormulaPredictor(), NcclSettings.DEFAULTS,
            RankOrder.TP_PP_DP);

    private static TrainingJob job() {
        return new TrainingJob(new ModelShape(805_306_368L, 2048, 16), 4, 2, 2, 2, 2, 1, 1, 1, 0, 0, 1, 1.0, 0, false,
                1024, 1, 4, ComputeRate.stepComputeMs(100), Recompute.NONE, 0, 2);
    }

    private static CommTiming row(StepPlan p, CommKind k) {
        return p.comms().stream().filter(c -> c.op().kind() == k).findFirst().orElseThrow();
    }

    /**
     * <ul>
     *   <li>8 GPUs = 2 x 2 x 1 x 2. TP AllReduce of b (s/cp) h x 2 B = 512 x 2048 x 2 = 2,097,152 B, 4 x 16 x 2 = 128
     *       calls of 5 + 2,097,152/450,000 = 9.660338 us.</li>
     *   <li>CP ring: K and V, 2 x 1 x 512 x 2048 x 2 B / tp = 2,097,152 B; 3 (cp-1) x 16 layers x 2 micro-batches
     *       = 96 calls of 9.660338 us = 927.39243 us; group = ranks 0 and 2.</li>
     *   <li>DP AllReduce over dp x cp = 4 ranks (0, 2, 4, 6): 805,306,368/2 params x 4 B = 1,610,612,736 B,
     *       5 + 2 x 3/4 x 1,610,612,736/450,000 = 5,373.70912 us.</li>
     * </ul>
     */
    @Test
    void contextParallelSplitsTheSequenceAndAddsTheKvRing() {
        Topology oneHost = TestClusters.cluster(1, 8, 1, 400, 450, "H100-SXM5-80GB");
        TrainingJob j = job();
        assertEquals(8, j.nGpus());
        StepPlan p = PLANNER.plan(oneHost, j, Double.NaN);
        CommTiming tp = row(p, CommKind.TP_ALLREDUCE);
        assertEquals(2_097_152L, tp.op().sizeBytes());
        assertEquals(128, tp.op().callsPerStep());
        CommTiming cp = row(p, CommKind.CP_SENDRECV);
        assertEquals(2_097_152L, cp.op().sizeBytes());
        assertEquals(96, cp.op().callsPerStep());
        assertEquals(927.39243, cp.totalUs(), 1e-4);
        assertEquals(2, cp.nRanks());
        GroupPlacement g = new GroupPlacement(oneHost, j, RankOrder.TP_PP_DP);
        assertEquals(2, g.group(GroupKind.CP).get(1).index());
        assertEquals(List.of(0, 2, 4, 6), g.group(GroupKind.DP).stream().map(x -> x.index()).toList());
        CommTiming dp = row(p, CommKind.DP_ALLREDUCE);
        assertEquals(1_610_612_736L, dp.op().sizeBytes());
        assertEquals(5_373.70912, dp.perCallUs(), 1e-4);
    }

    /**
     * Activations per layer use s/cp = 512 tokens (Korthikanti Table 2 with tp=2, no SP, no recompute):
     * s b h = 1,048,576; 10 + 24/2 + 5 a s/(h t) with a = 16 heads: 5 x 16 x 512 / (2048 x 2) = 10, so 32 per
     * element: 33,554,432 B.
     */
    @Test
    void activationsUseTheSequenceChunk() {
        assertEquals(33_554_432.0, MemoryModel.activationsPerLayer(job()), 1e-6);
    }

    /**
     * Experts with context parallelism: h=1024, L=4 GPT layers, 8 experts of 2 x 1024 x 4096 weights on every layer
     * (4 x 8 x 8,388,608 = 268,435,456 expert weights of 400,000,000), top-2, ep=4, dp=4, cp=2, tp=pp=1 on 8 GPUs,
     * s=2048, b=1, G=4 (m=1), ZeRO-1. Ranks r = c + 2 d, the dense-replica index q = c + 2 d = r.
     * <ul>
     *   <li>AllToAll per rank: b s/cp = 1024 tokens x 2 x 1024 x 2 B = 4,194,304 B; 4 x 4 layers x 1 = 16 calls.</li>
     *   <li>EP group: q 0..3 = ranks 0, 1, 2, 3 (both cp indices); expert-data-parallel: dp cp / ep = 2 ranks, q 0
     *       and 4 = ranks 0 and 4, so the expert gradients are reduced across the cp ranks that share them:
     *       268,435,456 / 4 = 67,108,864 params x 4 B = 268,435,456 B.</li>
     *   <li>Optimizer state (ZeRO-1): dense 400,000,000 - 268,435,456 = 131,564,544 over dp cp = 8 -> 16,445,568;
     *       experts 67,108,864 over 2 -> 33,554,432; 12 B x 50,000,000 = 600,000,000 B.</li>
     * </ul>
     * With ep limited to divide dp (before), ep=4 gave expert groups inside one cp index (ranks 0, 2, 4, 6) and
     * expert-data-parallel groups of one rank: the expert gradients of the two cp halves were never reduced.
     */
    @Test
    void expertGroupsSpanTheContextParallelRanks() {
        ModelShape shape = new ModelShape(400_000_000L, 1024, 4);
        TrainingJob j = new TrainingJob(shape, 4, 2, 2, 4, 1, 1, 1, 4, 8, 2, 1, 1.0, 1, false, 2048, 1, 4,
                ComputeRate.stepComputeMs(100), Recompute.SELECTIVE, 0, 2);
        assertEquals(268_435_456L, j.expertParams());
        List<CommOp> ops = StepCollectives.derive(j);
        CommOp a2a = ops.stream().filter(o -> o.kind() == CommKind.EP_ALLTOALL).findFirst().orElseThrow();
        assertEquals(4_194_304L, a2a.sizeBytes());
        assertEquals(16, a2a.callsPerStep());
        CommOp edp = ops.stream().filter(o -> o.kind() == CommKind.EDP_REDUCE_SCATTER).findFirst().orElseThrow();
        assertEquals(268_435_456L, edp.sizeBytes());
        GroupPlacement g = new GroupPlacement(TestClusters.cluster(1, 8, 1, 400, 450, "H100-SXM5-80GB"), j,
                RankOrder.TP_PP_DP);
        assertEquals(List.of(0, 1, 2, 3), g.group(GroupKind.EP).stream().map(x -> x.index()).toList());
        assertEquals(List.of(0, 4), g.group(GroupKind.EDP).stream().map(x -> x.index()).toList());
        assertEquals(600_000_000.0, MemoryModel.of(j, Double.NaN).optimizerBytes(), 1);
    }
}
