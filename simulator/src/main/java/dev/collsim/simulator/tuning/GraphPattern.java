package dev.collsim.simulator.tuning;

/**
 * NCCL's search graph patterns (NCCL 2.30 {@code src/include/graph.h}: BALANCED_TREE 1, SPLIT_TREE 2, TREE 3,
 * RING 4, NVLS 5, COLLNET_DIRECT 6). The ordinal + 1 is NCCL's number.
 */
public enum GraphPattern {
    /** Balanced tree: NIC traffic split over two GPUs at half bandwidth each (NCCL 1). */
    BALANCED_TREE,
    /** Split tree (NCCL 2). */
    SPLIT_TREE,
    /** Plain tree (NCCL 3); Tree bandwidth is multiplied by 0.85 when any rank uses it. */
    TREE,
    /** Ring (NCCL 4). */
    RING,
    /** NVLink SHARP heads (NCCL 5). */
    NVLS,
    /** CollNet direct (NCCL 6). */
    COLLNET_DIRECT;

    /** @return NCCL's pattern number */
    public int ncclNumber() {
        return ordinal() + 1;
    }
}
