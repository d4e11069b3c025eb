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

    /** Every preset. Mixtral's and Mixtral 8x22B's counts are the sums of their matrices (see the sources). */
    private static final List<ModelPreset> ALL = List.of(
            dense("gpt3-175b", 175_000_000_000L, "Brown et al. 2020, Table 2.1: h=12288, L=96, 96 heads; GPT-2 BPE"
                    + " vocabulary 50,257, tied"),
            dense("llama3-8b", 8_000_000_000L, "Dubey et al. 2024 (The Llama 3 Herd of Models), Table 3"),
            dense("llama3-70b", 70_000_000_000L, "Dubey et al. 2024, Table 3"),
            dense("llama3-405b", 405_000_000_000L, "Dubey et al. 2024, Table 3"),
            new ModelPreset("mixtral-8x7b", new ModelShape(46_702_792_704L, 4096, 32, 32_000, false, 1024,
                    new ModelShape.Ffn(14336, true, 14336, 0)), 8, 2, "Jiang et al. 2024 (Mixtral of Experts), Table 1:"
                    + " dim 4096, 32 layers, 32 heads of 128, 8 KV heads, SwiGLU hidden 14336, vocabulary 32000, 8"
                    + " experts, top-2; 46.7B total, 12.9B active"),
            new ModelPreset("mixtral-8x22b", new ModelShape(140_630_071_296L, 6144, 56, 32_768, false, 1024,
                    new ModelShape.Ffn(16384, true, 16384, 0)), 8, 2, "Mistral AI, 'Cheaper, Better, Faster, Stronger'"
                    + " (2024-04-17: 141B total, 39B active) and the released config: dim 6144, 56 layers, 8 KV"
                    + " heads of 128, SwiGLU hidden 16384, vocabulary 32768, 8 experts, top-2"),
            new ModelPreset("deepseek-v3", new ModelShape(671_000_000_000L, 7168, 61, 129_280, false, 7168,
                    new ModelShape.Ffn(18432, true, 2048, 3)), 256, 8, "DeepSeek-AI 2024 (DeepSeek-V3 Technical"
                    + " Report), section 4.2: 61 layers, h=7168, first 3 layers dense (d_ff 18432), then 1 shared +"
                    + " 256 routed experts of d_ff 2048, top-8; 671B total, 37B active. MLA attention is modelled as"
                    + " K,V of h per token"));

    private static ModelPreset dense(String name, long params, String source) {
        return new ModelPreset(name, ModelShape.of(params, 0, 0), 0, 0, source);
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
