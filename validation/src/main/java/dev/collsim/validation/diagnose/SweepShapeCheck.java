package dev.collsim.validation.diagnose;

import dev.collsim.validation.ingest.PerfPoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The shape of a size sweep: time that drops as size grows (NCCL switched algorithm or protocol, and the earlier
 * choice was slower: its cost model picked wrongly or a threshold is misplaced), single points far off their
 * neighbours (noise), an out-of-place and in-place time of one size far apart (noise), and bus bandwidth that
 * collapses at large sizes (congestion, drops, retransmits).
 */
final class SweepShapeCheck implements Check {

    private static final long MIB = 1 << 20;
    /** Times below this (microseconds) are launch noise, not algorithm choices (one kernel launch is ~5 us). */
    private static final double MIN_US = 5.0;
    /**
     * Ratio of the out-of-place and in-place times of one size above which one half is an outlier. nccl-tests runs
     * both halves with the same collective, algorithm, protocol and channels (in-place only aliases the buffers), so
     * they agree within noise: within 1.17x on every row of the DGX H100 2x2 file but its 16 KiB row (291.4 against
     * 24.76 us, 11.8x).
     */
    private static final double HALVES_RATIO = 2.0;
    /**
     * Relative spread around their median within which the times of a collapsed sweep count as flat: 15 %
     * (collsim's choice: the two halves of one healthy size agree within 1.17x, {@link #HALVES_RATIO}'s note).
     */
    private static final double FLAT_TIME = 0.15;

    @Override
    public List<Finding> run(Subject s) {
        return run(s, new ArrayList<>());
    }

    /**
     * @param s        the subject
     * @param hiccups  receives the points of the {@link Finding.Kind#OUTLIER} findings, in their order (a point's
     *                 identity, not its line: every result of nccl-tests' JSON shares one line)
     * @return the findings
     */
    List<Finding> run(Subject s, List<PerfPoint> hiccups) {
        List<PerfPoint> pts = new ArrayList<>(s.dataset().points());
        pts.removeIf(p -> Double.isNaN(p.bestTimeUs()) || p.sizeBytes() == 0);
        pts.sort(Comparator.comparingLong(PerfPoint::sizeBytes));
        List<Finding> out = new ArrayList<>();
        if (pts.size() < 3) {
            return out;
        }
        boolean switched = false;
        boolean outlier = false;
        for (int i = 0; i + 1 < pts.size(); i++) {
            double t = pts.get(i).bestTimeUs();
            double next = pts.get(i + 1).bestTimeUs();
            double prev = i > 0 ? pts.get(i - 1).bestTimeUs() : Double.NaN;
            boolean isOutlier = i > 0 && t > 1.6 * Math.max(prev, next) && t >= MIN_US;
            if (isOutlier && !outlier) {
                outlier = true;
                hiccups.add(pts.get(i));
                out.add(s.finding(Finding.Kind.OUTLIER, Finding.Severity.INFO, String.format(Locale.ROOT,
                        "%.1f us at %d bytes is more than 1.6x both neighbours (%.1f and %.1f us): a one-off "
                                + "hiccup; rerun with more iterations (-n) before trusting this point", t,
                        pts.get(i).sizeBytes(), prev, next), List.of(s.at(pts.get(i)))));
            }
            boolean slowBefore = i == 0 ? pts.get(i + 2 < pts.size() ? i + 2 : i + 1).bestTimeUs() < t
                    : prev >= 0.6 * t;
            if (!switched && !isOutlier && next < 0.8 * t && t >= MIN_US && slowBefore && pts.get(i).sizeBytes() >= 64 * 1024
                    && pts.get(i + 1).sizeBytes() > pts.get(i).sizeBytes()) {
                switched = true;
                out.add(s.finding(Finding.Kind.ALGORITHM_SWITCH, Finding.Severity.WARNING, String.format(Locale.ROOT,
                        "time falls from %.1f us at %d bytes to %.1f us at %d bytes although the size grows: NCCL "
                                + "switches algorithm or protocol between these sizes and the choice below the "
                                + "switch is %.1fx slower; its tuning model (or a tuner plugin) places the "
                                + "threshold too late; NCCL_ALGO/NCCL_PROTO or NCCL_DEBUG_SUBSYS=TUNING show which",
                        t, pts.get(i).sizeBytes(), next, pts.get(i + 1).sizeBytes(), t / next),
                        List.of(s.at(pts.get(i)), s.at(pts.get(i + 1)))));
            }
        }
        halves(s, pts, out, hiccups);
        collapse(s, pts, out);
        return out;
    }

