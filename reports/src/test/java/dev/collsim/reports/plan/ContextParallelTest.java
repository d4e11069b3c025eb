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
}
