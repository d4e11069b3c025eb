package dev.collsim.reports.plan;

import dev.collsim.hardware.Precision;
import java.util.Locale;

/**
 * Collects a job's settings with collsim's defaults, shared by {@code collsim plan} and report specs; not
 * thread-safe. Defaults: fp32 gradient reduction (Megatron-LM), 2-byte parameters and activations (bf16 mixed precision), dp = tp = pp = 1,
 * no interleaving, dense (ep = 1), top-2 routing with capacity factor 1 on every layer when experts are given,
 * no ZeRO, no sequence parallelism, s = 2048, b = 1, G = dp x b x (pp > 1 ? 4 pp : 1) (enough micro-batches to keep
 * the 1F1B bubble at (pp-1)/(4 pp), Narayanan et al. 2021 section 2.2.1), selective recomputation (what Megatron-Core with FlashAttention or Transformer Engine's fused attention
 * does: the s x s attention scores are recomputed in backward, never stored), kernel efficiency 0.4
 * when none of step compute time, MFU and kernel efficiency is given, BF16 peak, overlap 1 (Megatron-LM's
 * overlapped gradient reduction and parameter gather).
 */
public final class JobBuilder {

    /**
     * Default compute-only (kernel) efficiency when no compute rate is given: collsim's assumption, not a
     * measurement. For scale: Narayanan et al. 2021, Table 1, reach 44 to 52 % of A100 peak end to end in
     * hardware FLOPs (bubble and communication included), so their kernels alone ran faster than that.
     */
    public static final double DEFAULT_KERNEL_EFFICIENCY = 0.4;

    /** Model preset name ({@link ModelPreset}), or null. */
    public String model;
    /** Parameter count, e.g. 70B. */
    public String params;
    /** Dense MLP width d_ff, 0 = 4 h. */
    public int ffnHidden;
    /** Gated (SwiGLU) MLP. */
    public boolean gated;
    /** Routed expert width, 0 = the dense width. */
    public int moeFfnHidden;
    /** Leading dense layers before MoE layers begin. */
    public int firstDenseLayers;
    /** Hidden size, 0 = derive. */
    public int hidden;
    /** Layers, 0 = derive. */
    public int layers;
    /**
     * Gradient reduction and buffer type: fp32 by default, as Megatron-LM's {@code accumulate_allreduce_grads_in_fp32}
     * (on by default for bf16 training); bf16 or fp16 for 2 bytes.
     */
    public String gradReduceDtype = "fp32";
    /** Number format of the peak FLOP/s: bf16 (default) or fp8. */
    public String computePrecision = "bf16";
    /** Parameter element bytes. */
    public int paramBytes = 2;
    /** Activation element bytes. */
    public int actBytes = 2;
    /** Data-parallel degree. */
    public int dp = 1;
    /** Tensor-parallel degree. */
    public int tp = 1;
    /** Pipeline-parallel degree. */
    public int pp = 1;
    /** Context-parallel degree. */
    public int cp = 1;
    /** Virtual stages per GPU. */
    public int virtualStages = 1;
    /** Expert-parallel degree. */
    public int ep = 1;
    /** Experts per MoE layer. */
    public int experts;
    /** Routing top-k, null = the preset's, else 2. */
    public Integer topk;
    /** MoE layer period. */
    public int moeEvery = 1;
    /** Capacity factor. */
    public double capacityFactor = 1.0;
    /** ZeRO stage. */
    public int zero;
    /** FSDP full sharding (= ZeRO-3). */
    public boolean fsdp;
    /** Sequence parallelism. */
    public boolean sequenceParallel;
    /** Sequence length. */
    public int seqLen = 2048;
    /** Micro-batch. */
    public int microBatch = 1;
    /** Global batch, 0 = default. */
    public int globalBatch;
    /** Compute ms per step, NaN = from MFU. */
    public double stepComputeMs = Double.NaN;
    /** End-to-end MFU, NaN = not given. */
    public double mfu = Double.NaN;
    /** Kernel (compute-only) efficiency, NaN = not given. */
    public double kernelEfficiency = Double.NaN;
    /** Activation recomputation. */
    public Recompute recompute = Recompute.SELECTIVE;
    /**
     * Overlap fraction: 1 by default, as Megatron-LM schedules it with {@code --overlap-grad-reduce} and
     * {@code --overlap-param-gather} (gradient reduction behind backward, parameter gather behind the next forward).
     */
    public double overlap = 1.0;

    /**
     * The default data-parallel degree, the one rule for {@code collsim plan} without {@code --dp} and a report spec's
     * plan without {@code dp}: fill the cluster, {@code floor(gpus / (tp x pp x cp))}, at least 1 (a tp x pp x cp
     * larger than the cluster, or a cluster that could not be read, gives 1; the job's own checks then name what does
     * not fit). It reads this builder's {@code tp}, {@code pp} and {@code cp}, so set those first; a degree below 1
     * counts as 1 here (the job refuses it). The global batch does not bound it: the default G follows dp
     * ({@code dp x b x (pp > 1 ? 4 pp : 1)}), and a given G that {@code b x dp} does not divide is refused by
     * {@link TrainingJob} naming both options.
     *
     * @param gpus the GPUs of the cluster the job fills; 0 when unknown
     * @return the data-parallel degree, e.g. 1 for 32 GPUs at tp 8, pp 3 (floor(32 / 24))
     */
    public int clusterFillingDp(int gpus) {
        return clusterFillingDp(gpus, tp * pp * Math.max(1, cp));
    }

