package dev.collsim.cli.predict;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.simulator.Prediction;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Sizes that run nothing in NCCL: 0 elements per rank for all_reduce, all_gather, reduce_scatter, broadcast and
 * reduce. NCCL discards an empty collective (2.19-2.30 src/enqueue.cc taskAppend, "Empty collectives can be
 * discarded"): no kernel, no choice of algorithm. nccl-tests still prints a row for such a size (src/common.cu
 * TimeTest: size and count 0 where its {@code GetCollByteCount} rounds the per-rank count to 0, e.g. -b 0, or an
 * all_gather below 16 bytes per rank) with algbw and busbw 0 and the time of its own host loop around the call. The
 * analytical backend prints that row with the time collsim charges every call outside NCCL's latency table,
 * {@code launchOverheadUs} (1.0 us by default), and says so in a header line; public runs measured 0.33 us
 * (validation/src/test/resources/data/A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt
 * lines 62-63), 0.47 us (executor/src/test/resources/nccl-tests/nccl-tests-all_gather-1gpu.txt, 1 H200) and 0.58-0.64
 * us (data/device/h200x2-2026-11-29/nccl-tests-all_gather.txt, 2 H200): a host figure collsim does not model. The flow
 * backends simulate data movement and leave such sizes out (a sweep of only such sizes is refused there). The
 * point-to-point collectives (alltoall, sendrecv, gather, scatter) still launch at 0 bytes and are predicted: NCCL
 * 2.28.9 src/enqueue.cc ncclEnqueueCheck hands Send and Recv to p2pTaskAppend before the "Empty collectives can be
 * discarded" test, and a 0-byte p2p posts one step of 0 bytes (addP2pToPlan: {@code bytes == 0} gives
 * {@code nsteps = 1}), a handshake with each peer; both backends say so in a header line ({@link #P2P_NOTE}).
 */
final class EmptyCollective {

    /** The bottleneck text of an empty call's row. */
    static final String NOTHING_RUNS = "empty call: NCCL discards it (src/enqueue.cc), nothing runs";

    /** The header line's reason for a 0-byte point-to-point row. */
    static final String P2P_NOTE = ": NCCL still runs a 0-byte send and receive with each peer (src/enqueue.cc: an"
            + " empty point-to-point call is not discarded; it posts one step of 0 bytes), so the row has a time;"
            + " algbw and busbw are 0, as nccl-tests prints them";

    private EmptyCollective() {
    }

    /**
     * @param c     the collective
     * @param type  the element type
     * @param sizes the sweep's sizes, bytes
     * @param n     ranks
     * @param notes receives one header line ({@link #P2P_NOTE}) when a point-to-point collective has a 0-byte size
     */
    private static void zeroP2p(Collective c, DataType type, List<Long> sizes, int n, List<String> notes) {
        List<Long> zero = sizes.stream().filter(s -> !empty(c, type, s, n)
                && CollGeometry.ofSize(c, s, type.size(), n).sizeBytes(type.size()) == 0).toList();
        if (!zero.isEmpty()) {
            notes.add(String.format(Locale.ROOT, "%s %s of %s on %d ranks %s 0 bytes", zero.size() == 1 ? "size"
                    : "sizes", zero.stream().map(String::valueOf).collect(Collectors.joining(", ")), c.testName(), n,
                    zero.size() == 1 ? "is" : "are") + P2P_NOTE);
        }
    }

    /**
     * @return the smallest size of at least one element per NCCL call: one element, or for all_gather and
     *         reduce_scatter one 16-byte-aligned block per rank (nccl-tests rounds the per-rank count down to 16 bytes)
     */
    private static long smallest(Collective c, int elt, int n) {
        return c == Collective.ALL_GATHER || c == Collective.REDUCE_SCATTER ? (long) n * Math.max(1, 16 / elt) * elt
                : elt;
    }

    /**
     * @param c    the collective
     * @param type the element type
     * @param size the requested size, bytes
     * @param n    ranks
     * @return true when NCCL runs nothing at this size (0 elements per rank, not a point-to-point collective)
     */
    static boolean empty(Collective c, DataType type, long size, int n) {
        return CollGeometry.discarded(c, size, type.size(), n);
    }

    /**
     * @param c          the collective
     * @param size       the requested size, bytes
     * @param n          ranks
     * @param overheadUs collsim's per-call overhead, microseconds ({@code launchOverheadUs})
     * @return the row of an empty call: that time, algbw and busbw 0, no algorithm, protocol or channel, no NCCL
     *         estimate (-1) and no link bound
     */
    static Prediction prediction(Collective c, long size, int n, double overheadUs) {
        return new Prediction(c, size, n, null, null, 0, overheadUs, 0, 0, -1, Double.POSITIVE_INFINITY,
                NOTHING_RUNS);
    }

    /** @return true for a row made by {@link #prediction} */
    static boolean isEmptyRow(Prediction p) {
        return NOTHING_RUNS.equals(p.bottleneck());
    }

    /**
     * The analytical backend's sizes: all of them, with one header line naming those that run nothing.
     *
     * @param c     the collective
     * @param type  the element type
     * @param sizes the sweep's sizes, bytes
     * @param n     ranks
     * @param notes receives one header line when some size runs nothing
     * @return the sizes
     */
    static List<Long> noted(Collective c, DataType type, List<Long> sizes, int n, List<String> notes) {
        zeroP2p(c, type, sizes, n, notes);
        List<Long> empty = sizes.stream().filter(s -> empty(c, type, s, n)).toList();
        if (!empty.isEmpty()) {
            notes.add(what(c, type, n, empty) + ": nccl-tests prints a row with algbw and busbw 0 and the time of its"
                    + " own host loop (0.33-0.64 us in public runs); collsim's row shows its per-call overhead"
                    + " (launchOverheadUs)");
        }
        return sizes;
    }

    private static String what(Collective c, DataType type, int n, List<Long> empty) {
        return String.format(Locale.ROOT, "%s %s of %s on %d ranks %s 0 %s elements per rank and NCCL discards an"
                + " empty collective (src/enqueue.cc), so nothing runs", empty.size() == 1 ? "size" : "sizes",
                empty.stream().map(String::valueOf).collect(Collectors.joining(", ")), c.testName(), n,
                empty.size() == 1 ? "is" : "are", type.testName());
    }

    /**
     * The flow backends' sizes: those that run, with a header line naming the others.
     *
     * @param c     the collective
     * @param type  the element type
     * @param sizes the sweep's sizes, bytes
     * @param n     ranks
     * @param notes receives one header line when sizes are left out
     * @return the sizes that run
     * @throws UserError (exit 2) when no size runs, naming the smallest size that does
     */
    static List<Long> runnable(Collective c, DataType type, List<Long> sizes, int n, List<String> notes) {
        zeroP2p(c, type, sizes, n, notes);
        List<Long> empty = sizes.stream().filter(s -> empty(c, type, s, n)).toList();
        if (empty.isEmpty()) {
            return sizes;
        }
        String what = what(c, type, n, empty);
        long min = smallest(c, type.size(), n);
        if (empty.size() == sizes.size()) {
            throw new UserError(what + "; the flow backends simulate data movement: use -b " + min
                    + " or more, or the analytical backend", ExitCodes.USAGE);
        }
        notes.add(what + ": left out (the first size that runs: " + min + " bytes)");
        return sizes.stream().filter(s -> !empty.contains(s)).toList();
    }
}
