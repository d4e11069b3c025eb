package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** MoE shapes and presets against the papers' total and active parameter counts. */
class ModelPresetTest {

    private static TrainingJob job(String model) {
        JobBuilder b = new JobBuilder();
        b.model = model;
        b.tp = 1;
        return b.build();
    }

    /**
     * Mixtral 8x7B (Jiang et al. 2024: 46.7B total, 12.9B active): a SwiGLU expert is 3 x 4096 x 14336 = 176,160,768
     * weights; 32 layers x 8 experts = 45,097,156,608 expert weights; active = 46,702,792,704 - 45,097,156,608 +
     * 32 x 2 x 176,160,768 = 12,879,925,248.
     */
    @Test
    void mixtral8x7bHasTheActiveCountOfThePaper() {
        TrainingJob j = job("mixtral-8x7b");
        assertEquals(45_097_156_608L, j.expertParams());
        assertEquals(12_879_925_248L, j.activeParams());
        assertEquals(12.9e9, j.activeParams(), 0.05e9);
        assertEquals(46.7e9, j.shape().params(), 0.05e9);
        assertEquals(2, j.topk());
    }

    /** Mixtral 8x22B (Mistral AI: 141B total, 39B active): 140,630,071,296 - 56 x 6 x 301,989,888 = 39,161,468,928. */
    @Test
    void mixtral8x22bHasThirtyNineBillionActive() {
        TrainingJob j = job("mixtral-8x22b");
        assertEquals(39_161_468_928L, j.activeParams());
        assertEquals(141e9, j.shape().params(), 0.5e9);
    }

    /**
     * Llama 3 presets count their weights as the released checkpoints hold them (shapes from Dubey et al. 2024, Table
     * 3; no biases, RMSNorm vectors of h; untied V = 128,256; 8 KV heads of 128 = 1024). By hand, per layer
     * 2h^2 + 2h x 1024 + 3h d_ff + 2h, times L, plus 2 V h + h:
     * 8B (h 4096, L 32, d_ff 14336): 33,554,432 + 8,388,608 + 176,160,768 + 8,192 = 218,112,000; x 32 =
     * 6,979,584,000; + 1,050,673,152 + 4,096 = 8,030,261,248.
     * 70B (h 8192, L 80, d_ff 28672): 134,217,728 + 16,777,216 + 704,643,072 + 16,384 = 855,654,400; x 80 =
     * 68,452,352,000; + 2,101,346,304 + 8,192 = 70,553,706,496 (the 70.55e9 an architect adds up, not the nominal
     * 70e9).
     * 405B (h 16384, L 126, d_ff 53248): 536,870,912 + 33,554,432 + 2,617,245,696 + 32,768 = 3,187,703,808; x 126 =
     * 401,650,679,808; + 4,202,692,608 + 16,384 = 405,853,388,800.
     */
    @Test
    void llamaPresetsCountTheirWeights() {
        assertEquals(8_030_261_248L, job("llama3-8b").shape().params());
        assertEquals(70_553_706_496L, job("llama3-70b").shape().params());
        assertEquals(405_853_388_800L, job("llama3-405b").shape().params());
        assertEquals(28672, job("llama3-70b").shape().ffn().hidden());
    }

    /**
     * Mixtral 8x7B by hand (Jiang et al. 2024, Table 1): per layer 2 x 4096^2 + 2 x 4096 x 1024 = 41,943,040
     * attention, 8 x 3 x 4096 x 14336 = 1,409,286,144 experts, router 8 x 4096 = 32,768, norms 8,192: 1,451,270,144;
     * x 32 = 46,440,644,608; + 2 x 32000 x 4096 = 262,144,000 + 4,096 = 46,702,792,704 (the paper's 46.7B).
     * Mixtral 8x22B: 88,080,384 + 2,415,919,104 + 49,152 + 12,288 = 2,504,060,928; x 56 = 140,227,411,968;
     * + 2 x 32768 x 6144 = 402,653,184 + 6,144 = 140,630,071,296 (Mistral's 141B). GPT-3 keeps the paper's 175e9.
     */
    @Test
    void mixtralAndGpt3Counts() {
        assertEquals(46_702_792_704L, job("mixtral-8x7b").shape().params());
        assertEquals(140_630_071_296L, job("mixtral-8x22b").shape().params());
        assertEquals(175_000_000_000L, job("gpt3-175b").shape().params());
    }

    /**
     * DeepSeek-V3 (671B total, 37B active): fine-grained experts of 3 x 7168 x 2048 = 44,040,192 weights, 256 per
     * layer on 61 - 3 = 58 MoE layers = 653,908,770,816; active = 671e9 - that + 58 x 8 x 44,040,192 = 37,525,878,272
     * (the shared expert and the 3 dense layers count as dense).
     */
    @Test
    void deepSeekV3FineGrainedExperts() {
        TrainingJob j = job("deepseek-v3");
        assertEquals(58, j.moeLayers());
        assertEquals(653_908_770_816L, j.expertParams());
        assertEquals(37_525_878_272L, j.activeParams());
        assertEquals(37e9, j.activeParams(), 1e9);
    }

    /** The same shape from options: --params 46.7B --swiglu --ffn-hidden 14336 --experts 8 with h and L given. */
    @Test
    void optionsBuildTheSameShape() {
        JobBuilder b = new JobBuilder();
        b.params = "46702792704";
        b.hidden = 4096;
        b.layers = 32;
        b.ffnHidden = 14336;
        b.gated = true;
        b.experts = 8;
        assertEquals(45_097_156_608L, b.build().expertParams());
        JobBuilder both = new JobBuilder();
        both.model = "mixtral-8x7b";
        both.params = "47B";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, both::build);
        assertTrue(e.getMessage().contains("drop --params"), e.getMessage());
        JobBuilder unknown = new JobBuilder();
        unknown.model = "gpt-5";
        e = assertThrows(IllegalArgumentException.class, unknown::build);
        assertTrue(e.getMessage().contains("allowed: gpt3-175b, llama3-8b"), e.getMessage());
    }

    /**
     * Llama 3 405B as Dubey et al. 2024 Table 4 ran it: 126 layers on pp = 16 stages (first and last stage one layer
     * short) is allowed; the most loaded stage holds ceil(126/16) = 8 layers. 8,192 GPUs = 8 x 16 x 64.
     */
    @Test
    void unevenPipelineSplitOfLlama3() {
        JobBuilder b = new JobBuilder();
        b.model = "llama3-405b";
        b.tp = 8;
        b.pp = 16;
        b.dp = 64;
        b.seqLen = 8192;
        b.globalBatch = 64 * 32;
        TrainingJob j = b.build();
        assertEquals(8, j.layersPerStage());
        assertEquals(8_192, j.nGpus());
        assertEquals(16L * 1024 * 1024, j.tokensPerStep(), 0.01 * 16 * 1024 * 1024);
    }
}
