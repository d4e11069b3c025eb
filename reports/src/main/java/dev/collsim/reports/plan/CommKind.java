package dev.collsim.reports.plan;

import dev.collsim.nccl.Collective;

/**
 * The kinds of collective one training step issues, each with its NCCL collective, the group it spans and
 * whether frameworks overlap it with compute.
 *
 * <p>Overlap follows the frameworks' defaults: PyTorch DDP, Megatron-LM and DeepSpeed launch the data-parallel
 * gradient reduction while backward is still running, and ZeRO-3/FSDP prefetch parameter gathers; tensor-parallel
 * and expert-parallel collectives sit on the critical path of every layer (Shoeybi et al. 2019 section 3;
 * Lepikhin et al. 2020 section 3.2), and pipeline send/recv is counted as exposed (1F1B without p2p overlap).
 */
public enum CommKind {
    /** Data-parallel gradient AllReduce (no ZeRO): once per step, all gradients of the rank's shard. */
    DP_ALLREDUCE("DP gradient AllReduce", Collective.ALL_REDUCE, GroupKind.DP, true),
    /** ZeRO gradient ReduceScatter (Rajbhandari et al. 2020 section 5). */
    DP_REDUCE_SCATTER("ZeRO gradient ReduceScatter", Collective.REDUCE_SCATTER, GroupKind.DP, true),
    /** ZeRO parameter AllGather (Rajbhandari et al. 2020 sections 5 and 7). */
    DP_ALLGATHER("ZeRO parameter AllGather", Collective.ALL_GATHER, GroupKind.DP, true),
    /** Expert gradient AllReduce over the expert-data-parallel group. */
    EDP_ALLREDUCE("expert gradient AllReduce", Collective.ALL_REDUCE, GroupKind.EDP, true),
    /** Expert gradient ReduceScatter (ZeRO) over the expert-data-parallel group. */
    EDP_REDUCE_SCATTER("expert gradient ReduceScatter", Collective.REDUCE_SCATTER, GroupKind.EDP, true),
    /** Expert parameter AllGather (ZeRO) over the expert-data-parallel group. */
    EDP_ALLGATHER("expert parameter AllGather", Collective.ALL_GATHER, GroupKind.EDP, true),
    /**
     * Context-parallel K,V exchange (ring attention, Liu et al. 2023; Megatron-Core context parallelism): per layer
     * and micro-batch cp-1 ring steps forward and 2 (cp-1) backward (K,V again, then their gradients).
     */
    CP_SENDRECV("CP K,V ring send/recv", Collective.SEND_RECV, GroupKind.CP, false),
    /** Tensor-parallel activation AllReduce, 2 forward + 2 backward per layer (Shoeybi et al. 2019). */
    TP_ALLREDUCE("TP activation AllReduce", Collective.ALL_REDUCE, GroupKind.TP, false),
    /** Sequence-parallel ReduceScatter, 2 forward + 2 backward per layer (Korthikanti et al. 2022). */
    TP_REDUCE_SCATTER("SP activation ReduceScatter", Collective.REDUCE_SCATTER, GroupKind.TP, false),
    /** Sequence-parallel AllGather, 2 forward + 2 backward per layer (Korthikanti et al. 2022). */
    TP_ALLGATHER("SP activation AllGather", Collective.ALL_GATHER, GroupKind.TP, false),
    /** Pipeline send/recv of activations (forward) and their gradients (backward) (Narayanan et al. 2021). */
    PP_SENDRECV("PP activation send/recv", Collective.SEND_RECV, GroupKind.PP, false),
    /** Expert-parallel token AllToAll, dispatch + combine forward and backward (Lepikhin et al. 2020). */
    EP_ALLTOALL("EP token AllToAll", Collective.ALL_TO_ALL, GroupKind.EP, false);

    private final String label;
    private final Collective collective;
    private final GroupKind group;
    private final boolean overlappable;

    CommKind(String label, Collective collective, GroupKind group, boolean overlappable) {
        this.label = label;
        this.collective = collective;
        this.group = group;
        this.overlappable = overlappable;
    }

    /** @return plain-words name for tables */
    public String label() {
        return label;
    }

    /** @return the NCCL collective issued */
    public Collective collective() {
        return collective;
    }

    /** @return the group it spans */
    public GroupKind group() {
        return group;
    }

    /** @return true when frameworks overlap it with backward compute */
    public boolean overlappable() {
        return overlappable;
    }
}
