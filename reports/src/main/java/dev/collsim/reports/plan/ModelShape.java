package dev.collsim.reports.plan;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The size and shape of a dense transformer: parameter count, hidden size and layer count.
 * This record is immutable.
 *
 * <p>When only the parameter count is given, the shape comes from a table of published models or, failing that,
 * from Kaplan et al. 2020 ("Scaling Laws for Neural Language Models", eq. 2.1): non-embedding parameters
 * {@code N ~= 12 * L * h^2}, with the aspect ratio {@code h / L = 128} that Kaplan et al. found near-optimal
 * (their Fig. 5 spans 50-250). Published shapes: GPT-3 175B h=12288 L=96 and GPT-3 13B h=5140 L=40
 * (Brown et al. 2020, Table 2.1); Llama 2 70B h=8192 L=80, 13B h=5120 L=40, 7B h=4096 L=32 (Touvron et al.
 * 2023, and their released configs); Llama 3 405B h=16384 L=126 and 8B h=4096 L=32 (Dubey et al. 2024, "The
 * Llama 3 Herd of Models", Table 3; Llama 3 70B has the Llama 2 70B shape, h=8192 L=80).
 * Vocabularies: GPT-3 50,257 with the output layer tied to the input embedding (Brown et al. 2020 use GPT-2's BPE,
 * Radford et al. 2019); Llama 3 128,256 and Llama 2 32,000, untied (the released configs' {@code vocab_size} and
 * {@code tie_word_embeddings: false}).
 *
 * @param params         total parameter count (all experts included for a mixture-of-experts model), > 0
 * @param hidden         hidden size h, > 0
 * @param layers         transformer layers L, > 0
 * @param vocab          vocabulary size V, >= 0; 0 = unknown (then every weight counts as a layer weight)
 * @param tiedEmbeddings true when the output layer shares the input embedding's V x h matrix
 * @param kvHidden       width of K (and of V) per token, kv heads x head size; equals h without grouped-query
 *                       attention. Llama 3 8B, 70B and 405B use 8 KV heads of 128 = 1024 (Dubey et al. 2024, Table 3);
 *                       GPT-3 and Llama 2 7B/13B have none (kvHidden = h).
 * @param ffn            feed-forward shape: widths, gating, MoE expert width, leading dense layers
 * @param heads          attention (query) heads, Megatron-LM's {@code num_attention_heads}, >= 0; 0 = unknown (a
 *                       shape derived from the parameter count or given as --hidden/--layers). Published: GPT-3 175B
 *                       96 (Brown et al. 2020, Table 2.1); Llama 3 8B 32, 70B 64, 405B 128 (Dubey et al. 2024,
 *                       Table 3); Llama 2 7B 32, 13B 40 (the released config.json's {@code num_attention_heads})
 * @param kvHeads        key/value heads, Megatron-LM's {@code num_query_groups} (grouped-query attention, Ainslie et
 *                       al. 2023), in [1, heads] and dividing heads when heads is known; equals heads without GQA;
 *                       0 = unknown. Llama 3 8B/70B/405B 8 (Dubey et al. 2024, Table 3); GPT-3 and Llama 2 7B/13B
 *                       as many as heads (config.json {@code num_key_value_heads} 32 and 40)
 */
