package dev.collsim.cli.predict;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import java.util.List;
import java.util.Locale;

/** Sizes that run nothing in NCCL, refused by predict before any model runs. */
final class EmptyCollective {

    private EmptyCollective() {
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
     * A size of 0 elements runs nothing for all_reduce, all_gather, reduce_scatter, broadcast and reduce: NCCL discards
     * an empty collective (2.19-2.30 src/enqueue.cc taskAppend, "Empty collectives can be discarded"), and nccl-tests
     * then times only its own timer (0.33 us for a 0-byte all_gather on 2 RTX 2080 Ti in the public data, against
     * 10.5 us at 32 bytes). No model of a launch fits that, so such a size is refused (exit 2) instead of printed with
     * a launch's time. The point-to-point collectives (alltoall, sendrecv, gather, scatter) still launch at 0 bytes.
     *
     * @param c     the collective
     * @param type  the element type
     * @param sizes the sweep's sizes, bytes
     * @param n     ranks
     * @throws UserError (exit 2) at the first size of 0 elements, naming the smallest size that runs
     */
    static void refuse(Collective c, DataType type, List<Long> sizes, int n) {
        if (c == Collective.ALL_TO_ALL || c == Collective.SEND_RECV || c == Collective.GATHER
                || c == Collective.SCATTER) {
            return;
        }
        for (long s : sizes) {
            if (CollGeometry.ofSize(c, s, type.size(), n).paramCount() == 0) {
                throw new UserError(String.format(Locale.ROOT, "-b %d: a size of %d bytes is 0 %s elements of %s on"
                        + " %d ranks, and NCCL discards an empty collective (src/enqueue.cc), so nothing runs to"
                        + " predict; use -b %d or more", s, s, type.testName(), c.testName(), n,
                        smallest(c, type.size(), n)), ExitCodes.USAGE);
            }
        }
    }
}
