package dev.collsim.validation.diagnose;

import dev.collsim.validation.ingest.PerfPoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The shape of a size sweep: time that drops as size grows (NCCL switched algorithm or protocol, and the earlier
 * choice was slower: its cost model picked wrongly or a threshold is misplaced), single points far off their
 * neighbours (noise), and bus bandwidth that collapses at large sizes (congestion, drops, retransmits).
 */
final class SweepShapeCheck implements Check {

    private static final long MIB = 1 << 20;
    /** Times below this (microseconds) are launch noise, not algorithm choices (one kernel launch is ~5 us). */
    private static final double MIN_US = 5.0;

    @Override
    public List<Finding> run(Subject s) {
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
                out.add(s.finding(Finding.Kind.OUTLIER, Finding.Severity.INFO, String.format(Locale.ROOT,
                        "%.1f us at %d bytes is more than 1.6x both neighbours (%.1f and %.1f us): a one-off "
                                + "hiccup; rerun with more iterations (-n) before trusting this point", t,
                        pts.get(i).sizeBytes(), prev, next), List.of(s.at(pts.get(i).line()))));
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
                        List.of(s.at(pts.get(i).line()), s.at(pts.get(i + 1).line()))));
            }
        }
        collapse(s, pts, out);
        return out;
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
                out.add(s.finding(Finding.Kind.BANDWIDTH_COLLAPSE, Finding.Severity.PROBLEM, String.format(Locale.ROOT,
                        "busbw falls from %.2f GB/s at %d bytes to %.2f GB/s at %d bytes and stays low: larger "
                                + "transfers congest the path (packet drops and retransmits on Ethernet/TCP, "
                                + "PFC/ECN misconfiguration, a saturated proxy thread)", max, atMax.sizeBytes(),
                        p.peakBusBw(), p.sizeBytes()), List.of(s.at(atMax.line()), s.at(p.line()))));
                return;
            }
        }
    }
}
