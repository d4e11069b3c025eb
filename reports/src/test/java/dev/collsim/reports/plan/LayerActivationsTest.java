package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Llama-style layer activations counted tensor by tensor (derivation in {@link LayerActivations}), worked by hand with
 * the Llama 3 shapes of Dubey et al. 2024, Table 3: 8B h 4096, 8 KV heads of 128 (k 1024), d_ff 14336, 32 heads;
 * 405B h 16384, k 1024, d_ff 53248, 128 heads. s = 8192, b = 1, bf16, FlashAttention (selective).
 */
class LayerActivationsTest {

    private static TrainingJob job(long params, int tp, boolean sp, Recompute r) {
        return job(ModelShape.of(params, 0, 0), tp, sp, r);
    }

    private static TrainingJob job(ModelShape shape, int tp, boolean sp, Recompute r) {
        return new TrainingJob(shape, 4, 2, 2, 1, tp, 1, 1, 1, 0, 0, 1, 1.0, 0, sp, 8192, 1, 1,
                ComputeRate.kernelEfficiency(0.4), r, 0);
    }

    /**
     * 8B, tp=1: norm inputs and the QKV and MLP inputs 8 x 8192 x 4096 = 268,435,456; Q and O 4 x 8192 x 4096 =
     * 134,217,728; K and V 4 x 8192 x 1024 = 33,554,432; SwiGLU 6 x 8192 x 14336 = 704,643,072; log-sum-exp 4 B x 32
     * heads x 8192 = 1,048,576; sum 1,141,899,264 B (34.03 s b h: about GPT's 34).
     */
    @Test
    void llama8bOneRank() {
        assertEquals(1_141_899_264.0, LayerActivations.bytes(job(8_000_000_000L, 1, false, Recompute.SELECTIVE)), 0.5);
    }

    /**
     * 8B, tp=16 with SP: 8 KV heads on 16 ranks, so each rank keeps one whole KV head (128 wide), not 64 columns.
     * 268,435,456/16 = 16,777,216; 134,217,728/16 = 8,388,608; K, V 4 x 8192 x 128 = 4,194,304; 704,643,072/16 =
     * 44,040,192; log-sum-exp 4 x 2 heads x 8192 = 65,536; sum 73,465,856 B. Megatron-Core refuses this layout for
     * the published 8B (8 KV heads do not divide by 16: TrainingJobHeadsTest), so the shape here has its head counts
     * unknown, as a shape given by its widths alone.
     */
    @Test
    void moreTensorRanksThanKvHeadsKeepOneHeadEach() {
        ModelShape s = ModelShape.of(8_000_000_000L, 0, 0);
        ModelShape noHeads = new ModelShape(s.params(), s.hidden(), s.layers(), s.vocab(), s.tiedEmbeddings(),
                s.kvHidden(), s.ffn());
        assertEquals(73_465_856.0, LayerActivations.bytes(job(noHeads, 16, true, Recompute.SELECTIVE)), 0.5);
    }

    /**
     * 405B, tp=8 with SP (the Llama 3 Table 4 layout): s b h = 134,217,728; 8 s b h / 8 = 134,217,728; Q and O
     * 4 s b h / 8 = 67,108,864; K, V 4 x 8192 x 1024/8 = 4,194,304; SwiGLU 6 x 8192 x 53248/8 = 327,155,712;
     * log-sum-exp 4 x 16 heads x 8192 = 524,288; sum 533,200,896 B. Without SP the 8 s b h stay whole: + 7/8 x
     * 1,073,741,824 = 1,472,724,992 B. Without FlashAttention the softmax output 2 x 16 heads x 8192^2 = 2,147,483,648
     * B replaces the log-sum-exp: 533,200,896 - 524,288 + 2,147,483,648 = 2,680,160,256 B.
     */
    @Test
    void llama405bOnEightTensorRanks() {
        long p = 405_000_000_000L;
        assertEquals(533_200_896.0, LayerActivations.bytes(job(p, 8, true, Recompute.SELECTIVE)), 0.5);
        assertEquals(1_472_724_992.0, LayerActivations.bytes(job(p, 8, false, Recompute.SELECTIVE)), 0.5);
        assertEquals(2_680_160_256.0, LayerActivations.bytes(job(p, 8, true, Recompute.NONE)), 0.5);
    }

    /** Full recomputation keeps the layer input only, 2 s b h / t with SP: 2 x 134,217,728 / 8 = 33,554,432 B. */
    @Test
    void fullRecomputeKeepsTheLayerInput() {
        assertEquals(33_554_432.0, LayerActivations.bytes(job(405_000_000_000L, 8, true, Recompute.FULL)), 0.5);
    }
}
