package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** FLOPs per step against Narayanan et al. 2021 (SC'21), eq. 3, written in the paper's own form. */
class ModelFlopsTest {

    /** GPT-3 175B as Narayanan et al. Table 1 trains it: h=12288, L=96, V=51200, s=2048, B=1536. */
    private static final int H = 12288;
    private static final int L = 96;
    private static final int V = 51200;
    private static final int S = 2048;
    private static final int B = 1536;

    private static TrainingJob gpt3(Recompute r) {
        // N = 12 L h^2 + V h = 173,946,175,488 + 629,145,600 = 174,575,321,088 (tied embeddings, biases left out)
        ModelShape shape = new ModelShape(174_575_321_088L, H, L, V, true, H, ModelShape.Ffn.standard(H));
        return new TrainingJob(shape, 2, 2, 2, 1536, 1, 1, 1, 1, 0, 0, 1, 1.0, 0, false, S, 1, B,
                ComputeRate.kernelEfficiency(0.5), r, 0);
    }

    /**
     * Without recomputation, eq. 3's model FLOPs 72 B s L h^2 (1 + s/(6h) + V/(12 L h))
     * = 72 x 1536 x 2048 x 96 x 12288^2 x (1 + 2048/73728 + 51200/14155776) = 3,386,196,746,387,324,928.
     */
    @Test
    void modelFlopsAreEquationThreeWithoutRecompute() {
        assertEquals(3.386196746387324928e18, ModelFlops.modelPerStep(gpt3(Recompute.NONE)), 1e-12 * 3.4e18);
        assertEquals(3.386196746387324928e18, ModelFlops.hardwarePerStep(gpt3(Recompute.NONE)), 1e-12 * 3.4e18);
    }

    /**
     * Full recomputation: eq. 3 as printed, 96 B s L h^2 (1 + s/(6h) + V/(16 L h)) = 4,510,970,753,323,106,304;
     * model FLOPs (what MFU counts) do not change.
     */
    @Test
    void fullRecomputeIsEquationThreeAsPrinted() {
        TrainingJob j = gpt3(Recompute.FULL);
        assertEquals(4.510970753323106304e18, ModelFlops.hardwarePerStep(j), 1e-12 * 4.5e18);
        assertEquals(3.386196746387324928e18, ModelFlops.modelPerStep(j), 1e-12 * 3.4e18);
    }

    /**
     * Selective recomputation re-runs Q K^T and softmax x V forward: 2 B s^2 h each per layer, so
     * model + 4 B s^2 L h = 3,386,196,746,387,324,928 + 4 x 1536 x 2048^2 x 96 x 12288 = 3,416,596,043,872,075,776.
     */
    @Test
    void selectiveRecomputeAddsTheAttentionCoreForward() {
        assertEquals(3.416596043872075776e18, ModelFlops.hardwarePerStep(gpt3(Recompute.SELECTIVE)), 1e-12 * 3.4e18);
    }

    /**
     * Untied embeddings (Llama): the input embedding is a lookup, not a matmul. 8B preset, V=128256, h=4096, L=32,
     * s=8192: 6 (8e9 - 128256 x 4096) + 12 x 32 x 4096 x 8192 = 6 x 7,474,663,424 + 12,884,901,888
     * = 57,732,882,432 FLOPs per token.
     */
    @Test
    void untiedInputEmbeddingIsNotAMatmul() {
        ModelShape llama8b = ModelShape.of(8_000_000_000L, 0, 0);
        assertEquals(128_256, llama8b.vocab());
        TrainingJob j = new TrainingJob(llama8b, 2, 2, 2, 1, 1, 1, 1, 1, 0, 0, 1, 1.0, 0, false, 8192, 1, 1,
                ComputeRate.mfu(0.4), Recompute.NONE, 0);
        assertEquals(57_732_882_432.0, ModelFlops.modelPerToken(j), 1e-3);
    }
}