public record ModelShape(long params, int hidden, int layers, int vocab, boolean tiedEmbeddings, int kvHidden,
        Ffn ffn, int heads, int kvHeads) {

    /**
     * The feed-forward (MLP) blocks. Immutable.
     *
     * @param hidden           d_ff of the dense MLP, > 0 (4 h in GPT-3, Brown et al. 2020)
     * @param gated            true for a gated MLP (SwiGLU, Shazeer 2020: three h x d_ff matrices instead of two)
     * @param expertHidden     d_ff of one routed expert, > 0 (the dense width for Mixtral; 2048 for DeepSeek-V3's
     *                         fine-grained experts)
     * @param firstDenseLayers leading layers that stay dense before MoE layers begin (DeepSeek-V3: 3), >= 0
     */
    public record Ffn(int hidden, boolean gated, int expertHidden, int firstDenseLayers) {

        /** @throws IllegalArgumentException when a width is not positive */
        public Ffn {
            if (hidden <= 0 || expertHidden <= 0 || firstDenseLayers < 0) {
                throw new IllegalArgumentException("ffn widths must be > 0 and first dense layers >= 0, got "
                        + hidden + ", " + expertHidden + ", " + firstDenseLayers);
            }
        }

        /**
         * @param h hidden size
         * @return the GPT default: d_ff = 4 h, two matrices, experts as wide, no leading dense layers
         */
        public static Ffn standard(int h) {
            return new Ffn(4 * h, false, 4 * h, 0);
        }

        /**
         * @param h hidden size
         * @return weights of one routed expert: (gated ? 3 : 2) x h x expertHidden
         */
        public long expertWeights(int h) {
            return (gated ? 3L : 2L) * h * expertHidden;
        }
    }

    private static final Pattern SIZE = Pattern.compile("\\s*([0-9]*\\.?[0-9]+(?:[eE][0-9]+)?)\\s*([KMBT]?)\\s*");

    /**
     * Published shapes: {params, hidden, layers, vocab, tied (1/0), kvHidden, d_ff, gated (1/0), heads, kv heads}.
     * Sources in the class javadoc and at {@link #heads()}; d_ff: Llama 3 405B 53248, 70B 28672, 8B 14336 (Dubey et
     * al. 2024, Table 3), Llama 2 13B 13824, 7B 11008 (released configs), GPT-3 4h.
     */
    private static final long[][] KNOWN = {
        {405_000_000_000L, 16384, 126, 128_256, 0, 1024, 53248, 1, 128, 8},
        {175_000_000_000L, 12288, 96, 50_257, 1, 12288, 49152, 0, 96, 96},
        {70_000_000_000L, 8192, 80, 128_256, 0, 1024, 28672, 1, 64, 8},
        {13_000_000_000L, 5120, 40, 32_000, 0, 5120, 13824, 1, 40, 40},
        {8_000_000_000L, 4096, 32, 128_256, 0, 1024, 14336, 1, 32, 8},
        {7_000_000_000L, 4096, 32, 32_000, 0, 4096, 11008, 1, 32, 32},
    };

    /**
     * @throws IllegalArgumentException when a value is not positive, the embeddings exceed the parameters, or the head
     *                                  counts are inconsistent (kv heads not dividing heads, one known without the
     *                                  other)
     */
    public ModelShape {
        if (params <= 0 || hidden <= 0 || layers <= 0 || vocab < 0 || kvHidden <= 0 || kvHidden > hidden) {
            throw new IllegalArgumentException("params, hidden and layers must be > 0, vocab >= 0 and kvHidden in"
                    + " [1, hidden], got " + params + ", " + hidden + ", " + layers + ", " + vocab + ", " + kvHidden);
        }
        if (heads < 0 || kvHeads < 0 || (heads == 0) != (kvHeads == 0) || kvHeads > heads
                || heads > 0 && heads % kvHeads != 0) {
            throw new IllegalArgumentException("heads and kv heads must both be 0 (unknown) or kv heads must divide"
                    + " heads, got " + heads + " and " + kvHeads);
        }
        if ((double) vocab * hidden * (tiedEmbeddings ? 1 : 2) >= params) {
            throw new IllegalArgumentException("the embeddings (vocab " + vocab + " x hidden " + hidden
                    + (tiedEmbeddings ? "" : " x 2, untied") + ") exceed the parameter count " + params);
        }
    }

    /**
     * A shape with an unknown vocabulary.
     *
     * @param params parameter count
     * @param hidden hidden size
     * @param layers layers
     */
    public ModelShape(long params, int hidden, int layers) {
        this(params, hidden, layers, 0, true, hidden, Ffn.standard(hidden));
    }

    /**
     * A shape whose attention head counts are unknown ({@link #heads()} = 0).
     *
     * @param params         parameter count
     * @param hidden         hidden size
     * @param layers         layers
     * @param vocab          vocabulary size
     * @param tiedEmbeddings output layer tied to the input embedding
     * @param kvHidden       width of K (and of V)
     * @param ffn            feed-forward shape
     */
    public ModelShape(long params, int hidden, int layers, int vocab, boolean tiedEmbeddings, int kvHidden, Ffn ffn) {
        this(params, hidden, layers, vocab, tiedEmbeddings, kvHidden, ffn, 0, 0);
    }

    /**
     * Parses a parameter count: {@code 70B}, {@code 175B}, {@code 1.3B}, {@code 350M}, {@code 1T}, {@code 7e9}
     * (K = 1e3, M = 1e6, B = 1e9, T = 1e12; case-insensitive).
     *
     * @param text the text
     * @return the count
     * @throws IllegalArgumentException naming the text and the allowed forms
     */
    public static long parseParams(String text) {
        Matcher m = SIZE.matcher(text == null ? "" : text.toUpperCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a parameter count; use a number with an"
                    + " optional K, M, B or T suffix (1e3, 1e6, 1e9, 1e12), e.g. 70B, 1.3B, 350M");
        }
        double v = Double.parseDouble(m.group(1));
        double scale = switch (m.group(2)) {
            case "K" -> 1e3;
            case "M" -> 1e6;
            case "B" -> 1e9;
            case "T" -> 1e12;
            default -> 1;
        };
        double n = v * scale;
        if (n < 1 || n > 1e16) {
            throw new IllegalArgumentException("'" + text + "': parameter count must be in [1, 1e16]");
        }
        return Math.round(n);
    }

    /**
     * Fewest parameters a model planned on a cluster plausibly has, 1e6 (collsim's threshold, not a published
     * figure): the smallest GPT-2, 117M parameters (Radford et al. 2019, table 2), is over 100 times more, and a
     * count below 1e6 is nearly always a forgotten suffix ({@code --params 70} for 70B).
     */
    public static final long MIN_PLAUSIBLE_PARAMS = 1_000_000L;

    /**
     * @param text a parameter count as the user wrote it
     * @return a warning when it parses to fewer than {@link #MIN_PLAUSIBLE_PARAMS}, naming the count and the count
     *         the user probably meant (the number with B, e.g. {@code did you mean 70B?}); empty otherwise or when
     *         the text does not parse (parsing reports that)
     */
    public static Optional<String> implausiblySmall(String text) {
        long n;
        try {
            n = parseParams(text);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (n >= MIN_PLAUSIBLE_PARAMS) {
            return Optional.empty();
        }
        String number = text.trim().replaceAll("[kKmMbBtT]$", "");
        return Optional.of(String.format(Locale.ROOT, "%s is %,d parameters, fewer than a model planned on a cluster"
                + " plausibly has (1e6); did you mean %sB? (suffixes K, M, B, T = 1e3, 1e6, 1e9, 1e12)", text.trim(),
                n, number));
    }

    /**
     * The shape of a model of {@code params} parameters: explicit {@code hidden}/{@code layers} win; otherwise a
     * published shape with the same parameter count; otherwise Kaplan's {@code 12 L h^2} with {@code h = 128 L},
     * h rounded to a multiple of 128.
     *
     * @param params parameter count, > 0
     * @param hidden hidden size, or 0 to derive
     * @param layers layer count, or 0 to derive
     * @return the shape
     * @throws IllegalArgumentException on a non-positive parameter count
     */
    public static ModelShape of(long params, int hidden, int layers) {
        if (params <= 0) {
            throw new IllegalArgumentException("params must be > 0, got " + params);
        }
        if (hidden > 0 && layers > 0) {
            return new ModelShape(params, hidden, layers);
        }
        for (long[] k : KNOWN) {
            if (k[0] == params && (hidden == 0 || hidden == k[1]) && (layers == 0 || layers == k[2])) {
                return new ModelShape(params, (int) k[1], (int) k[2], (int) k[3], k[4] == 1, (int) k[5],
                        new Ffn((int) k[6], k[7] == 1, (int) k[6], 0), (int) k[8], (int) k[9]);
            }
        }
        if (hidden > 0) {
            return new ModelShape(params, hidden, (int) Math.max(1, Math.round(params / (12.0 * hidden * hidden))));
        }
        if (layers > 0) {
            int h = roundTo128(Math.sqrt(params / (12.0 * layers)));
            return new ModelShape(params, h, layers);
        }
        // 12 L h^2 = N with h = 128 L  =>  L = (N / (12 * 128^2))^(1/3)
        int l = (int) Math.max(1, Math.round(Math.cbrt(params / (12.0 * 128 * 128))));
        int h = roundTo128(Math.sqrt(params / (12.0 * l)));
        return new ModelShape(params, h, l);
    }

    private static int roundTo128(double h) {
        return (int) Math.max(128, Math.round(h / 128.0) * 128);
    }

    /**
     * The parameters of a shape, summed from its weights, for a pre-norm transformer without biases (Llama and
     * Mixtral: RMSNorm weights only, as their released configs and checkpoints): per layer Q and O (h x h), K and V
     * (h x kvHidden each), two norm vectors of h, and the feed-forward: (gated ? 3 : 2) h d_ff in a dense layer, or
     * in an MoE layer (every layer from {@code ffn.firstDenseLayers} on) {@code experts} routed experts plus the
     * router's experts x h; then the input embedding V h, the output layer V h unless tied, and the final norm h.
     * Llama 3 70B by hand: 80 x (2 x 8192^2 + 2 x 8192 x 1024 + 3 x 8192 x 28672 + 2 x 8192) + 2 x 128256 x 8192 +
     * 8192 = 70,553,706,496.
     *
     * @param hidden   h
     * @param layers   L
     * @param vocab    V
     * @param tied     output layer tied to the input embedding
     * @param kvHidden width of K (and of V)
     * @param ffn      feed-forward shape
     * @param experts  routed experts per MoE layer, 0 for a dense model
     * @return the parameter count
     */
    public static long weightSum(int hidden, int layers, int vocab, boolean tied, int kvHidden, Ffn ffn,
            int experts) {
        long h = hidden;
        long attention = 2 * h * h + 2 * h * kvHidden;
        long dense = (ffn.gated() ? 3L : 2L) * h * ffn.hidden();
        long moe = experts * (ffn.expertWeights(hidden) + h);
        int denseLayers = experts == 0 ? layers : Math.min(layers, ffn.firstDenseLayers());
        long blocks = layers * (attention + 2 * h) + denseLayers * dense + (long) (layers - denseLayers) * moe;
        return blocks + (tied ? 1 : 2) * (long) vocab * h + h;
    }

    /**
     * @param f the feed-forward shape
     * @return a copy with it
     */
    public ModelShape withFfn(Ffn f) {
        return new ModelShape(params, hidden, layers, vocab, tiedEmbeddings, kvHidden, f, heads, kvHeads);
    }

    /**
     * The tensor-parallel degrees Megatron-Core accepts for this shape's attention: its {@code TransformerConfig}
     * ({@code megatron/core/transformer/transformer_config.py}, {@code __post_init__}) raises "num_attention_heads
     * (H) must be a multiple of tensor_model_parallel_size (T)" and the same of {@code num_query_groups} (the KV
     * heads), as each tensor-parallel rank holds whole heads and whole KV groups.
     *
     * @param tp a tensor-parallel degree, >= 1
     * @return true when both head counts divide by tp, or when the heads are unknown
     */
    public boolean headsDivide(int tp) {
        return heads == 0 || heads % tp == 0 && kvHeads % tp == 0;
    }

    /** @return e.g. {@code 175B (h=12288, L=96, V=50257)} */
    public String describe() {
        return formatParams(params) + " (h=" + hidden + ", L=" + layers + (vocab > 0 ? ", V=" + vocab : "") + ")";
    }

    /**
     * @param n a parameter count
     * @return the short form: 175B, 1.3B, 350M
     */
    public static String formatParams(long n) {
        String[] suffix = {"", "K", "M", "B", "T"};
        double v = n;
        int i = 0;
        while (v >= 1000 && i < suffix.length - 1) {
            v /= 1000;
            i++;
        }
        String text = String.format(Locale.ROOT, "%.3g", v);
        if (text.contains(".")) {
            text = text.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return text + suffix[i];
    }
}
