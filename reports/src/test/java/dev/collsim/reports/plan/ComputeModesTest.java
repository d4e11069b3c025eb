package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.hardware.Precision;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * End-to-end MFU versus kernel efficiency, worked by hand with {@link FormulaPredictor}'s formula
 * ({@code 5 us + factor x S / B}). Job: h=2048, L=16, N=805,306,368 (vocabulary unknown), tp=2 pp=2 dp=2 on 2 hosts x
 * 4 H100 (989 TFLOP/s dense BF16; NVLink 450 GB/s; one 400 Gb/s = 50 GB/s NIC per host), s=1024, b=2, G=16 (m=4,
 * 16,384 tokens), overlap 0.5.
 * <ul>
 *   <li>TP AllReduce: 128 calls x (5 + 8,388,608/450,000) = 3,026.0929 us; PP: 8 x (5 + 4,194,304/450,000)
 *       = 114.5654 us; DP AllReduce: 4 groups share host 0's NIC: 4 x 402,653,184/50,000 = 32,212.25472 us;
 *       comm = 35,352.91307 us, overlappable 32,212.25472 us (at most 16,106.12736 us hidden).</li>
 *   <li>Model FLOPs per token 6 N + 12 L h s = 4,831,838,208 + 402,653,184 = 5,234,491,392; per step x 16,384 =
 *       85,761,906,966,528.</li>
 * </ul>
 */
class ComputeModesTest {

    private static final StepPlanner PLANNER = new StepPlanner(new FormulaPredictor(), NcclSettings.DEFAULTS,
            RankOrder.TP_PP_DP);
    private static final Topology CLUSTER = TestClusters.cluster(2, 4, 1, 400, 450, "H100-SXM5-80GB");

    private static TrainingJob job(ComputeRate rate, Recompute r) {
        return new TrainingJob(new ModelShape(805_306_368L, 2048, 16), 2, 2, 2, 2, 2, 2, 1, 1, 0, 0, 1, 1.0, 0, false,
                1024, 2, 16, rate, r, 0.5);
    }

    /**
     * MFU 0.25: step = 85,761,906,966,528 / (8 x 989e12 x 0.25) s = 43,357.89028 us, communication NOT added on top.
     * Solving step = c (1 + 1/4) + comm - min(16,106.127, 2c/3) for compute c: hiding all would need c >= 24,159,
     * but c = (43,357.890 - 35,352.913 + 16,106.127)/1.25 = 19,288.88 is below it, so hidden = 2c/3 and
     * c = (43,357.890 - 35,352.913)/(1.25 - 2/3) = 13,722.818 us; bubble c/4 = 3,430.7045; hidden 9,148.5454.
     * Implied kernel efficiency = model FLOPs / (8 x 989e12 x 13,722.818e-6 s) = 0.789887.
     */
    @Test
    void mfuFixesTheStepAndCommunicationIsInside() {
        StepPlan p = PLANNER.plan(CLUSTER, job(ComputeRate.mfu(0.25), Recompute.NONE), Double.NaN);
        assertEquals(35_352.91307, p.commUs(), 1e-4);
        assertEquals(43_357.89028, p.stepUs(), 1e-4);
        assertEquals(13_722.81807, p.computeUs(), 1e-4);
        assertEquals(3_430.70452, p.bubbleUs(), 1e-4);
        assertEquals(9_148.54538, p.hiddenUs(), 1e-4);
        assertEquals(0.25, p.endToEndMfu(), 1e-9);
        assertEquals(0.789887, p.kernelEfficiency(), 1e-6);
        assertEquals("", p.warning());
        assertEquals(16_384 / 43_357.89028e-6, p.tokensPerS(), 0.01);
    }

    /**
     * MFU 0.5 needs a step of 21,678.945 us, shorter than the communication alone (35,352.9 us): not reachable.
     * Compute is then set at peak, hardware FLOPs / (8 x 989e12) = 10,839.47257 us; hidden min(16,106.1, 7,226.3)
     * = 7,226.315; step = 10,839.473 x 1.25 + 35,352.913 - 7,226.315 = 41,675.93873 us; MFU reached = 0.260089.
     */
    @Test
    void unreachableMfuSaysSoAndFallsBackToPeak() {
        StepPlan p = PLANNER.plan(CLUSTER, job(ComputeRate.mfu(0.5), Recompute.NONE), Double.NaN);
        assertTrue(p.warning().contains("MFU 0.50 is not reachable"), p.warning());
        assertEquals(10_839.47257, p.computeUs(), 1e-4);
        assertEquals(1.0, p.kernelEfficiency(), 1e-9);
        assertEquals(41_675.93873, p.stepUs(), 1e-4);
        assertEquals(0.260089, p.endToEndMfu(), 1e-6);
        assertTrue(p.warning().contains("0.260"), p.warning());
    }

