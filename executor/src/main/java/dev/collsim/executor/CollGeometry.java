package dev.collsim.executor;

import dev.collsim.nccl.Collective;

/**
 * Element counts and in-place offsets of one collective at one size, as nccl-tests 2.19.6 computes them
 * ({@code src/<coll>.cu GetCollByteCount}; per-rank counts of AllGather, ReduceScatter, AllToAll, Gather and
 * Scatter are rounded down to a multiple of 16 bytes).
 *
 * @param sendCount         elements in each rank's send buffer
 * @param recvCount         elements in each rank's receive buffer
 * @param paramCount        the count passed to NCCL (nccl-tests' {@code count} column)
 * @param sendInplaceOffset in-place: the send pointer is recvbuff + this many elements x rank
 * @param recvInplaceOffset in-place: the receive pointer is recvbuff + this many elements x rank
 */
public record CollGeometry(long sendCount, long recvCount, long paramCount, long sendInplaceOffset,
        long recvInplaceOffset) {

    /**
     * @param coll    the collective
     * @param count   size / element size (elements)
     * @param eltSize element size, bytes (1 gives the byte counts nccl-tests uses to size buffers)
     * @param nRanks  ranks, >= 1
     * @return the geometry
     */
    public static CollGeometry of(Collective coll, long count, int eltSize, int nRanks) {
        long align = ~(Math.max(1, 16 / eltSize) - 1L);
        long base = (count / nRanks) & align;
        return switch (coll) {
            case ALL_REDUCE, BROADCAST, REDUCE, SEND_RECV -> new CollGeometry(count, count, count, 0, 0);
            case ALL_GATHER -> new CollGeometry(base, base * nRanks, base, base, 0);
            case REDUCE_SCATTER -> new CollGeometry(base * nRanks, base, base, 0, base);
            case ALL_TO_ALL -> new CollGeometry(base * nRanks, base * nRanks, base, 0, 0);
            case GATHER -> new CollGeometry(base, base * nRanks, base, base, 0);
            case SCATTER -> new CollGeometry(base * nRanks, base, base, 0, base);
        };
    }

    /**
     * @param eltSize element size, bytes
     * @return the {@code size} column: max(send, recv) bytes (nccl-tests {@code TimeTest})
     */
    public long sizeBytes(int eltSize) {
        return Math.max(sendCount, recvCount) * eltSize;
    }

    /**
     * Bytes of the algbw numerator, nccl-tests 2.19.6 {@code src/<coll>.cu GetBw}: count x typesize for
     * AllReduce, Broadcast, Reduce, SendRecv; count x typesize x nRanks for AllGather, ReduceScatter, AllToAll,
     * Gather, Scatter.
     *
     * @param coll    the collective
     * @param eltSize element size, bytes
     * @param nRanks  ranks
     * @return bytes
     */
    public double algBytes(Collective coll, int eltSize, int nRanks) {
        double b = (double) paramCount * eltSize;
        return switch (coll) {
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, GATHER, SCATTER -> b * nRanks;
            default -> b;
        };
    }

    /**
     * algbw in GB/s (1e9 B/s) for a time per op.
     *
     * @param coll    the collective
     * @param eltSize element size, bytes
     * @param nRanks  ranks
     * @param seconds time per op, s
     * @return algbw, GB/s
     */
    public double algBw(Collective coll, int eltSize, int nRanks, double seconds) {
        return algBytes(coll, eltSize, nRanks) / 1.0e9 / seconds;
    }

    /**
     * busbw = algbw x {@link Collective#busBwFactor(int)} (nccl-tests 2.19.6 {@code doc/PERFORMANCE.md}).
     *
     * @param coll    the collective
     * @param eltSize element size, bytes
     * @param nRanks  ranks
     * @param seconds time per op, s
     * @return busbw, GB/s
     */
    public double busBw(Collective coll, int eltSize, int nRanks, double seconds) {
        return algBw(coll, eltSize, nRanks, seconds) * coll.busBwFactor(nRanks);
    }
}
