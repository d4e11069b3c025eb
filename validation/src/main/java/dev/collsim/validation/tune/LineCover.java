package dev.collsim.validation.tune;

import dev.collsim.nccl.Collective;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Turns the swept points of one collective into contiguous lines of the tuner plugin's file that cover every byte
 * count from the first swept size to the last, because NCCL's example tuner plugin gives a call that matches no line
 * one channel: its {@code pluginGetCollInfo} sets {@code *nChannels = 1} before looking for a line and leaves it so
 * when none matches (and when a matching line says {@code -1}), and NCCL uses any non-zero count in place of its own
 * ({@code ncclGetAlgoInfo}: {@code nMaxChannels == 0 ? own : plugin's}). Read in NCCL 2.30.7
 * {@code plugins/tuner/example/plugin.c} and {@code src/enqueue.cc}; the same in 2.27.5 and 2.28.x
 * ({@code ext-tuner/example/plugin.c}). Where no change is advised a line restates NCCL's own choice with channels
 * {@code 0}, which NCCL reads as its own count.
 *
 * <p>Between two swept sizes whose lines differ, the first size with the next line's target is found by bisection
 * on the nccl-tests size ({@code probe}); a size in between whose target is neither is split again, so every switch
 * between the two sizes whose target differs from its neighbours' is found. NCCL's costs are linear in bytes between
 * the tree correction's power-of-two steps, so a choice cannot leave and come back between two sizes a factor of 2
 * apart on those steps (the default sweep); a coarser sweep can miss such a detour. Stateless.
 */
final class LineCover {

    private LineCover() {
    }

    /**
     * @param points the points of one collective, increasing size, at least one
     * @param probe  the point at another nccl-tests size, bytes (same communicator, parameters and band)
     * @return the lines, increasing bytes, contiguous from the first point's bytes to the last's
     */
    static List<ConfigLine> of(List<TunePoint> points, LongFunction<TunePoint> probe) {
        Collective c = points.get(0).collective();
        List<ConfigLine> out = new ArrayList<>();
        TunePoint first = points.get(0);
        long start = first.bytes();
        boolean advised = first.recommended();
        for (int i = 1; i < points.size(); i++) {
            TunePoint lo = points.get(i - 1);
            TunePoint hi = points.get(i);
            List<TunePoint> switches = new ArrayList<>();
            bisect(lo, hi, probe, switches);
            for (TunePoint s : switches) {
                out.add(new ConfigLine(c, start, s.bytes() - 1, lo.target(), advised));
                start = s.bytes();
                advised = s.recommended();
                lo = s;
            }
            advised |= hi.recommended();
        }
        TunePoint last = points.get(points.size() - 1);
        out.add(new ConfigLine(c, start, last.bytes(), last.target(), advised));
        return List.copyOf(out);
    }

    /** Adds, in order, the first point of each new target strictly after lo up to hi (hi's target differs). */
    private static void bisect(TunePoint lo, TunePoint hi, LongFunction<TunePoint> probe, List<TunePoint> out) {
        if (lo.target().equals(hi.target())) {
            return;
        }
        if (hi.sizeBytes() - lo.sizeBytes() <= 1) {
            out.add(hi);
            return;
        }
        // a size that rounds to a neighbour's byte count (AllGather/ReduceScatter: whole elements per rank) has that
        // neighbour's target, so one half returns at once
        TunePoint mid = probe.apply(lo.sizeBytes() + (hi.sizeBytes() - lo.sizeBytes()) / 2);
        bisect(lo, mid, probe, out);
        bisect(mid, hi, probe, out);
    }
}
