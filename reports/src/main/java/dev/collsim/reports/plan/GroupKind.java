package dev.collsim.reports.plan;

/** The process groups of a training job, as Megatron-LM and DeepSpeed name them. */
public enum GroupKind {
    /** Tensor parallel: {@code tp} ranks that split every layer's weights (Shoeybi et al. 2019). */
    TP,
    /** Context parallel: {@code cp} ranks holding chunks of the same sequences (ring attention). */
    CP,
    /** Pipeline parallel: two adjacent stages exchanging activations (Narayanan et al. 2021). */
    PP,
    /** Data parallel: {@code dp} replicas of the same shard. */
    DP,
    /** Expert parallel: {@code ep} ranks that hold different experts (Lepikhin et al. 2020). */
    EP,
    /** Expert-data parallel: {@code dp cp / ep} replicas of the same experts. */
    EDP
}
