package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Topology;
import org.junit.jupiter.api.Test;

/** Step breakdowns worked by hand with {@link FormulaPredictor}'s stated formula. */
class StepPlannerTest {

    private static final StepPlanner PLANNER = new StepPlanner(new FormulaPredictor(), NcclSettings.DEFAULTS, RankOrder.TP_PP_DP);

    static TrainingJob job(ModelShape shape, int gradBytes, int dp, int tp, int pp, int ep, int experts, int topk,
            int moeEvery, int zero, boolean sp, int seq, int b, int g, double computeMs, double mfu, double overlap) {
        return new TrainingJob(shape, gradBytes, 2, 2, dp, tp, pp, 1, ep, experts, topk, moeEvery, 1.0, zero, sp, seq,
                b, g, Double.isNaN(computeMs) ? ComputeRate.kernelEfficiency(mfu) : ComputeRate.stepComputeMs(computeMs),
                Recompute.NONE, overlap);
    }

    private static CommTiming row(StepPlan p, CommKind k) {
        return p.comms().stream().filter(c -> c.op().kind() == k).findFirst().orElseThrow();
    }

    /**
     * Dense: h=2048, L=16, N=805,306,368 (=12 L h^2), tp=2 pp=2 dp=2 on 2 hosts x 4 GPUs (NVLink 100 GB/s,
     * one 100 Gb/s = 12.5 GB/s NIC per host), s=1024, b=2, G=16 so m = 16/(2*2) = 4; 2-byte activations and
     * gradients; compute 100 ms given; overlap 0.5. Ranks r = t + 2(p + 2d): host 0 holds d=0.
     * <ul>
     * <li>TP AllReduce (ranks 0,1, host 0): size b s h 2 = 2*1024*2048*2 = 8,388,608 B; calls 4 x (16/2) x 4 = 128;
     *     per call 5 + (2*1/2) * 8388608 / 100000 = 88.88608 us; total 11,377.41824 us.</li>
     * <li>PP send/recv (ranks 0,2, host 0): size 8388608/tp = 4,194,304 B; calls 2 x 4 = 8; per call
     *     5 + 4194304/100000 = 46.94304 us; total 375.54432 us.</li>
     * <li>DP AllReduce (ranks 0,4, two hosts): size N/(tp pp) * 2 = 402,653,184 B, once. Alone:
     *     5 + 1 * 402653184/12500 = 32,217.25 us; but all 4 GPUs of host 0 are in DP groups crossing the one NIC,
     *     so the bound is 4 * 402653184/12500 = 128,849.01888 us, which wins.</li>
     * <li>comm = 140,601.98144; hidden = min(0.5 * 128,849.01888, 2/3 * 100,000) = 64,424.50944;
     *     exposed = 76,177.472; bubble = (2-1)/4 * 100,000 = 25,000; step = 201,177.472 us;
     *     tokens/s = 16*1024/0.201177472 = 81,440.53; efficiency = 100,000/201,177.472 = 0.497074.</li>
     * </ul>
     */
    @Test
    void smallDenseModelHandWorked() {
        Topology c = TestClusters.cluster(2, 4, 1, 100, 100, "H100-SXM5-80GB");
        ModelShape shape = new ModelShape(805_306_368L, 2048, 16);
        StepPlan p = PLANNER.plan(c, job(shape, 2, 2, 2, 2, 1, 0, 0, 1, 0, false, 1024, 2, 16, 100, Double.NaN, 0.5),
                Double.NaN);
        assertEquals(3, p.comms().size());
        CommTiming tp = row(p, CommKind.TP_ALLREDUCE);
        assertEquals(8_388_608L, tp.op().sizeBytes());
        assertEquals(128, tp.op().callsPerStep());
        assertEquals(11_377.41824, tp.totalUs(), 1e-6);
        CommTiming pp = row(p, CommKind.PP_SENDRECV);
        assertEquals(4_194_304L, pp.op().sizeBytes());
        assertEquals(8, pp.op().callsPerStep());
        assertEquals(375.54432, pp.totalUs(), 1e-6);
        CommTiming dp = row(p, CommKind.DP_ALLREDUCE);
        assertEquals(402_653_184L, dp.op().sizeBytes());
        assertEquals(4, dp.sharingGroups());
        assertEquals(2, dp.hosts());
        assertEquals(128_849.01888, dp.perCallUs(), 1e-6);
        assertTrue(dp.bottleneck().contains("shared by 4"), dp.bottleneck());
        assertEquals(140_601.98144, p.commUs(), 1e-6);
        assertEquals(64_424.50944, p.hiddenUs(), 1e-6);
        assertEquals(76_177.472, p.exposedUs(), 1e-6);
        assertEquals(25_000, p.bubbleUs(), 1e-9);
        assertEquals(201_177.472, p.stepUs(), 1e-6);
        assertEquals(81_440.53, p.tokensPerS(), 0.01);
        assertEquals(0.497074, p.efficiency(), 1e-6);
    }

