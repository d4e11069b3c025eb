package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.env.NcclSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Strong scaling worked by hand with {@link FormulaPredictor}: h=2048, L=16, N=805,306,368, tp=4 fills a 4-GPU
 * host (NVLink 100 GB/s, one 12.5 GB/s NIC), s=1024, b=1, G=8, compute 10 s per step at dp=1 (so 10/dp s).
 * TP AllReduce: 4*16*(8/dp) calls of 4,194,304 B at 5 + 2*(3/4)*4194304/100000 = 67.91456 us.
 * DP AllReduce of 805306368/4 * 2 = 402,653,184 B, one rank per host, 4 groups per host NIC:
 * 4 * 2(dp-1)/dp * 402653184/12500 us. Steps (us): dp=1 10,034,772.25; dp=2 5,146,235.15; dp=4 2,701,966.59;
 * dp=8 1,479,832.31. Tokens/s = 8192/step: 816.36, 1591.84, 3031.87, 5535.76.
 */
class ScalingSearchTest {

    private final ScalingSearch search = new ScalingSearch(new StepPlanner(new FormulaPredictor(), NcclSettings.DEFAULTS,
            RankOrder.TP_PP_DP), h -> TestClusters.cluster(h, 4, 1, 100, 100, "H100"), 4, Double.NaN);
    private final TrainingJob job = new TrainingJob(new ModelShape(805_306_368L, 2048, 16), 2, 2, 2, 1, 4, 1, 1, 1,
            0, 0, 1, 1.0, 0, false, 1024, 1, 8, ComputeRate.stepComputeMs(10_000), Recompute.NONE, 0);

    @Test
    void curveFollowsHandWorkedSteps() {
        List<StepPlan> curve = search.curve(job, 32);
        assertEquals(4, curve.size());
        double[] tokens = {816.36, 1591.84, 3031.87, 5535.76};
        int[] gpus = {4, 8, 16, 32};
        for (int i = 0; i < 4; i++) {
            assertEquals(gpus[i], curve.get(i).job().nGpus());
            assertEquals(tokens[i], curve.get(i).tokensPerS(), 0.01);
        }
        assertEquals(0.925252, curve.get(2).efficiency(), 1e-6);
    }

    @Test
    void smallestGpuCountReachingTarget() {
        assertEquals(16, search.smallestReaching(job, 3000, 1024).orElseThrow().job().nGpus());
        assertEquals(4, search.smallestReaching(job, 800, 1024).orElseThrow().job().nGpus());
        assertTrue(search.smallestReaching(job, 6000, 1024).isEmpty(), "G=8 caps dp at 8: 5,536 tokens/s at most");
    }

    /** By hand: G 8, b 1, tp 4: dp may be 1, 2, 4 or 8 (divisors of 8), 4 GPUs each; 20 GPUs leave dp <= 5, so 4. */
    @Test
    void largestDpIsTheGlobalBatchsOrTheGpuLimits() {
        assertEquals(8, ScalingSearch.largestDp(job, 4096));
        assertEquals(4, ScalingSearch.largestDp(job, 20));
        assertEquals(0, ScalingSearch.largestDp(job, 3));
    }
}
