package dev.collsim.reports.plan;

import java.util.List;

/**
 * Memory per GPU of a training job: weights, gradients, optimizer state and activations. This class holds no state.
 *
 * <ul>
 *   <li><b>Model states</b> (Rajbhandari et al. 2020, "ZeRO", section 3.1): mixed-precision Adam keeps per parameter
 *       {@code paramBytes} weights (2, bf16), {@code gradBytes} gradients (2, or 4 with Megatron-LM's fp32 gradient
 *       accumulation) and K = 12 bytes of optimizer state (fp32 master weights, momentum, variance; 8 when the
 *       weights are already fp32): the paper's 2 + 2 + 12 = 16 bytes. A GPU holds {@code Psi = dense params / (tp pp)
 *       + expert params / (tp pp ep)}. ZeRO stage 1 divides the optimizer state by the data-parallel degree, stage 2
 *       also the gradients, stage 3 (FSDP) also the weights (section 5.1), over the {@code dp x cp} ranks that hold
 *       the same weights; expert weights divide by their own data-parallel degree {@code dp cp / ep}.</li>
 *   <li><b>Activations per layer and micro-batch</b> ({@link LayerActivations}): Korthikanti et al. 2022, Table 2 for
 *       a GPT-style layer (GELU MLP of 4h, multi-head attention, dropout); for a Llama-style layer (SwiGLU MLP,
 *       grouped-query attention, FlashAttention, no dropout) the tensors backward reads, counted one by one. With
 *       context parallelism each rank holds s/cp tokens: s becomes s/cp.</li>
 *   <li><b>In flight</b> (Korthikanti et al. 2022 section 4.2.3): with 1F1B the first stage holds the activations of
 *       {@code min(pp, m)} micro-batches for its L/pp layers; the interleaved schedule multiplies that by
 *       {@code 1 + (pp - 1)/(pp v)}.</li>
 * </ul>
 * Left out: embedding and output-layer activations, CUDA context and NCCL buffers, allocator fragmentation, MoE
 * routing buffers; MoE layers are sized as dense ones.
 */
public final class MemoryModel {

    private MemoryModel() {
    }

    /**
     * The plan without knowing the NVLink domain: suggestions never grow tp ({@link #of(TrainingJob, double, int)}).
     *
     * @param job           the job
     * @param capacityBytes the GPU's memory, or NaN when unknown
     * @return the memory plan, with suggestions when it does not fit
     */
    public static MemoryPlan of(TrainingJob job, double capacityBytes) {
        return of(job, capacityBytes, job.tp());
    }

    /**
     * @param job              the job
     * @param capacityBytes    the GPU's memory, or NaN when unknown
     * @param nvlinkDomainGpus GPUs of one NVLink domain (GPUs per host unless hosts share NVLink switches): a
     *                         suggested tp divides it
     * @return the memory plan, with suggestions ({@link MemoryFixes}: same GPU count) when it does not fit
     */
    public static MemoryPlan of(TrainingJob job, double capacityBytes, int nvlinkDomainGpus) {
        MemoryPlan plain = need(job, capacityBytes, List.of());
        if (plain.fits()) {
            return plain;
        }
        return need(job, capacityBytes, MemoryFixes.of(job, capacityBytes, nvlinkDomainGpus));
    }

    static MemoryPlan need(TrainingJob job, double capacity, List<String> suggestions) {
        double shards = (double) job.tp() * job.pp();
        double dense = (job.shape().params() - job.expertParams()) / shards;
        double expert = job.expertParams() / (shards * job.ep());
        int edp = job.expertDp();
        int dp = job.dp() * job.cp();
        int z = job.zero();
        double optBytes = job.paramBytes() >= 4 ? 8 : 12;
        double weights = job.paramBytes() * (dense / (z >= 3 ? dp : 1) + expert / (z >= 3 ? edp : 1));
        double grads = job.gradBytes() * (dense / (z >= 2 ? dp : 1) + expert / (z >= 2 ? edp : 1));
        double opt = optBytes * (dense / (z >= 1 ? dp : 1) + expert / (z >= 1 ? edp : 1));
        double perLayer = activationsPerLayer(job);
        double inFlight = Math.min(job.pp(), job.microBatches());
        if (job.virtualStages() > 1) {
            inFlight = job.pp() * (1 + (job.pp() - 1.0) / (job.pp() * job.virtualStages()));
        }
        double acts = perLayer * job.layersPerStage() * inFlight;
        return new MemoryPlan(weights, grads, opt, acts, perLayer, inFlight, capacity, suggestions);
    }

    /**
     * @param job the job
     * @return activation bytes of one layer for one micro-batch ({@link LayerActivations#bytes})
     */
    public static double activationsPerLayer(TrainingJob job) {
        return LayerActivations.bytes(job);
    }
}