    /**
     * MoE: h=1024, L=8, N=400,000,000, 8 experts top-2 on every other layer (4 MoE layers): expert weights
     * 4*8*8*1024^2 = 268,435,456, dense 131,564,544. dp=4 ep=2 on 2 hosts x 2 GPUs (NVLink 100 GB/s, one 12.5 GB/s
     * NIC per host); s=512, b=1, G=8 so m=2; compute 50 ms; overlap 1.0.
     * <ul>
     * <li>EP AllToAll (ranks 0,1, host 0): size 512 tokens * 2 * 1024 * 2 B = 2,097,152 B; calls 4 x 4 x 2 = 32;
     *     per call 5 + (1/2) * 2097152/100000 = 15.48576 us; total 495.54432 us.</li>
     * <li>Dense DP AllReduce (ranks 0..3, 2 per host): 131,564,544 * 2 = 263,129,088 B; alone
     *     5 + 2*(3/4) * 263129088/12500 = 31,580.49056 us; sharing bound (1 group per host) 31,575.49 us: alone wins.</li>
     * <li>Expert AllReduce over dp/ep = 2 (ranks 0,2, one per host): 268,435,456/2 * 2 B = 268,435,456 B; two EDP
     *     groups share each host's NIC: 2 * 268435456/12500 = 42,949.67296 us (alone would be 21,479.84).</li>
     * <li>comm = 75,025.70784; overlappable = 74,530.16352; hidden = min(74,530.16, 2/3 * 50,000) = 33,333.333;
     *     exposed = 41,692.3745; step = 91,692.3745 us; tokens/s = 4096/0.0916923745 = 44,671.11;
     *     efficiency = 50,000/91,692.3745 = 0.545302.</li>
     * </ul>
     */
    @Test
    void smallMoeModelHandWorked() {
        Topology c = TestClusters.cluster(2, 2, 1, 100, 100, "H100-SXM5-80GB");
        ModelShape shape = new ModelShape(400_000_000L, 1024, 8);
        TrainingJob j = job(shape, 2, 4, 1, 1, 2, 8, 2, 2, 0, false, 512, 1, 8, 50, Double.NaN, 1.0);
        assertEquals(268_435_456L, j.expertParams());
        assertEquals(131_564_544L + 4L * 2 * 8 * 1024 * 1024, j.activeParams());
        StepPlan p = PLANNER.plan(c, j, Double.NaN);
        assertEquals(3, p.comms().size());
        CommTiming ep = row(p, CommKind.EP_ALLTOALL);
        assertEquals(2_097_152L, ep.op().sizeBytes());
        assertEquals(32, ep.op().callsPerStep());
        assertEquals(495.54432, ep.totalUs(), 1e-6);
        CommTiming dp = row(p, CommKind.DP_ALLREDUCE);
        assertEquals(263_129_088L, dp.op().sizeBytes());
        assertEquals(31_580.49056, dp.perCallUs(), 1e-6);
        CommTiming edp = row(p, CommKind.EDP_ALLREDUCE);
        assertEquals(268_435_456L, edp.op().sizeBytes());
        assertEquals(2, edp.nRanks());
        assertEquals(42_949.67296, edp.perCallUs(), 1e-6);
        assertEquals(75_025.70784, p.commUs(), 1e-6);
        assertEquals(33_333.3333, p.hiddenUs(), 1e-3);
        assertEquals(91_692.3745, p.stepUs(), 1e-3);
        assertEquals(44_671.11, p.tokensPerS(), 0.01);
        assertEquals(0.545302, p.efficiency(), 1e-6);
    }

