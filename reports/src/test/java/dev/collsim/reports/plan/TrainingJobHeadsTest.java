package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * --tp against the published head counts: Megatron-Core's TransformerConfig ({@code __post_init__}) raises unless
 * num_attention_heads and num_query_groups are multiples of tensor_model_parallel_size. Head counts from the models'
 * papers and released config.json files, not from collsim's table.
 */
class TrainingJobHeadsTest {

    private static TrainingJob job(String model, int tp) {
        JobBuilder b = new JobBuilder();
        b.model = model;
        b.tp = tp;
        return b.build();
    }

    /**
     * Llama 3 70B, 405B and 8B: 64, 128, 32 heads and 8 KV heads (Dubey et al. 2024, Table 3); Mixtral 8x7B 32 heads
     * and 8 KV heads (Jiang et al. 2024, Table 1); Mixtral 8x22B 48 heads and 8 KV heads (config.json); GPT-3 175B
     * 96 heads without GQA (Brown et al. 2020, Table 2.1); DeepSeek-V3 128 heads (config.json). The largest accepted
     * power of two is gcd(heads, kv heads) where it divides h too; 3 divides 48 but not 8, and 96 and 12288.
     */
    @ParameterizedTest
    @CsvSource({"llama3-70b, 8, 16", "llama3-405b, 8, 16", "llama3-8b, 8, 16", "mixtral-8x7b, 8, 16",
        "mixtral-8x22b, 8, 3", "gpt3-175b, 32, 64", "gpt3-175b, 3, 5", "deepseek-v3, 64, 3"})
    void aDegreeBothHeadCountsTakeIsAcceptedTheOtherRefused(String model, int ok, int refused) {
        assertEquals(ok, job(model, ok).tp());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> job(model, refused));
        assertTrue(e.getMessage().contains("--tp " + refused + ": the model has "), e.getMessage());
        assertTrue(e.getMessage().contains("num_attention_heads and num_query_groups must be multiples of"
                + " tensor_model_parallel_size"), e.getMessage());
    }

    /** 64 heads and 8 KV heads: the allowed degrees are the divisors of 8. */
    @Test
    void theMessageNamesTheHeadsAndTheAllowedDegrees() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> job("llama3-70b", 16));
        assertTrue(e.getMessage().contains("--tp 16: the model has 64 attention heads and 8 KV heads (grouped-query"
                + " attention)"), e.getMessage());
        assertTrue(e.getMessage().endsWith("allowed up to 64: 1, 2, 4, 8"), e.getMessage());
    }

    /** The published --params count carries the heads too (70B = Llama 3 70B's shape): tp 16 is refused. */
    @Test
    void aPublishedParameterCountCarriesItsHeads() {
        JobBuilder b = new JobBuilder();
        b.params = "70B";
        b.tp = 16;
        assertThrows(IllegalArgumentException.class, b::build);
        b.tp = 8;
        assertEquals(8, b.build().tp());
    }

    /**
     * The memory fixes never suggest a tp the heads refuse: Llama 3 70B at dp 4, tp 8, pp 2 with SP, no recompute,
     * s 4096 does not fit 80 GiB (96.2 GiB); in a 16-GPU NVLink domain the same shape with its heads
     * unknown gets "--tp 16", the published one (8 KV heads) does not.
     */
    @Test
    void memoryFixesKeepToAllowedDegrees() {
        ModelShape s = ModelPreset.find("llama3-70b").orElseThrow().shape();
        ModelShape unknown = new ModelShape(s.params(), s.hidden(), s.layers(), s.vocab(), s.tiedEmbeddings(),
                s.kvHidden(), s.ffn());
        assertTrue(fixes(unknown).stream().anyMatch(x -> x.startsWith("--tp 16")), fixes(unknown).toString());
        assertTrue(fixes(s).stream().noneMatch(x -> x.startsWith("--tp")), fixes(s).toString());
    }

    private static List<String> fixes(ModelShape shape) {
        TrainingJob j = new TrainingJob(shape, 2, 2, 2, 4, 8, 2, 1, 1, 0, 0, 1, 1.0, 0, true, 4096, 1, 128,
                ComputeRate.kernelEfficiency(0.4), Recompute.NONE, 0);
        return MemoryModel.of(j, 80.0 * (1L << 30), 16).suggestions();
    }
}
