package dev.collsim.reports.plan;

/**
 * Activation bytes one transformer layer keeps for backward, per micro-batch and per GPU, counted tensor by tensor.
 * This class holds no state. Symbols: s tokens per rank (s / cp with context parallelism), b micro-batch, h hidden
 * size, a = h / 128 query heads, k = KV width (kv heads x 128; k = h without GQA), f = d_ff, t tensor-parallel degree.
 * Sizes in bytes for 2-byte (bf16) activations, scaled by {@code actBytes / 2}; the softmax statistics are fp32.
 *
 * <p><b>GPT-style layer</b> (ungated MLP: GELU, LayerNorm, dropout, multi-head attention): Korthikanti et al. 2022
 * ("Reducing Activation Recomputation in Large Transformer Models"), section 4.1 and Table 2: {@code s b h (34 +
 * 5 a s / h)} without parallelism; with tensor parallelism {@code s b h (10 + 24/t + 5 a s/(h t))}; with sequence
 * parallelism {@code s b h (34/t + 5 a s/(h t))}; selective recomputation drops the {@code 5 a s / h} term. Their 34
 * assumes f = 4h and k = h.
 *
 * <p><b>Llama-style layer</b> (gated SwiGLU MLP, RMSNorm, no dropout, grouped-query attention, FlashAttention; Llama
 * 3, Mixtral and DeepSeek-V3 train without dropout). Counting what backward reads, as Korthikanti et al. count it:
 * <ul>
 *   <li>the two RMSNorm inputs, {@code 2 x 2 s b h}; the QKV projection's input (first norm's output) {@code 2 s b h};
 *       the MLP's input (second norm's output) {@code 2 s b h}: {@code 8 s b h}, on every tensor-parallel rank (divided
 *       by t only with sequence parallelism, as Korthikanti's 10 s b h);</li>
 *   <li>FlashAttention (Dao et al. 2022, section 3.1 and Algorithm 2) keeps its inputs Q {@code 2 s b h} and K, V
 *       {@code 2 x 2 s b k}, its output O {@code 2 s b h} (which is also the output projection's input, counted once)
 *       and the softmax log-sum-exp per head and token, {@code 4 a s b} (fp32); no s x s scores. Each tensor-parallel
 *       rank holds h/t of Q and O, and k/t of K and V but at least one KV head (128) when t exceeds the KV heads;</li>
 *   <li>the SwiGLU MLP {@code W2 (silu(W1 x) * W3 x)}: the gate's input {@code W1 x} {@code 2 s b f}, {@code W3 x}
 *       {@code 2 s b f} and their product, W2's input, {@code 2 s b f}: {@code 6 s b f}, divided by t.</li>
 * </ul>
 * Sum: {@code s b (8 h + 4 h + 4 k + 6 f) + 4 a s b}; for Llama 3 405B (h 16384, k 1024, f 53248, Dubey et al. 2024,
 * Table 3) that is {@code s b h (31.75 + 0.03)}, about the GPT figure 34 without its {@code 5 a s / h} scores (at
 * s = 8192, a = 128 those alone would be 320 s b h). Without FlashAttention ({@code --recompute none}) the softmax
 * output {@code 2 a s^2 b} is kept instead of the log-sum-exp (no dropout, so none of Korthikanti's mask and dropout
 * output).
 *
 * <p>Full recomputation keeps only the layer input, {@code 2 s b h} (divided by t with sequence parallelism), for
 * either layer. A gated MLP is what marks a Llama-style layer ({@link ModelShape.Ffn#gated()}).
 */
public final class LayerActivations {

    /** Head size assumed for the head count a = h / 128 (GPT-3 175B, Llama 3 8B, 70B and 405B). */
    static final int HEAD_SIZE = 128;

    private LayerActivations() {
    }

    /**
     * @param job the job
     * @return activation bytes of one layer for one micro-batch on one GPU
     */
    public static double bytes(TrainingJob job) {
        double s = job.seqPerRank();
        double b = job.microBatch();
        double h = job.shape().hidden();
        double t = job.tp();
        double scale = job.actBytes() / 2.0;
        if (job.recompute() == Recompute.FULL) {
            return s * b * h * (job.sequenceParallel() ? 2 / t : 2) * scale;
        }
        double heads = Math.max(1, h / HEAD_SIZE);
        return job.shape().ffn().gated() ? llama(job, s, b, h, t, heads, scale) : gpt(job, s, b, h, t, heads, scale);
    }

    private static double gpt(TrainingJob job, double s, double b, double h, double t, double heads, double scale) {
        double scores = job.recompute() == Recompute.SELECTIVE ? 0 : 5 * heads * s / (h * t);
        double perElement = (job.sequenceParallel() ? 10 / t : 10) + 24 / t + scores;
        return s * b * h * perElement * scale;
    }

    private static double llama(TrainingJob job, double s, double b, double h, double t, double heads, double scale) {
        double sb = s * b;
        double kvPerRank = Math.max(job.shape().kvHidden() / t, Math.min(HEAD_SIZE, job.shape().kvHidden()));
        double replicated = 8 * sb * h / (job.sequenceParallel() ? t : 1);
        double attention = 4 * sb * h / t + 4 * sb * kvPerRank;
        double mlp = 6 * sb * job.shape().ffn().hidden() / t;
        double twoByte = (replicated + attention + mlp) * scale;
        double softmax = job.recompute() == Recompute.NONE ? 2 * heads / t * s * sb * scale : 4 * heads / t * sb;
        return twoByte + softmax;
    }
}
