package dev.collsim.reports.plan;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Published models by name ({@code collsim plan --model NAME}): shape and mixture-of-experts architecture, each with
 * its source. Immutable.
 *
 * @param name    the name users type, e.g. {@code mixtral-8x7b}
 * @param shape   parameter count and shape
 * @param experts routed experts per MoE layer, 0 for a dense model
 * @param topk    routed experts per token (0 for dense)
 * @param source  where the figures come from
 */
public record ModelPreset(String name, ModelShape shape, int experts, int topk, String source) {

    /**
     * Every preset. Llama 3 and Mixtral count the sum of their weights ({@link ModelShape#weightSum}), as their
     * released checkpoints hold them: Llama 3 8B 8,030,261,248, 70B 70,553,706,496, 405B 405,853,388,800; Mixtral
     * 8x7B 46,702,792,704, 8x22B 140,630,071,296. GPT-3 keeps its paper's 175.0B (Brown et al. 2020, Table 2.1):
     * its weights were never released, and the GPT-2 layout's sum (biases, learned positions of 2048, tied output)
     * is 96 x (12 h^2 + 13 h) + 50257 h + 2048 h + 2 h = 174,604,259,328 for h = 12288 (0.2 % less). DeepSeek-V3
     * keeps its report's 671B: its MLA attention and shared expert are not in {@link ModelShape}; the released
     * config's weights (hidden 7168, q_lora_rank 1536, kv_lora_rank 512, 128 heads of 128 + 64 rope, 1 shared + 256
     * routed experts of 2048, 3 dense layers of 18432, vocabulary 129,280 untied) sum to about 671.03e9 by hand: the
     * main model of DeepSeek's README_WEIGHTS (671B), without its multi-token-prediction module (11.5B unique).
     */
    private static final List<ModelPreset> ALL = List.of(
            new ModelPreset("gpt3-175b", ModelShape.of(175_000_000_000L, 0, 0), 0, 0, "Brown et al. 2020, Table"
                    + " 2.1: 175.0B, h=12288, L=96, 96 heads; GPT-2 BPE vocabulary 50,257, tied"),
            llama("llama3-8b", 8_000_000_000L, "Dubey et al. 2024 (The Llama 3 Herd of Models), Table 3: h=4096,"
                    + " L=32, FFN 14336, 32 heads and 8 KV heads of 128; vocabulary 128,256, untied"),
            llama("llama3-70b", 70_000_000_000L, "Dubey et al. 2024, Table 3: h=8192, L=80, FFN 28672, 64 heads"
                    + " and 8 KV heads of 128; vocabulary 128,256, untied"),
            llama("llama3-405b", 405_000_000_000L, "Dubey et al. 2024, Table 3: h=16384, L=126, FFN 53248, 128"
                    + " heads and 8 KV heads of 128; vocabulary 128,256, untied"),
            moe("mixtral-8x7b", 4096, 32, 32, 32_000, new ModelShape.Ffn(14336, true, 14336, 0), "Jiang et al. 2024"
                    + " (Mixtral of Experts), Table 1: dim 4096, 32 layers, 32 heads of 128, 8 KV heads, SwiGLU hidden"
                    + " 14336, vocabulary 32000, 8 experts, top-2; 46.7B total, 12.9B active"),
            moe("mixtral-8x22b", 6144, 56, 48, 32_768, new ModelShape.Ffn(16384, true, 16384, 0), "Mistral AI,"
                    + " 'Cheaper, Better, Faster, Stronger' (2024-04-17: 141B total, 39B active) and the released"
                    + " config: dim 6144, 56 layers, 48 heads and 8 KV heads of 128, SwiGLU hidden 16384, vocabulary"
                    + " 32768, 8 experts, top-2"),
            new ModelPreset("deepseek-v3", new ModelShape(671_000_000_000L, 7168, 61, 129_280, false, 7168,
                    new ModelShape.Ffn(18432, true, 2048, 3), 128, 128), 256, 8, "DeepSeek-AI 2024 (DeepSeek-V3"
                    + " Technical Report), section 4.2: 61 layers, h=7168, first 3 layers dense (d_ff 18432), then 1"
                    + " shared + 256 routed experts of d_ff 2048, top-8; 671B total, 37B active; 128 heads (config.json"
                    + " num_attention_heads and num_key_value_heads 128: MLA has no grouped KV). MLA attention is"
                    + " modelled as K,V of h per token"));

    /** A Llama 3 preset: the published shape {@link ModelShape#of} holds for the nominal count, with its weight sum. */
    private static ModelPreset llama(String name, long nominal, String source) {
        ModelShape s = ModelShape.of(nominal, 0, 0);
        long params = ModelShape.weightSum(s.hidden(), s.layers(), s.vocab(), s.tiedEmbeddings(), s.kvHidden(),
                s.ffn(), 0);
        return new ModelPreset(name, new ModelShape(params, s.hidden(), s.layers(), s.vocab(), s.tiedEmbeddings(),
                s.kvHidden(), s.ffn(), s.heads(), s.kvHeads()), 0, 0, source);
    }

    /**
     * A Mixtral preset: {@code heads} attention heads, 8 experts, top-2, 8 KV heads of 128, untied, counted by
     * {@link ModelShape#weightSum}.
     */
    private static ModelPreset moe(String name, int hidden, int layers, int heads, int vocab, ModelShape.Ffn ffn,
            String source) {
        long params = ModelShape.weightSum(hidden, layers, vocab, false, 1024, ffn, 8);
        return new ModelPreset(name, new ModelShape(params, hidden, layers, vocab, false, 1024, ffn, heads, 8), 8, 2,
                source);
    }

    /**
     * @param name a preset name, case-insensitive
     * @return the preset, if any
     */
    public static Optional<ModelPreset> find(String name) {
        String k = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return ALL.stream().filter(p -> p.name.equals(k)).findFirst();
    }

    /** @return every preset name, comma-separated */
    public static String names() {
        return ALL.stream().map(ModelPreset::name).collect(Collectors.joining(", "));
    }

    /** @return every preset */
    public static List<ModelPreset> all() {
        return ALL;
    }

    @Override
    public String toString() {
        return name + " " + shape.describe() + (experts > 0 ? ", " + experts + " experts top-" + topk : "") + " ("
                + source + ")";
    }
}
