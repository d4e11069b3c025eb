package dev.collsim.executor;

import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import java.util.ArrayList;
import java.util.List;

/**
 * Where each rank's input goes and what each rank's output must hold, for the data check.
 *
 * <p>The send buffer of rank r holds {@link Verifiable#input}(r, j) for j = 0..sendCount-1. Outputs follow
 * NCCL's definition of each collective (NCCL 2.28 {@code nccl.h}): AllReduce and the root of Reduce hold the
 * reduction; Broadcast the root's input; AllGather and the root of Gather rank p's input at p x count;
 * ReduceScatter on rank q the reduction of elements q x count ..; AllToAll on rank q, at p x count, rank p's
 * elements q x count ..; Scatter on rank q the root's elements q x count ..; SendRecv (ring, as nccl-tests)
 * rank q-1's input.
 */
public final class DataLayout {

    /** Source rank value that stands for "the reduction over all ranks". */
    public static final int REDUCED = -1;

    /**
     * A run of elements of a buffer and what it holds.
     *
     * @param offset  first element, relative to the buffer pointer
     * @param count   elements
     * @param srcRank whose input it holds, or {@link #REDUCED}
     * @param phase   index in the source's input sequence of the first element
     */
    public record Segment(long offset, long count, int srcRank, long phase) {
    }

    private DataLayout() {
    }

    /**
     * @param coll the collective
     * @param g    its geometry
     * @param rank the rank
     * @return the send buffer's content
     */
    public static List<Segment> input(Collective coll, CollGeometry g, int rank) {
        return List.of(new Segment(0, g.sendCount(), rank, 0));
    }

    /**
     * @param coll   the collective
     * @param g      its geometry
     * @param nRanks ranks
     * @param rank   the rank checked
     * @param root   the root (rooted collectives)
     * @return the segments of the receive buffer to check; empty when the rank receives nothing
     */
    public static List<Segment> expected(Collective coll, CollGeometry g, int nRanks, int rank, int root) {
        long c = g.paramCount();
        List<Segment> out = new ArrayList<>();
        switch (coll) {
            case ALL_REDUCE -> out.add(new Segment(0, c, REDUCED, 0));
            case REDUCE -> {
                if (rank == root) {
                    out.add(new Segment(0, c, REDUCED, 0));
                }
            }
            case BROADCAST -> out.add(new Segment(0, c, root, 0));
            case ALL_GATHER -> {
                for (int p = 0; p < nRanks; p++) {
                    out.add(new Segment(p * c, c, p, 0));
                }
            }
            case REDUCE_SCATTER -> out.add(new Segment(0, c, REDUCED, rank * c));
            case ALL_TO_ALL -> {
                for (int p = 0; p < nRanks; p++) {
                    out.add(new Segment(p * c, c, p, rank * c));
                }
            }
            case SEND_RECV -> out.add(new Segment(0, c, Math.floorMod(rank - 1, nRanks), 0));
            case GATHER -> {
                if (rank == root) {
                    for (int p = 0; p < nRanks; p++) {
                        out.add(new Segment(p * c, c, p, 0));
                    }
                }
            }
            case SCATTER -> out.add(new Segment(0, c, root, rank * c));
        }
        return out;
    }

    /**
     * nccl-tests reports in-place errors for every collective but AllToAll and SendRecv (nccl-tests 2.19.6
     * {@code src/alltoall.cu}, {@code src/sendrecv.cu}: {@code reportErrors = in_place ? 0 : 1}).
     *
     * @param coll    the collective
     * @param inPlace true for the in-place half
     * @return true when #wrong is reported (else N/A)
     */
    public static boolean reportsErrors(Collective coll, boolean inPlace) {
        return !(inPlace && (coll == Collective.ALL_TO_ALL || coll == Collective.SEND_RECV));
    }
}