    /**
     * Compute from kernel efficiency 0.5 for the MoE job above on A100 (312 TFLOP/s dense BF16, NVIDIA datasheet):
     * (6 * 198,673,408 active params + 12 L h s = 12 * 8 * 1024 * 512) = 1,242,372,096 FLOPs per token, * 4096
     * tokens / (4 GPUs * 312e12 * 0.5) = 8,155.05786 us.
     */
    @Test
    void computeFromKernelEfficiency() {
        Topology c = TestClusters.cluster(2, 2, 1, 100, 100, "A100-SXM4-80GB");
        ModelShape shape = new ModelShape(400_000_000L, 1024, 8);
        TrainingJob j = job(shape, 2, 4, 1, 1, 2, 8, 2, 2, 0, false, 512, 1, 8, Double.NaN, 0.5, 1.0);
        assertEquals(8_155.05786, PLANNER.plan(c, j, Double.NaN).computeUs(), 1e-4);
        Topology unknown = TestClusters.cluster(2, 2, 1, 100, 100, "Mystery-X");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PLANNER.plan(unknown, j, Double.NaN));
        assertTrue(e.getMessage().contains("--step-compute-ms"), e.getMessage());
    }

    /**
     * The classic check: 175B parameters with fp32 gradients is 175e9 * 4 = 700 GB per DP AllReduce. Pure DP on
     * 32 hosts x 8 GPUs (n = 256 ranks): with one 800 Gb/s (100 GB/s) NIC per host a ring needs
     * 2(n-1)/n * 700e9 / 100e9 = 2*255/256*7 s = 13.9453 s, not the 7 s of size / link speed; with eight 400 Gb/s
     * NICs (400 GB/s per host) a quarter: 3.4863 s. With tp=8 inside hosts (dp=32, 87.5 GB per rank), 8 DP groups
     * share each host's NICs: 8 * 2*31/32 * 87.5e9 / 100e9 = 13.5625 s and 3.3906 s with eight NICs.
     */
    @Test
    void classic175BCheck() {
        ModelShape gpt3 = ModelShape.of(ModelShape.parseParams("175B"), 0, 0);
        assertEquals(12288, gpt3.hidden());
        TrainingJob pureDp = job(gpt3, 4, 256, 1, 1, 1, 0, 0, 1, 0, false, 2048, 1, 256, 1000, Double.NaN, 0);
        TrainingJob tp8 = job(gpt3, 4, 32, 8, 1, 1, 0, 0, 1, 0, false, 2048, 1, 32, 1000, Double.NaN, 0);
        Topology oneNic = TestClusters.cluster(32, 8, 1, 800, 450, "H100-SXM5-80GB");
        Topology eightNics = TestClusters.cluster(32, 8, 8, 400, 450, "H100-SXM5-80GB");
        CommTiming a = row(PLANNER.plan(oneNic, pureDp, Double.NaN), CommKind.DP_ALLREDUCE);
        assertEquals(700e9, a.op().sizeBytes(), 0);
        assertEquals(13.9453e6, a.perCallUs(), 0.0001e6);
        assertEquals(3.4863e6, row(PLANNER.plan(eightNics, pureDp, Double.NaN), CommKind.DP_ALLREDUCE).perCallUs(),
                0.0001e6);
        assertEquals(13.5625e6, row(PLANNER.plan(oneNic, tp8, Double.NaN), CommKind.DP_ALLREDUCE).perCallUs(),
                0.0001e6);
        assertEquals(3.3906e6, row(PLANNER.plan(eightNics, tp8, Double.NaN), CommKind.DP_ALLREDUCE).perCallUs(),
                0.0001e6);
    }

    @Test
    void tooFewGpusIsAClearError() {
        Topology c = TestClusters.cluster(1, 8, 1, 400, 450, "H100");
        ModelShape shape = new ModelShape(805_306_368L, 2048, 16);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PLANNER.plan(c,
                job(shape, 2, 4, 4, 1, 1, 0, 0, 1, 0, false, 1024, 1, 4, 10, Double.NaN, 0), Double.NaN));
        assertTrue(e.getMessage().contains("16 GPUs") && e.getMessage().contains("has 8"), e.getMessage());
    }
}
