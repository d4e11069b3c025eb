package dev.collsim.nccl;

/**
 * Element counts and in-place offsets of one collective at one size, as nccl-tests 2.19.6 computes them
 * ({@code src/<coll>.cu GetCollByteCount}, called from {@code src/common.cu setupArgs}; per-rank counts of
 * AllGather, ReduceScatter, AllToAll, Gather and Scatter are rounded down to a multiple of 16 bytes).
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
     * The geometry nccl-tests uses for a requested size ({@code -b}/{@code -e} sweep value): count = size /
     * element size, then {@link #of}.
     *
     * @param coll      the collective
     * @param sizeBytes the requested size, bytes, >= 0
     * @param eltSize   element size, bytes
     * @param nRanks    ranks, >= 1
     * @return the geometry
     */
    public static CollGeometry ofSize(Collective coll, long sizeBytes, int eltSize, int nRanks) {
        return of(coll, sizeBytes / eltSize, eltSize, nRanks);
    }

    /**
     * Whether NCCL runs nothing for this call: 0 elements per rank of a collective that is not point-to-point. NCCL
     * 2.19-2.30 {@code src/enqueue.cc taskAppend} discards it ("Empty collectives can be discarded": no kernel, no
     * algorithm); point-to-point calls (alltoall, sendrecv, gather, scatter) still post one 0-byte step with each peer.
     *
     * @param coll      the collective
     * @param sizeBytes the nccl-tests size, bytes
     * @param eltSize   element size, bytes
     * @param nRanks    ranks
     * @return true when the call is discarded
     */
    public static boolean discarded(Collective coll, long sizeBytes, int eltSize, int nRanks) {
        return !(coll == Collective.ALL_TO_ALL || coll == Collective.SEND_RECV || coll == Collective.GATHER
                || coll == Collective.SCATTER) && ofSize(coll, sizeBytes, eltSize, nRanks).paramCount() == 0;
    }

    /**
     * @param eltSize element size, bytes
     * @return the {@code size} column: max(send, recv) bytes (nccl-tests {@code TimeTest}); for every collective
     *         this equals the algbw numerator {@link BusBandwidth#algBytes}
     */
    public long sizeBytes(int eltSize) {
        return Math.max(sendCount, recvCount) * eltSize;
    }
}