    /**
     * Kernel efficiency 0.5 with full recomputation (bottom-up): hardware FLOPs per token add 2 N + 4 L h s, so
     * 6,979,321,856 x 16,384 = 114,349,209,288,704 per step; compute = that / (8 x 989e12 x 0.5) = 28,905.26018 us;
     * hidden = min(16,106.127, 19,270.2) = 16,106.12736; step = 28,905.260 x 1.25 + 35,352.913 - 16,106.127
     * = 55,378.36094 us; end-to-end MFU = 85,761,906,966,528 / (8 x 989e12 x 55,378.36094e-6) = 0.195735.
     */
    @Test
    void kernelEfficiencyAddsCommunicationAndReportsMfu() {
        StepPlan p = PLANNER.plan(CLUSTER, job(ComputeRate.kernelEfficiency(0.5), Recompute.FULL), Double.NaN);
        assertEquals(28_905.26018, p.computeUs(), 1e-4);
        assertEquals(16_106.12736, p.hiddenUs(), 1e-4);
        assertEquals(55_378.36094, p.stepUs(), 1e-4);
        assertEquals(0.195735, p.endToEndMfu(), 1e-6);
        assertEquals(0.5, p.kernelEfficiency(), 1e-9);
    }

    /**
     * Overlap as Megatron-LM schedules it: the gradient ReduceScatter hides behind backward (2/3 of compute), the
     * ZeRO-1 parameter AllGather behind the next forward (1/3). One host of 8 (NVLink 450 GB/s), tp=2 pp=2 dp=2,
     * fp32 gradient reduction, ZeRO-1, compute given as 1 ms, overlap 1:
     * TP 3,026.0929 us and PP 114.5654 us as above; ReduceScatter of 201,326,592 params x 4 B = 805,306,368 B:
     * 5 + (1/2) x 805,306,368/450,000 = 899.78485 us; AllGather of x 2 B = 402,653,184 B: 452.39242 us;
     * comm = 4,492.83562 us. Hidden = min(899.78, 666.67) + min(452.39, 333.33) = 1,000 us (one cap for both would
     * hide only 666.67); step = 1,000 + 250 + 4,492.83562 - 1,000 = 4,742.83562 us.
     */
    @Test
    void gradientReduceHidesBehindBackwardAndGatherBehindForward() {
        Topology oneHost = TestClusters.cluster(1, 8, 1, 400, 450, "H100-SXM5-80GB");
        TrainingJob j = new TrainingJob(new ModelShape(805_306_368L, 2048, 16), 4, 2, 2, 2, 2, 2, 1, 1, 0, 0, 1, 1.0, 1,
                false, 1024, 2, 16, ComputeRate.stepComputeMs(1), Recompute.NONE, 1.0);
        StepPlan p = PLANNER.plan(oneHost, j, Double.NaN);
        assertEquals(4_492.83562, p.commUs(), 1e-4);
        assertEquals(1_352.17727, p.overlappableUs(), 1e-4);
        assertEquals(1_000, p.hiddenUs(), 1e-9);
        assertEquals(4_742.83562, p.stepUs(), 1e-4);
    }

    /**
     * FP8 GEMMs use the datasheet's dense FP8 peak (H100 SXM 1,979 TFLOP/s, half the sparse 3,958): compute =
     * 85,761,906,966,528 / (8 x 1979e12 x 0.5) = 10,833.99 us, against 21,678.95 us at the BF16 peak.
     */
    @Test
    void fp8UsesTheFp8Peak() {
        TrainingJob j = job(ComputeRate.kernelEfficiency(0.5).withPrecision(Precision.FP8), Recompute.NONE);
        StepPlan p = PLANNER.plan(CLUSTER, j, Double.NaN);
        assertEquals(1979e12, p.peakFlops(), 0);
        assertEquals(10_833.99532, p.computeUs(), 1e-4);
    }
}
