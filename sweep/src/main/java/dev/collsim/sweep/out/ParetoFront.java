package dev.collsim.sweep.out;

import dev.collsim.sweep.point.PointResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Pareto front of cost against time, per workload: the points no other point of the same workload beats on both
 * (cost no higher and time no longer, one of them strictly). Only points computed and fitting ({@link PointResult#ok})
 * with a finite cost and time take part. Stateless.
 */
public final class ParetoFront {

    private ParetoFront() {
    }

    /**
     * @param rows every point
     * @return per workload (in the order workloads first appear), its front ordered by rising cost (and so falling
     *         time)
     */
    public static Map<String, List<PointResult>> of(List<PointResult> rows) {
        Map<String, List<PointResult>> byWorkload = new LinkedHashMap<>();
        for (PointResult r : rows) {
            byWorkload.computeIfAbsent(r.workload(), k -> new ArrayList<>());
            if (r.ok() && Double.isFinite(r.cost()) && Double.isFinite(r.time())) {
                byWorkload.get(r.workload()).add(r);
            }
        }
        Map<String, List<PointResult>> out = new LinkedHashMap<>();
        byWorkload.forEach((w, list) -> out.put(w, front(list)));
        return out;
    }

    /** Sorted by cost then time (then point, for ties); a point is on the front when faster than all cheaper ones. */
    static List<PointResult> front(List<PointResult> points) {
        List<PointResult> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.comparingDouble(PointResult::cost).thenComparingDouble(PointResult::time)
                .thenComparingLong(PointResult::point));
        List<PointResult> front = new ArrayList<>();
        double best = Double.POSITIVE_INFINITY;
        for (PointResult p : sorted) {
            if (p.time() < best) {
                front.add(p);
                best = p.time();
            }
        }
        return front;
    }
}
