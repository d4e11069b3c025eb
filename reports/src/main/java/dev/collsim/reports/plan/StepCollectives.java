package dev.collsim.reports.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Derives every collective one optimizer step of a {@link TrainingJob} issues on each GPU, with the standard
 * formulas of the papers that define each kind of parallelism. Symbols: b micro-batch, s sequence length,
 * h hidden size, L layers, m = G / (b dp) micro-batches, v virtual stages, Psi the parameters a rank holds.
 *
 * <ul>
 *   <li><b>Tensor parallel</b> (Shoeybi et al. 2019, "Megatron-LM", section 3 and Fig. 4): every transformer
 *       layer does two AllReduce of the b x s x h activations in forward (after attention and after the MLP)
 *       and two in backward: {@code 4 L/pp m} calls of {@code b s h actBytes}.</li>
 *   <li><b>Sequence parallel</b> (Korthikanti et al. 2022, "Reducing Activation Recomputation", section 4.2.2):
 *       each AllReduce becomes a ReduceScatter plus an AllGather of the same tensor: {@code 4 L/pp m} of
 *       each.</li>
 *   <li><b>Pipeline parallel</b> (Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU
 *       Clusters", sections 2.2 and 4.1): per micro-batch each stage sends its b x s x h output activations
 *       forward and receives/sends their gradients backward; with tensor parallelism the scatter/gather
 *       optimization sends {@code 1/tp} of it per rank; interleaving multiplies the count by v:
 *       {@code 2 m v} calls of {@code b s h actBytes / tp}.</li>
 *   <li><b>Data parallel</b>: one AllReduce per step of the gradients of the rank's shard,
 *       {@code Psi = params / (tp pp)} elements of {@code gradBytes}. With ZeRO (Rajbhandari et al. 2020,
 *       sections 5 and 7.2): stages 1 and 2 replace it with a ReduceScatter of the gradients plus an AllGather of
 *       the updated parameters (same 2 Psi volume); stage 3 (and FSDP full sharding) gathers parameters in
 *       forward and again in backward and reduce-scatters gradients, layer by layer, each micro-batch (3 Psi
 *       volume per micro-batch).</li>
 *   <li><b>Expert parallel</b> (Lepikhin et al. 2020, "GShard", section 3.2; Fedus et al. 2021, "Switch
 *       Transformers", section 2.1): every MoE layer does one AllToAll to dispatch tokens to experts and one to
 *       combine them, in forward and again in backward: {@code 4 (L/moeEvery)/pp m} calls; each rank sends
 *       its tokens x topk x capacityFactor x h activations. Expert weights ({@code (gated ? 3 : 2) h d_ff} per expert,
 *       d_ff = 4h by default) are reduced over the {@code dp cp / ep} expert-data-parallel group instead of the DP group.
 *       Tokens per rank are {@code b s / cp} (and / tp with sequence parallelism).</li>
 *   <li><b>Context parallel</b> (ring attention, Liu et al. 2023; Megatron-Core context parallelism): each rank
 *       holds s/cp tokens, so every activation size above uses s/cp; per layer and micro-batch the K,V chunk
 *       ({@code 2 b (s/cp) h_kv actBytes / tp}, h_kv = KV heads x head size) goes cp-1 steps round the ring forward
 *       and, in backward, K,V again and their gradients: {@code 3 (cp-1) L/pp m} send/recv calls; gradients are
 *       reduced over the dp x cp ranks that hold the same weights. Counted as exposed (the overlap with the
 *       attention of the previous chunk is left out).</li>
 * </ul>
 * Left out: activation recomputation's extra forward collectives, embedding-gradient AllReduce between first and
 * last stage, optimizer-state traffic, bucketing of the gradient reduction into several calls, and MoE
 * load imbalance. This class holds no state.
 */
public final class StepCollectives {

    private StepCollectives() {
    }

    /**
     * @param job the job
     * @return the collectives of one step, in framework order (TP, PP, EP, DP), kinds with no call omitted
     */
    public static List<CommOp> derive(TrainingJob job) {
        List<CommOp> ops = new ArrayList<>();
        long b = job.microBatch();
        long s = job.seqPerRank();
        long h = job.shape().hidden();
        long m = job.microBatches();
        long lps = job.layersPerStage();
        long activation = b * s * h * job.actBytes();
        String mText = m + " micro-batch" + (m == 1 ? "" : "es");
        if (job.tp() > 1) {
            long calls = 4 * lps * m;
            String f = "4 per layer x " + lps + " layers x " + mText + "; b*s*h*" + job.actBytes() + " B";
            if (job.sequenceParallel()) {
                ops.add(new CommOp(CommKind.TP_REDUCE_SCATTER, activation, calls, f));
                ops.add(new CommOp(CommKind.TP_ALLGATHER, activation, calls, f));
            } else {
                ops.add(new CommOp(CommKind.TP_ALLREDUCE, activation, calls, f));
            }
        }
        if (job.cp() > 1) {
            long kv = 2L * b * s * job.shape().kvHidden() * job.actBytes() / job.tp();
            long calls = 3L * (job.cp() - 1) * lps * m;
            ops.add(new CommOp(CommKind.CP_SENDRECV, kv, calls, "3 (cp-1) ring steps per layer x " + lps + " layers x "
                    + mText + "; K and V: 2*b*s/cp*h_kv*" + job.actBytes() + " B / tp"));
        }
        if (job.pp() > 1) {
            long calls = 2 * m * job.virtualStages();
            String f = "fwd + bwd x " + mText + (job.virtualStages() > 1 ? " x " + job.virtualStages()
                    + " virtual stages" : "") + "; b*s*h*" + job.actBytes() + " B" + (job.tp() > 1 ? " / tp" : "");
            ops.add(new CommOp(CommKind.PP_SENDRECV, activation / job.tp(), calls, f));
        }
        if (job.isMoe() && job.ep() > 1 && job.moeLayersPerStage() > 0) {
            long tokens = job.sequenceParallel() ? b * s / job.tp() : b * s;
            long size = (long) Math.ceil(tokens * job.topk() * job.capacityFactor()) * h * job.actBytes();
            long calls = 4L * job.moeLayersPerStage() * m;
            ops.add(new CommOp(CommKind.EP_ALLTOALL, size, calls, "dispatch + combine, fwd + bwd x "
                    + job.moeLayersPerStage() + " MoE layers x " + mText + "; tokens*topk*cf*h*" + job.actBytes()
                    + " B"));
        }
        long shards = (long) job.tp() * job.pp();
        long denseParams = (job.shape().params() - job.expertParams()) / shards;
        addDataParallel(ops, job, denseParams, job.dp() * job.cp(), false);
        if (job.isMoe()) {
            long expertParams = job.expertParams() / (shards * job.ep());
            addDataParallel(ops, job, expertParams, job.expertDp(), true);
        }
        return List.copyOf(ops);
    }

    private static void addDataParallel(List<CommOp> ops, TrainingJob job, long params, int groupSize,
            boolean expert) {
        if (groupSize <= 1 || params <= 0) {
            return;
        }
        long grads = params * job.gradBytes();
        long weights = params * job.paramBytes();
        String psi = (expert ? "expert " : "") + "Psi=" + ModelShape.formatParams(params) + " params/rank";
        switch (job.zero()) {
            case 0 -> ops.add(new CommOp(expert ? CommKind.EDP_ALLREDUCE : CommKind.DP_ALLREDUCE, grads, 1,
                    "once per step; " + psi + " x " + job.gradBytes() + " B"));
            case 1, 2 -> {
                ops.add(new CommOp(expert ? CommKind.EDP_REDUCE_SCATTER : CommKind.DP_REDUCE_SCATTER, grads, 1,
                        "once per step; " + psi + " x " + job.gradBytes() + " B"));
                ops.add(new CommOp(expert ? CommKind.EDP_ALLGATHER : CommKind.DP_ALLGATHER, weights, 1,
                        "once per step; " + psi + " x " + job.paramBytes() + " B"));
            }
            default -> {
                long lps = job.layersPerStage();
                long m = job.microBatches();
                ops.add(new CommOp(expert ? CommKind.EDP_REDUCE_SCATTER : CommKind.DP_REDUCE_SCATTER,
                        grads / lps, lps * m, "per layer x " + lps + " layers x " + m + " micro-batches; "
                        + psi + " x " + job.gradBytes() + " B / layers"));
                ops.add(new CommOp(expert ? CommKind.EDP_ALLGATHER : CommKind.DP_ALLGATHER, weights / lps,
                        2 * lps * m, "fwd + bwd per layer x " + lps + " layers x " + m + " micro-batches; " + psi
                        + " x " + job.paramBytes() + " B / layers"));
            }
        }
    }
}