    /** Adds the size whose two halves differ most, if by more than {@link #HALVES_RATIO}. */
    private static void halves(Subject s, List<PerfPoint> pts, List<Finding> out, List<PerfPoint> hiccups) {
        PerfPoint worst = null;
        double worstRatio = HALVES_RATIO;
        for (PerfPoint p : pts) {
            if (p.outOfPlace() == null || p.inPlace() == null || !p.outOfPlace().hasTime() || !p.inPlace().hasTime()) {
                continue;
            }
            double a = p.outOfPlace().timeUs();
            double b = p.inPlace().timeUs();
            if (Math.min(a, b) >= MIN_US && Math.max(a, b) / Math.min(a, b) > worstRatio) {
                worst = p;
                worstRatio = Math.max(a, b) / Math.min(a, b);
            }
        }
        if (worst != null && !hiccups.contains(worst)) {
            hiccups.add(worst);
            boolean outSlow = worst.outOfPlace().timeUs() > worst.inPlace().timeUs();
            out.add(s.finding(Finding.Kind.OUTLIER, Finding.Severity.INFO, String.format(Locale.ROOT,
                    "%s %.1f us at %d bytes is %.1fx the %s %.1f us of the same size: both halves run the same "
                            + "algorithm, so one is a hiccup; rerun with more iterations (-n) before trusting this point",
                    outSlow ? "out-of-place" : "in-place", Math.max(worst.outOfPlace().timeUs(), worst.inPlace().timeUs()),
                    worst.sizeBytes(), worstRatio, outSlow ? "in-place" : "out-of-place",
                    Math.min(worst.outOfPlace().timeUs(), worst.inPlace().timeUs())), List.of(s.at(worst))));
        }
    }

    /**
     * The first run of at least 3 consecutive points, over at least 4x in size, whose best times all lie within
     * {@link #FLAT_TIME} of the run's median: bytes that grow 4x or more without moving the time are no rate, so a
     * fixed wait stands in the call. Empty when there is none.
     */
    static List<PerfPoint> flatTime(List<PerfPoint> after) {
        for (int from = 0; from + 2 < after.size(); from++) {
            int to = from + 1;
            while (to < after.size() && withinMedian(after.subList(from, to + 1))) {
                to++;
            }
            List<PerfPoint> run = after.subList(from, to);
            if (run.size() >= 3 && run.get(run.size() - 1).sizeBytes() >= 4 * run.get(0).sizeBytes()) {
                return List.copyOf(run);
            }
        }
        return List.of();
    }

    private static boolean withinMedian(List<PerfPoint> run) {
        double[] t = run.stream().mapToDouble(PerfPoint::bestTimeUs).sorted().toArray();
        double median = t.length % 2 == 1 ? t[t.length / 2] : (t[t.length / 2 - 1] + t[t.length / 2]) / 2;
        return t[0] >= (1 - FLAT_TIME) * median && t[t.length - 1] <= (1 + FLAT_TIME) * median;
    }

    private static void collapse(Subject s, List<PerfPoint> pts, List<Finding> out) {
        double max = 0;
        PerfPoint atMax = null;
        for (int i = 0; i + 1 < pts.size(); i++) {
            PerfPoint p = pts.get(i);
            if (p.sizeBytes() < MIB) {
                continue;
            }
            if (p.peakBusBw() > max) {
                max = p.peakBusBw();
                atMax = p;
            }
            PerfPoint q = pts.get(i + 1);
            if (atMax != null && p.peakBusBw() < 0.5 * max && q.peakBusBw() < 0.5 * max) {
                String why = s.singleHost() ? "on one host no network carries these bytes, so the GPUs or their host"
                        + " stall (other work on the same GPUs, clock or power throttling, the host thread that"
                        + " launches the kernels)" : "larger transfers congest the path (packet drops and retransmits"
                        + " on Ethernet/TCP, PFC/ECN misconfiguration, a saturated proxy thread)";
                List<Finding.Evidence> ev = new ArrayList<>(List.of(s.at(atMax), s.at(p)));
                List<PerfPoint> flat = flatTime(pts.subList(i, pts.size()));
                String wait = "";
                if (!flat.isEmpty()) {
                    PerfPoint a = flat.get(0);
                    PerfPoint b = flat.get(flat.size() - 1);
                    ev.add(s.at(b));
                    wait = String.format(Locale.ROOT, "; from %d to %d bytes the time stays at %.0f-%.0f us while the"
                            + " size grows %dx: a fixed wait per call (a timeout, a stall), not a slower rate",
                            a.sizeBytes(), b.sizeBytes(), flat.stream().mapToDouble(PerfPoint::bestTimeUs).min()
                                    .orElseThrow(), flat.stream().mapToDouble(PerfPoint::bestTimeUs).max().orElseThrow(),
                            b.sizeBytes() / a.sizeBytes());
                }
                out.add(s.finding(Finding.Kind.BANDWIDTH_COLLAPSE, Finding.Severity.PROBLEM, String.format(Locale.ROOT,
                        "busbw falls from %.2f GB/s at %d bytes to %.2f GB/s at %d bytes and stays low: %s%s", max,
                        atMax.sizeBytes(), p.peakBusBw(), p.sizeBytes(), why, wait), ev));
                return;
            }
        }
    }
}
