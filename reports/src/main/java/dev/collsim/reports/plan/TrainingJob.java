package dev.collsim.reports.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One training job: the model, its parallel layout and its batch, as {@code collsim plan} reads them.
 * This record is immutable; the compact constructor checks every rule below and lists every broken one.
 *
 * <p>Layout: {@code nGpus = dp * tp * pp * cp}. Expert parallelism ({@code ep}) splits the {@code dp x cp} ranks that
 * hold the same dense weights into {@code dp cp / ep} expert-data-parallel groups of {@code ep} ranks (Megatron-Core's
 * "expert model parallel" sits inside the data- and context-parallel dimensions), so {@code ep} must divide
 * {@code dp x cp}.
 *
 * @param shape             parameter count, hidden size, layers
 * @param gradBytes         bytes per gradient element in the data-parallel reduction and the gradient buffer
 *                          (4 fp32 as Megatron-LM's default {@code accumulate_allreduce_grads_in_fp32}; 2 bf16)
 * @param paramBytes        bytes per parameter element all-gathered by ZeRO/FSDP (2 for bf16 weights)
 * @param actBytes          bytes per activation element sent by tensor/pipeline/expert parallelism (2 for bf16)
 * @param dp                data-parallel degree, >= 1
 * @param tp                tensor-parallel degree, >= 1
 * @param pp                pipeline-parallel degree (stages), >= 1; at most the layer count (an uneven split is
 *                          timed by its most loaded stage)
 * @param virtualStages     interleaved stages per GPU (Narayanan et al. 2021 section 2.2.2), >= 1; pp x v chunks need
 *                          at least pp x v - 2 layers (the first and last chunk may hold only the embedding and the
 *                          output layer, as Llama 3 405B's 126 layers in 16 x 8 chunks, Dubey et al. 2024 section 3.3.2)
 * @param ep                expert-parallel degree, >= 1, divides dp x cp
 * @param experts           experts per MoE layer, 0 for a dense model
 * @param topk              experts each token is routed to (1 Switch, 2 GShard), >= 1 when experts > 0
 * @param moeEvery          every how many layers one is an MoE layer (1 = all, 2 = every other as GShard/Switch)
 * @param capacityFactor    MoE capacity factor (Fedus et al. 2021 section 2.1), >= 1
 * @param zeroStage         ZeRO stage 0..3 (Rajbhandari et al. 2020); FSDP full sharding is stage 3
 * @param sequenceParallel  Megatron sequence parallelism (Korthikanti et al. 2022): TP AllReduce becomes
 *                          ReduceScatter + AllGather
 * @param seqLen            tokens per sequence s, >= 1
 * @param microBatch        sequences per micro-batch b, >= 1
 * @param globalBatch       sequences per optimizer step G; a multiple of {@code microBatch * dp}
 * @param compute           how the compute time is obtained: given ms, end-to-end MFU or kernel efficiency
 * @param recompute         activation recomputation policy (changes hardware FLOPs, not model FLOPs)
 * @param overlap           fraction in [0, 1] of overlappable communication (data-parallel gradient reduction,
 *                          ZeRO gathers) hidden behind backward compute
 * @param cp                context-parallel degree (Megatron-Core context parallelism, ring attention): each
 *                          sequence is split into cp chunks on cp ranks; divides the sequence length. GPUs are
 *                          {@code dp x tp x pp x cp}, and gradients are reduced (and ZeRO shards) over dp x cp ranks.
 */
public record TrainingJob(ModelShape shape, int gradBytes, int paramBytes, int actBytes, int dp, int tp, int pp,
        int virtualStages, int ep, int experts, int topk, int moeEvery, double capacityFactor, int zeroStage,
        boolean sequenceParallel, int seqLen, int microBatch, int globalBatch, ComputeRate compute,
        Recompute recompute, double overlap, int cp) {

    /**
     * A job without context parallelism (cp = 1); parameters as the record's.
     */
    public TrainingJob(ModelShape shape, int gradBytes, int paramBytes, int actBytes, int dp, int tp, int pp,
            int virtualStages, int ep, int experts, int topk, int moeEvery, double capacityFactor, int zeroStage,
            boolean sequenceParallel, int seqLen, int microBatch, int globalBatch, ComputeRate compute,
            Recompute recompute, double overlap) {
        this(shape, gradBytes, paramBytes, actBytes, dp, tp, pp, virtualStages, ep, experts, topk, moeEvery,
                capacityFactor, zeroStage, sequenceParallel, seqLen, microBatch, globalBatch, compute, recompute,
                overlap, 1);
    }

    /** @throws IllegalArgumentException listing every broken rule, each naming the option and allowed values */
    public TrainingJob {
        List<String> bad = new ArrayList<>();
        positive(bad, "--grad-reduce-dtype bytes", gradBytes);
        positive(bad, "--param-bytes", paramBytes);
        positive(bad, "--act-bytes", actBytes);
        positive(bad, "--dp", dp);
        positive(bad, "--tp", tp);
        positive(bad, "--pp", pp);
        positive(bad, "--virtual-stages", virtualStages);
        positive(bad, "--ep", ep);
        positive(bad, "--seq-len", seqLen);
        positive(bad, "--micro-batch", microBatch);
        positive(bad, "--global-batch", globalBatch);
        positive(bad, "--moe-every", moeEvery);
        positive(bad, "--cp", cp);
        if (cp >= 1 && seqLen >= 1 && seqLen % cp != 0) {
            bad.add("--cp " + cp + " must divide --seq-len " + seqLen + " (each rank holds s/cp tokens)");
        }
        if (experts < 0) {
            bad.add("--experts must be >= 0 (0 = dense), got " + experts);
        }
        if (experts > 0 && (topk < 1 || topk > experts)) {
            bad.add("--topk must be in [1, --experts=" + experts + "], got " + topk);
        }
        if (experts == 0 && ep > 1) {
            bad.add("--ep " + ep + " needs --experts > 0");
        }
        if (ep >= 1 && dp >= 1 && cp >= 1 && (dp * cp) % ep != 0) {
            bad.add("--ep " + ep + " must divide --dp " + dp + (cp > 1 ? " x --cp " + cp + " = " + dp * cp : "")
                    + " (experts are sharded over the ranks that hold the same dense weights)");
        }
        if (experts > 0 && ep >= 1 && experts % ep != 0) {
            bad.add("--ep " + ep + " must divide --experts " + experts);
        }
        if (!(capacityFactor >= 1)) {
            bad.add("--capacity-factor must be >= 1, got " + capacityFactor);
        }
        if (zeroStage < 0 || zeroStage > 3) {
            bad.add("--zero must be 0, 1, 2 or 3, got " + zeroStage);
        }
        tensorParallelProblem(shape, tp).ifPresent(bad::add);
        if (virtualStages > 1 && pp == 1) {
            // interleaving splits each pipeline GPU's layers into v chunks to shrink the bubble (Narayanan et al. 2021
            // section 2.2.2); Megatron-Core refuses it without a pipeline (megatron/core/parallel_state.py
            // initialize_model_parallel: "pipeline-model-parallel size should be greater than 1 with interleaved
            // schedule"; greater than 2 in older releases)
            bad.add("--virtual-stages " + virtualStages + " needs --pp above 1 (interleaved pipeline stages: each of"
                    + " the pp GPUs holds v chunks of layers)");
        }
        // interleaved: the first and the last chunk may hold only the embedding and the output layer (Llama 3 405B:
        // 126 layers in 16 x 8 chunks, Dubey et al. 2024 section 3.3.2)
        int spareChunks = virtualStages > 1 ? 2 : 0;
        if (pp >= 1 && virtualStages >= 1 && shape.layers() + spareChunks < pp * virtualStages) {
            bad.add("--layers " + shape.layers() + " must be at least --pp x --virtual-stages = " + pp * virtualStages
                    + (spareChunks > 0 ? " less 2 (the embedding and output chunks)" : " (one layer per stage)"));
        }
        if (microBatch >= 1 && dp >= 1 && globalBatch >= 1 && globalBatch % (microBatch * dp) != 0) {
            bad.add("--global-batch " + globalBatch + " must be a multiple of --micro-batch x --dp = "
                    + (long) microBatch * dp);
        }
        if (compute == null || recompute == null) {
            bad.add("compute rate and recompute policy are required");
        }
        if (!(overlap >= 0 && overlap <= 1)) {
            bad.add("--overlap must be in [0, 1], got " + overlap);
        }
        if (bad.isEmpty() && experts > 0 && expertParams(shape, experts, moeEvery) >= shape.params()) {
            bad.add("--experts " + experts + " x " + moeLayers(shape, moeEvery) + " MoE layers x "
                    + shape.ffn().expertWeights(shape.hidden()) + " weights per expert = "
                    + expertParams(shape, experts, moeEvery) + " expert weights exceed --params " + shape.params());
        }
        if (!bad.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", bad));
        }
    }

    /**
     * The one check of {@code --tp} against the model's shape: each tensor-parallel rank holds h/tp columns (Shoeybi
     * et al. 2019) and, where the heads are known, whole attention heads and whole KV groups, as Megatron-Core's
     * {@code TransformerConfig.__post_init__} requires ({@link ModelShape#headsDivide}).
     *
     * @param shape the model
     * @param tp    the tensor-parallel degree (below 1 is reported elsewhere)
     * @return the problem, naming what was found and the allowed degrees up to 64; empty when tp fits
     */
    static Optional<String> tensorParallelProblem(ModelShape shape, int tp) {
        if (tp < 1) {
            return Optional.empty();
        }
        if (!shape.headsDivide(tp)) {
            int groups = shape.kvHeads();
            String kv = groups == shape.heads() ? "" : " and " + groups + " KV heads (grouped-query attention)";
            return Optional.of("--tp " + tp + ": the model has " + shape.heads() + " attention heads" + kv + ", and"
                    + " each tensor-parallel rank holds whole heads" + (kv.isEmpty() ? "" : " and whole KV heads")
                    + " (Megatron-Core refuses it: num_attention_heads and num_query_groups must be multiples of"
                    + " tensor_model_parallel_size); allowed up to 64: " + divisors(gcd(shape.heads(), groups), 64));
        }
        if (shape.hidden() % tp != 0) {
            return Optional.of("--tp " + tp + " must divide the hidden size h = " + shape.hidden() + " (each"
                    + " tensor-parallel rank holds h/tp columns, Shoeybi et al. 2019; the head count must divide"
                    + " too); allowed up to 64: " + divisors(shape.hidden(), 64));
        }
        return Optional.empty();
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** @return the divisors of n that are at most max, comma-separated */
    static String divisors(int n, int max) {
        List<String> d = new ArrayList<>();
        for (int k = 1; k <= Math.min(n, max); k++) {
            if (n % k == 0) {
                d.add(Integer.toString(k));
            }
        }
        return String.join(", ", d);
    }

    private static void positive(List<String> bad, String option, int v) {
        if (v < 1) {
            bad.add(option + " must be >= 1, got " + v);
        }
    }

    private static int moeLayers(ModelShape s, int every) {
        return Math.max(0, s.layers() - s.ffn().firstDenseLayers()) / every;
    }

    private static long expertParams(ModelShape s, int experts, int every) {
        return (long) moeLayers(s, every) * experts * s.ffn().expertWeights(s.hidden());
    }

    /** @return GPUs used: dp x tp x pp x cp */
    public int nGpus() {
        return dp * tp * pp * cp;
    }

    /** @return tokens of a sequence one rank holds, s / cp */
    public int seqPerRank() {
        return seqLen / cp;
    }

    /** @return micro-batches per step per pipeline, m = G / (b x dp) */
    public int microBatches() {
        return globalBatch / (microBatch * dp);
    }

    /** @return tokens per optimizer step, G x s */
    public long tokensPerStep() {
        return (long) globalBatch * seqLen;
    }

    /**
     * @return layers held by the most loaded pipeline stage, ceil(L / pp): the stage that sets the pipeline's pace
     *         and holds the most activations (an uneven split is allowed, as Llama 3 405B's 126 layers on 16 stages,
     *         Dubey et al. 2024 section 3.3.2)
     */
    public int layersPerStage() {
        return (shape.layers() + pp - 1) / pp;
    }

    /** @return true for a mixture-of-experts model */
    public boolean isMoe() {
        return experts > 0;
    }

    /** @return ranks in an expert-data-parallel group, dp x cp / ep: the ranks that hold the same expert weights */
    public int expertDp() {
        return dp * cp / ep;
    }

    /** @return MoE layers in the model, L / moeEvery (0 for dense) */
    public int moeLayers() {
        return isMoe() ? moeLayers(shape, moeEvery) : 0;
    }

    /** @return MoE layers held by one pipeline stage */
    public int moeLayersPerStage() {
        return (moeLayers() + pp - 1) / pp;
    }

    /**
     * @return routed-expert weights in the whole model: MoE layers x experts x (gated ? 3 : 2) h d_ff,expert (0 for
     *         dense); shared experts (DeepSeek-V3) see every token and count as dense weights
     */
    public long expertParams() {
        return isMoe() ? expertParams(shape, experts, moeEvery) : 0;
    }

    /** @return weights every token goes through: dense weights (shared experts included) + MoE layers x topk x one expert */
    public long activeParams() {
        return shape.params() - expertParams() + (long) moeLayers() * topk * shape.ffn().expertWeights(shape.hidden());
    }

    /** @return ZeRO stage, 0 when none */
    public int zero() {
        return zeroStage;
    }

    /** @return a copy with another data-parallel degree (and the same global batch) */
    public TrainingJob withDp(int newDp) {
        return new TrainingJob(shape, gradBytes, paramBytes, actBytes, newDp, tp, pp, virtualStages, ep, experts, topk,
                moeEvery, capacityFactor, zeroStage, sequenceParallel, seqLen, microBatch, globalBatch,
                compute.kind() == ComputeRate.Kind.STEP_COMPUTE_MS
                        ? new ComputeRate(compute.kind(), compute.value() * dp / newDp, compute.precision()) : compute,
                recompute, overlap, cp);
    }

    /**
     * @param newTp        tensor-parallel degree
     * @param newPp        pipeline stages
     * @param newZero      ZeRO stage
     * @param newRecompute recomputation policy
     * @return a copy with that layout, the same dp and global batch
     * @throws IllegalArgumentException when the new layout breaks a rule
     */
    public TrainingJob withLayout(int newTp, int newPp, int newZero, Recompute newRecompute) {
        return withLayout(dp, newTp, newPp, newZero, sequenceParallel, newRecompute);
    }

    /**
     * @param newDp        data-parallel degree
     * @param newTp        tensor-parallel degree
     * @param newPp        pipeline stages
     * @param newZero      ZeRO stage
     * @param newSp        sequence parallelism on or off
     * @param newRecompute recomputation policy
     * @return a copy with that layout and the same global batch and compute rate
     * @throws IllegalArgumentException when the new layout breaks a rule
     */
    public TrainingJob withLayout(int newDp, int newTp, int newPp, int newZero, boolean newSp,
            Recompute newRecompute) {
        return new TrainingJob(shape, gradBytes, paramBytes, actBytes, newDp, newTp, newPp, virtualStages, ep,
                experts, topk, moeEvery, capacityFactor, newZero, newSp, seqLen, microBatch, globalBatch, compute,
                newRecompute, overlap, cp);
    }

    /** @return a one-line description: model, layout, batch */
    public String describe() {
        StringBuilder sb = new StringBuilder(shape.describe());
        sb.append(", dp=").append(dp).append(" tp=").append(tp).append(" pp=").append(pp);
        if (cp > 1) {
            sb.append(" cp=").append(cp);
        }
        if (virtualStages > 1) {
            sb.append(" v=").append(virtualStages);
        }
        if (isMoe()) {
            sb.append(" ep=").append(ep).append(", ").append(experts).append(" experts top-").append(topk);
        }
        if (zeroStage > 0) {
            sb.append(", ZeRO-").append(zeroStage);
        }
        if (sequenceParallel) {
            sb.append(", sequence parallel");
        }
        sb.append(gradBytes == 4 ? ", fp32" : gradBytes == 2 ? ", 16-bit" : ", " + gradBytes + "-byte")
                .append(" gradient reduction");
        if (recompute != Recompute.NONE) {
            sb.append(", ").append(recompute.label()).append(" recompute");
        }
        sb.append(", ").append(nGpus()).append(" GPUs, s=").append(seqLen).append(" b=").append(microBatch)
                .append(" G=").append(globalBatch);
        return sb.toString();
    }
}