    /**
     * The division behind {@link #clusterFillingDp(int)}, its one home: how many replicas of {@code tp x pp x cp}
     * GPUs fit the cluster, also the bound {@code GroupPlacement.idleGpus} names.
     *
     * @param gpus        the GPUs of the cluster; 0 when unknown
     * @param replicaGpus GPUs of one data-parallel replica, {@code tp x pp x cp} (below 1 counts as 1)
     * @return {@code floor(gpus / replicaGpus)}, at least 1, e.g. 1 for 32 GPUs and replicas of 24
     */
    public static int clusterFillingDp(int gpus, int replicaGpus) {
        return Math.max(1, gpus / Math.max(1, replicaGpus));
    }

    /**
     * @return the job
     * @throws IllegalArgumentException when a setting is invalid (the message names the option and allowed values)
     */
    public TrainingJob build() {
        if (fsdp && zero != 0 && zero != 3) {
            throw new IllegalArgumentException("--fsdp is ZeRO stage 3; it cannot be combined with --zero " + zero);
        }
        ModelShape shape;
        int nExperts = experts;
        int k = topk == null ? 2 : topk;
        if (model != null) {
            if (params != null || hidden > 0 || layers > 0 || experts > 0 || ffnHidden > 0 || moeFfnHidden > 0) {
                throw new IllegalArgumentException("--model " + model + " sets the shape and the experts; drop"
                        + " --params, --hidden, --layers, --experts, --ffn-hidden and --moe-ffn-hidden");
            }
            ModelPreset preset = ModelPreset.find(model).orElseThrow(() -> new IllegalArgumentException("--model: '"
                    + model + "' is not a preset; allowed: " + ModelPreset.names()));
            shape = preset.shape();
            nExperts = preset.experts();
            k = topk == null ? preset.topk() : topk;
        } else {
            if (params == null || params.isBlank()) {
                throw new IllegalArgumentException("--params or --model is required, e.g. --params 70B or --model"
                        + " llama3-70b");
            }
            shape = ModelShape.of(ModelShape.parseParams(params), Math.max(0, hidden), Math.max(0, layers));
            if (ffnHidden > 0 || gated || moeFfnHidden > 0 || firstDenseLayers > 0) {
                int dff = ffnHidden > 0 ? ffnHidden : 4 * shape.hidden();
                shape = shape.withFfn(new ModelShape.Ffn(dff, gated, moeFfnHidden > 0 ? moeFfnHidden : dff,
                        firstDenseLayers));
            }
        }
        int g = globalBatch > 0 ? globalBatch : dp * microBatch * (pp > 1 ? 4 * pp : 1);
        return new TrainingJob(shape, bytesOf(gradReduceDtype), paramBytes, actBytes, dp, tp, pp, virtualStages, ep,
                nExperts, nExperts > 0 ? k : 0, moeEvery, capacityFactor, fsdp ? 3 : zero, sequenceParallel, seqLen,
                microBatch, g, computeRate().withPrecision(precisionOf(computePrecision)), recompute, overlap, cp);
    }

    /**
     * @param dtype fp32/float32/float, bf16/bfloat16, fp16/float16/half (case-insensitive)
     * @return bytes per element
     * @throws IllegalArgumentException naming the allowed values
     */
    static int bytesOf(String dtype) {
        return switch (dtype == null ? "" : dtype.trim().toLowerCase(Locale.ROOT)) {
            case "fp32", "float32", "float" -> 4;
            case "bf16", "bfloat16", "fp16", "float16", "half" -> 2;
            default -> throw new IllegalArgumentException("--grad-reduce-dtype: '" + dtype + "' is not allowed;"
                    + " allowed: fp32, bf16, fp16");
        };
    }

    private static Precision precisionOf(String text) {
        return switch (text == null ? "" : text.trim().toLowerCase(Locale.ROOT)) {
            case "bf16", "bfloat16" -> Precision.BF16;
            case "fp8" -> Precision.FP8;
            default -> throw new IllegalArgumentException("--compute-precision: '" + text + "' is not allowed;"
                    + " allowed: bf16, fp8");
        };
    }

    private ComputeRate computeRate() {
        int given = (Double.isNaN(stepComputeMs) ? 0 : 1) + (Double.isNaN(mfu) ? 0 : 1)
                + (Double.isNaN(kernelEfficiency) ? 0 : 1);
        if (given > 1) {
            throw new IllegalArgumentException("give at most one of --step-compute-ms, --mfu (end-to-end model FLOPs"
                    + " utilisation) and --kernel-efficiency (compute-only efficiency)");
        }
        if (!Double.isNaN(stepComputeMs)) {
            return ComputeRate.stepComputeMs(stepComputeMs);
        }
        if (!Double.isNaN(mfu)) {
            return ComputeRate.mfu(mfu);
        }
        return ComputeRate.kernelEfficiency(Double.isNaN(kernelEfficiency) ? DEFAULT_KERNEL_EFFICIENCY
                : kernelEfficiency);
    }
}
