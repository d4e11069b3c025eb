package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Collective counts and sizes from the papers' formulas (see {@link StepCollectives}), worked by hand. */
class StepCollectivesTest {

    private static final ModelShape SHAPE = new ModelShape(805_306_368L, 2048, 16);

    private static TrainingJob job(int dp, int tp, int pp, int v, int zero, boolean sp, int b, int g) {
        return new TrainingJob(SHAPE, 2, 2, 2, dp, tp, pp, v, 1, 0, 0, 1, 1.0, zero, sp, 1024, b, g,
                ComputeRate.stepComputeMs(10), Recompute.NONE, 0);
    }

    private static CommOp op(List<CommOp> ops, CommKind k) {
        return ops.stream().filter(o -> o.kind() == k).findFirst().orElseThrow();
    }

    /**
     * ZeRO-1/2 (Rajbhandari et al. 2020 section 7.2.1): ReduceScatter of gradients and AllGather of parameters,
     * once per step, each Psi * 2 B = 805,306,368 * 2 = 1,610,612,736 B (dp=4, tp=pp=1).
     */
    @Test
    void zero1IsReduceScatterPlusAllGather() {
        List<CommOp> ops = StepCollectives.derive(job(4, 1, 1, 1, 1, false, 1, 8));
        assertEquals(2, ops.size());
        assertEquals(1_610_612_736L, op(ops, CommKind.DP_REDUCE_SCATTER).sizeBytes());
        assertEquals(1, op(ops, CommKind.DP_REDUCE_SCATTER).callsPerStep());
        assertEquals(1_610_612_736L, op(ops, CommKind.DP_ALLGATHER).sizeBytes());
    }

    /**
     * ZeRO-3 (section 7.2.2): per layer per micro-batch one gradient ReduceScatter and two parameter AllGathers
     * (forward, backward) of Psi*2/L = 1,610,612,736/16 = 100,663,296 B; m = 8/(1*4) = 2, so 16*2 = 32 RS and 64 AG:
     * per micro-batch 3 Psi bytes of volume (32+64)/2 * 100,663,296 = 3 * 1,610,612,736.
     */
    @Test
    void zero3GathersTwiceAndScattersOncePerLayer() {
        List<CommOp> ops = StepCollectives.derive(job(4, 1, 1, 1, 3, false, 1, 8));
        assertEquals(100_663_296L, op(ops, CommKind.DP_REDUCE_SCATTER).sizeBytes());
        assertEquals(32, op(ops, CommKind.DP_REDUCE_SCATTER).callsPerStep());
        assertEquals(64, op(ops, CommKind.DP_ALLGATHER).callsPerStep());
        CommOp rs = op(ops, CommKind.DP_REDUCE_SCATTER);
        CommOp ag = op(ops, CommKind.DP_ALLGATHER);
        double perMicroBatch = ((double) rs.sizeBytes() * rs.callsPerStep()
                + (double) ag.sizeBytes() * ag.callsPerStep()) / 2;
        assertEquals(3.0 * 1_610_612_736L, perMicroBatch, 1);
    }

    /**
     * Sequence parallelism (Korthikanti et al. 2022): tp=2, L/pp = 16 layers, m = 4/(1*1) = 4: 4*16*4 = 256
     * ReduceScatter and 256 AllGather of b s h 2 = 1*1024*2048*2 = 4,194,304 B; no AllReduce.
     */
    @Test
    void sequenceParallelSplitsEachAllReduce() {
        List<CommOp> ops = StepCollectives.derive(job(1, 2, 1, 1, 0, true, 1, 4));
        assertEquals(2, ops.size());
        assertEquals(256, op(ops, CommKind.TP_REDUCE_SCATTER).callsPerStep());
        assertEquals(4_194_304L, op(ops, CommKind.TP_ALLGATHER).sizeBytes());
        assertTrue(ops.stream().noneMatch(o -> o.kind() == CommKind.TP_ALLREDUCE));
    }

    /** Interleaved 1F1B (Narayanan et al. 2021 section 2.2.2): pp=2, v=2, m=8: 2*8*2 = 32 sends of b s h 2. */
    @Test
    void interleavingMultipliesPipelineSends() {
        List<CommOp> ops = StepCollectives.derive(job(1, 1, 2, 2, 0, false, 1, 8));
        assertEquals(32, op(ops, CommKind.PP_SENDRECV).callsPerStep());
        assertEquals(4_194_304L, op(ops, CommKind.PP_SENDRECV).sizeBytes());
    }

    @Test
    void badLayoutListsEveryProblem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TrainingJob(SHAPE, 2, 2, 2, 3, 1, 3, 8, 2, 0, 0, 1, 1.0, 5, false, 1024, 1, 8,
                        ComputeRate.stepComputeMs(10), Recompute.NONE, 1.5));
        String m = e.getMessage();
        assertTrue(m.contains("--ep 2 needs --experts"), m);
        assertTrue(m.contains("--ep 2 must divide --dp 3"), m);
        assertTrue(m.contains("--zero must be 0, 1, 2 or 3, got 5"), m);
        assertTrue(m.contains("--layers 16 must be at least --pp x --virtual-stages = 24"), m);
        assertTrue(m.contains("--global-batch 8 must be a multiple of --micro-batch x --dp = 3"), m);
        assertTrue(m.contains("--overlap must be in [0, 1], got 1.5"), m);
    }

    /** Interleaved stages need a pipeline: v = 2 on pp = 1 is refused (it was accepted and printed as v=2). */
    @Test
    void virtualStagesNeedAPipeline() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TrainingJob(SHAPE, 2, 2, 2, 1, 1, 1, 2, 1, 0, 0, 1, 1.0, 0, false, 1024, 1, 8,
                        ComputeRate.stepComputeMs(10), Recompute.NONE, 1.0));
        assertTrue(e.getMessage().contains("--virtual-stages 2 needs --pp above 1"), e.getMessage());
    }

    /** Parameter counts and shapes: published GPT-3/Llama shapes, else Kaplan's N = 12 L h^2 with h = 128 L. */
    @Test
    void shapes() {
        assertEquals(175_000_000_000L, ModelShape.parseParams("175B"));
        assertEquals(1_300_000_000L, ModelShape.parseParams("1.3b"));
        assertEquals(350_000_000L, ModelShape.parseParams("350M"));
        assertEquals(80, ModelShape.of(70_000_000_000L, 0, 0).layers());
        // 30B: L = cbrt(30e9 / (12 * 16384)) = cbrt(152,587.9) = 53.4 -> 53; h = sqrt(30e9 / (12*53)) = 6,868 -> 6912
        ModelShape s = ModelShape.of(30_000_000_000L, 0, 0);
        assertEquals(53, s.layers());
        assertEquals(6912, s.hidden());
        assertThrows(IllegalArgumentException.class, () -> ModelShape.parseParams("lots"));
        assertEquals("175B", ModelShape.formatParams(175_000_000_000L));
        assertEquals("1.3B", ModelShape.formatParams(1_300_000_000L));
    }
}
