package dev.collsim.topology;

/**
 * NCCL's search graph patterns (NCCL 2.30 {@code src/include/graph.h} {@code NCCL_TOPO_PATTERN_*}: BALANCED_TREE 1,
 * SPLIT_TREE 2, TREE 3, RING 4, NVLS 5, COLLNET_DIRECT 6). The ordinal + 1 is NCCL's number. The one home of the
 * pattern: the channel search writes it, NCCL's graph XML dumps carry it ({@code pattern="4"}).
 */
public enum GraphPattern {
    /** Balanced tree: NIC traffic split over two GPUs at half bandwidth each (NCCL 1). */
    BALANCED_TREE,
    /** Split tree: send and receive on different GPUs (NCCL 2). */
    SPLIT_TREE,
    /** Plain tree (NCCL 3); Tree bandwidth is multiplied by 0.85 when any rank uses it. */
    TREE,
    /** Ring (NCCL 4). */
    RING,
    /** NVLink SHARP heads (NCCL 5). */
    NVLS,
    /** CollNet direct (NCCL 6). */
    COLLNET_DIRECT;

    /** @return NCCL's pattern number (1..6) */
    public int ncclNumber() {
        return ordinal() + 1;
    }

    /**
     * @param ncclNumber NCCL's pattern number, as a graph dump's {@code pattern} attribute writes it
     * @return the pattern with that number, or null when none has it
     */
    public static GraphPattern ofNcclNumber(int ncclNumber) {
        GraphPattern[] all = values();
        return ncclNumber >= 1 && ncclNumber <= all.length ? all[ncclNumber - 1] : null;
    }
}
