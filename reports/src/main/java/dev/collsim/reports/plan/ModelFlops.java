package dev.collsim.reports.plan;

/**
 * FLOPs of one training step of a {@link TrainingJob}, per token (forward plus backward, multiply-add = 2 FLOPs).
 * This class holds no state.
 *
 * <p>Model FLOPs (what MFU counts, PaLM, Chowdhery et al. 2022, Appendix B: {@code 6N + 12 L H Q T} per token):
 * {@code 6 N_matmul + 12 L h s}, where {@code N_matmul} is the active weights a token multiplies with (every dense
 * weight, topk experts per MoE layer, and the output layer; not the input embedding, a table lookup) and
 * {@code 12 L h s} is attention's score and value products (2 s h forward per product, x 3 for backward). For a
 * GPT model with tied embeddings ({@code N = 12 L h^2 + V h}) this is exactly Narayanan et al. 2021 ("Efficient
 * Large-Scale Language Model Training on GPU Clusters", SC'21), eq. 3 without recomputation:
 * {@code 72 B s L h^2 (1 + s/(6h) + V/(12 L h))} per iteration of B sequences. The causal mask is not halved, as in
 * both papers.
 *
 * <p>Hardware FLOPs add what {@link Recompute} runs again: full recomputation adds one forward of the transformer
 * layers, {@code 2 N_layers + 4 L h s} (the output layer is not recomputed), which gives eq. 3 as printed,
 * {@code 96 B s L h^2 (1 + s/(6h) + V/(16 L h))}; selective recomputation adds the attention core's forward,
 * {@code 4 L h s}.
 */
public final class ModelFlops {

    private ModelFlops() {
    }

    /**
     * @param job the job
     * @return weights in the transformer layers a token goes through: active weights minus the embedding and
     *         output matrices ({@code V h} each, once when tied); all active weights when the vocabulary is unknown
     */
    public static double activeLayerParams(TrainingJob job) {
        ModelShape s = job.shape();
        double vh = (double) s.vocab() * s.hidden();
        return job.activeParams() - vh * (s.tiedEmbeddings() ? 1 : 2);
    }

    /**
     * @param job the job
     * @return model FLOPs per token: {@code 6 (N_layers + V h) + 12 L h s}
     */
    public static double modelPerToken(TrainingJob job) {
        ModelShape s = job.shape();
        double output = (double) s.vocab() * s.hidden();
        return 6 * (activeLayerParams(job) + output) + attention(job);
    }

    /**
     * @param job the job
     * @return FLOPs a GPU executes per token, recomputation included
     */
    public static double hardwarePerToken(TrainingJob job) {
        double extra = switch (job.recompute()) {
            case NONE -> 0;
            case SELECTIVE -> attention(job) / 3;
            case FULL -> 2 * activeLayerParams(job) + attention(job) / 3;
        };
        return modelPerToken(job) + extra;
    }

    /** @return 12 L h s: attention scores and values, forward and backward, per token */
    private static double attention(TrainingJob job) {
        ModelShape s = job.shape();
        return 12.0 * s.layers() * s.hidden() * job.seqLen();
    }

    /**
     * @param job the job
     * @return model FLOPs of one optimizer step, all GPUs together
     */
    public static double modelPerStep(TrainingJob job) {
        return modelPerToken(job) * job.tokensPerStep();
    }

    /**
     * @param job the job
     * @return hardware FLOPs of one optimizer step, all GPUs together
     */
    public static double hardwarePerStep(TrainingJob job) {
        return hardwarePerToken(job) * job.tokensPerStep();
    }
}
