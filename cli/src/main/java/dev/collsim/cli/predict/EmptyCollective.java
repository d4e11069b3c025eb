package dev.collsim.cli.predict;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

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
     * 10.5 us at 32 bytes). No model of a launch fits that, so such sizes are left out of the prediction with a
     * header line naming them (nccl-tests' own -b 8 starts an all_gather sweep with such sizes), and a sweep of only
     * such sizes is refused (exit 2). The point-to-point collectives (alltoall, sendrecv, gather, scatter) still
     * launch at 0 bytes and are kept.
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
        if (c == Collective.ALL_TO_ALL || c == Collective.SEND_RECV || c == Collective.GATHER
                || c == Collective.SCATTER) {
            return sizes;
        }
        List<Long> empty = sizes.stream().filter(s -> CollGeometry.ofSize(c, s, type.size(), n).paramCount() == 0)
                .toList();
        if (empty.isEmpty()) {
            return sizes;
        }
        String what = String.format(Locale.ROOT, "%s %s of %s on %d ranks %s 0 %s elements per rank and NCCL discards an"
                + " empty collective (src/enqueue.cc), so nothing runs", empty.size() == 1 ? "size" : "sizes",
                empty.stream().map(String::valueOf).collect(Collectors.joining(", ")), c.testName(), n,
                empty.size() == 1 ? "is" : "are", type.testName());
        long min = smallest(c, type.size(), n);
        if (empty.size() == sizes.size()) {
            throw new UserError(what + "; use -b " + min + " or more", ExitCodes.USAGE);
        }
        notes.add(what + ": left out (the first size that runs: " + min + " bytes)");
        return sizes.stream().filter(s -> !empty.contains(s)).toList();
    }
}
