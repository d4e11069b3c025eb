package dev.collsim.validation.tune;

import dev.collsim.nccl.Collective;
import java.util.ArrayList;
import java.util.Comparator;
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
 * <p>A line is one advice: its sizes share the target and whether that target is advice (collsim's choice, recommended
 * over a different choice of NCCL's) or NCCL's own choice restated. So where NCCL itself switches to the advised target
 * a new line starts, which restates it; the table then never labels sizes NCCL already runs as advice, nor judges an
 * advised line by the gain of another candidate (2x H200 AllReduce on the bare model: Ring/Simple is advised over
 * NCCL's Ring/LL from 1625804 B until NCCL's own switch to Ring/Simple, and the sizes after it up to 32 MiB keep NCCL's
 * choice).
 *
 * <p>Between two swept sizes the choice is read again at {@link #PROBES_PER_OCTAVE} nccl-tests sizes per octave
 * (geometric, between the two), and between two neighbouring sizes whose lines differ the first size with the next
 * line's target is found by bisection on the nccl-tests size ({@code probe}); a size in between whose target is
 * neither is split again, so every switch between them whose target differs from its neighbours' is found. The
 * scan is there because collsim's choice can leave a line and come back between two swept sizes of the same choice:
 * its costs are not linear in bytes between NCCL's power-of-two steps, as its model steps at NCCL's own loop
 * boundaries (e.g. one more NVLSTree kernel iteration, {@code simulator.perf.NvlsLoop}, just above 4 MiB on 2 DGX
 * H100, where Tree/LL128 is then quicker up to about 4.56 MB). A detour narrower than the scan's step (a factor of
 * 2^(1/16), 4.4 %) between two probed sizes can still be missed. Stateless.
 */
final class LineCover {

    /** nccl-tests sizes read between two swept sizes, per factor of 2 (a step of 2^(1/16), 4.4 %). */
    static final int PROBES_PER_OCTAVE = 16;

    private LineCover() {
    }

    /**
     * @param points the points of one collective, increasing size, at least one
     * @param probe  the point at another nccl-tests size, bytes (same communicator, parameters and band)
     * @return the lines, increasing bytes, contiguous from the first point's bytes to the last's
     */
    static List<ConfigLine> of(List<TunePoint> points, LongFunction<TunePoint> probe) {
        List<TunePoint> seen = new ArrayList<>(points);
        LongFunction<TunePoint> reading = size -> {
            TunePoint p = probe.apply(size);
            seen.add(p);
            return p;
        };
        List<ConfigLine> out = new ArrayList<>();
        for (ConfigLine l : lines(points, reading)) {
            out.add(new ConfigLine(l.collective(), l.minBytes(), l.maxBytes(), l.target(), l.advised(), l.at(),
                    seen.stream().filter(p -> p.bytes() >= l.minBytes() && p.bytes() <= l.maxBytes()).distinct()
                            .sorted(Comparator.comparingLong(TunePoint::bytes)).toList()));
        }
        return List.copyOf(out);
    }

    private static List<ConfigLine> lines(List<TunePoint> points, LongFunction<TunePoint> probe) {
        Collective c = points.get(0).collective();
        List<ConfigLine> out = new ArrayList<>();
        TunePoint first = points.get(0);
        long start = first.bytes();
        for (int i = 1; i < points.size(); i++) {
            TunePoint lo = points.get(i - 1);
            TunePoint hi = points.get(i);
            List<TunePoint> switches = new ArrayList<>();
            TunePoint from = lo;
            for (TunePoint at : scan(lo, hi, probe)) {
                bisect(from, at, probe, switches);
                from = at;
            }
            for (TunePoint s : switches) {
                out.add(new ConfigLine(c, start, s.bytes() - 1, lo.target(), lo.recommended(), lo, List.of(lo)));
                start = s.bytes();
                lo = s;
            }
        }
        TunePoint last = points.get(points.size() - 1);
        out.add(new ConfigLine(c, start, last.bytes(), last.target(), last.recommended(), last, List.of(last)));
        return out;
    }

    /**
     * @return the points at {@link #PROBES_PER_OCTAVE} sizes per octave strictly between lo and hi, then hi
     */
    private static List<TunePoint> scan(TunePoint lo, TunePoint hi, LongFunction<TunePoint> probe) {
        List<TunePoint> out = new ArrayList<>();
        double step = Math.pow(2, 1.0 / PROBES_PER_OCTAVE);
        long last = lo.sizeBytes();
        for (double s = Math.max(1, lo.sizeBytes()) * step; s < hi.sizeBytes(); s *= step) {
            long size = (long) s;
            if (size > last && size < hi.sizeBytes()) {
                out.add(probe.apply(size));
                last = size;
            }
        }
        out.add(hi);
        return out;
    }

    /** @return true when both points give one line: the same target, advised at both or at neither */
    static boolean sameLine(TunePoint a, TunePoint b) {
        return a.target().equals(b.target()) && a.recommended() == b.recommended();
    }

    /** Adds, in order, the first point of each new line strictly after lo up to hi (when hi's line differs). */
    private static void bisect(TunePoint lo, TunePoint hi, LongFunction<TunePoint> probe, List<TunePoint> out) {
        if (sameLine(lo, hi)) {
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
