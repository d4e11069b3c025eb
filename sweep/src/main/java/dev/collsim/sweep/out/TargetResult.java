package dev.collsim.sweep.out;

import dev.collsim.sweep.point.PointResult;
import dev.collsim.sweep.spec.GridAxis;
import dev.collsim.sweep.spec.Target;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cheapest design meeting a target. Where the grid has a {@code backend} axis, a design is the combination of the
 * other axes, timed once per backend: it meets a target only when it meets it under every backend of the grid, and
 * its figures are those of its slower point (an analytical time that meets a bound the flow run of the same design
 * misses does not make the design meet it). Immutable.
 *
 * @param target     the target's name
 * @param bounds     its bounds, e.g. {@code tokens/s >= 1e+06}
 * @param meeting    designs meeting it (with a backend axis: designs meeting it under every backend)
 * @param point      the cheapest of them (ties: the faster, then the lower point index), or -1 when none does; with
 *                   a backend axis, its slower point
 * @param workload   its workload
 * @param design     its design (with a backend axis: the label of its slower point, which names that backend)
 * @param cost       its cost, currency units (NaN when none)
 * @param time       its time: step ms for plans, us for collectives (NaN when none)
 * @param tokensPerS its tokens per second (plans; NaN otherwise)
 * @param busBw      its busbw, GB/s (collectives; NaN otherwise)
 * @param backends   the grid's backends every design was held to, e.g. {@code analytical, flow}; empty without a
 *                   backend axis
 */
public record TargetResult(String target, String bounds, int meeting, long point, String workload, String design,
        double cost, double time, double tokensPerS, double busBw, String backends) {

    /** The grid key whose values are simulation backends, not designs ({@code GridReader}'s keys). */
    static final String BACKEND = "backend";

    /**
     * @param targets the targets
     * @param rows    every point
     * @param axes    the grid's axes, in spec order (empty without a grid)
     * @return one result per target
     */
    public static List<TargetResult> of(List<Target> targets, List<PointResult> rows, List<GridAxis> axes) {
        int backend = axes.stream().map(GridAxis::key).toList().indexOf(BACKEND);
        String backends = backend < 0 ? "" : String.join(", ", axes.get(backend).labels());
        List<List<PointResult>> designs = designs(rows, backend);
        List<TargetResult> out = new ArrayList<>();
        for (Target t : targets) {
            List<PointResult> meet = designs.stream().filter(d -> d.stream().allMatch(r -> meets(t, r)))
                    .map(TargetResult::slower).toList();
            Optional<PointResult> best = meet.stream().min(Comparator.comparingDouble(PointResult::cost)
                    .thenComparingDouble(PointResult::time).thenComparingLong(PointResult::point));
            out.add(best.map(b -> new TargetResult(t.name(), t.describe(), meet.size(), b.point(), b.workload(),
                    b.label(), b.cost(), b.time(), b.tokensPerS(), b.busBw(), backends))
                    .orElse(new TargetResult(t.name(), t.describe(), 0, -1, "", "no design meets it", Double.NaN,
                            Double.NaN, Double.NaN, Double.NaN, backends)));
        }
        return out;
    }

    /**
     * @param backend the backend axis's index, -1 without one
     * @return the points grouped by design and workload: one point each without a backend axis (and for a listed
     *         variant, whose axes are empty), else the points that differ only in the backend
     */
    static List<List<PointResult>> designs(List<PointResult> rows, int backend) {
        Map<String, List<PointResult>> groups = new LinkedHashMap<>();
        for (PointResult r : rows) {
            String key = "#" + r.point();
            if (backend >= 0 && backend < r.axes().size() && !r.axes().get(backend).isEmpty()) {
                List<String> others = new ArrayList<>(r.axes());
                others.remove(backend);
                key = r.workload() + "\u0000" + String.join("\u0000", others);
            }
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        }
        return List.copyOf(groups.values());
    }

    /** @return the design's slowest point (ties: the lower point index) */
    private static PointResult slower(List<PointResult> design) {
        return design.stream().max(Comparator.comparingDouble(PointResult::time)
                .thenComparing(Comparator.comparingLong(PointResult::point).reversed())).orElseThrow();
    }

    /** @return whether a point is of the target's workload (or kind) and meets every bound */
    static boolean meets(Target t, PointResult r) {
        boolean plan = "plan".equals(r.kind());
        if (!r.ok() || !Double.isFinite(r.cost()) || (t.workload() != null && !t.workload().equals(r.workload()))
                || (plan ? !t.forPlans() : !t.forCollectives())) {
            return false;
        }
        return (Double.isNaN(t.minTokensPerS()) || r.tokensPerS() >= t.minTokensPerS())
                && (Double.isNaN(t.maxStepMs()) || r.stepMs() <= t.maxStepMs())
                && (Double.isNaN(t.maxTimeUs()) || r.timeUs() <= t.maxTimeUs())
                && (Double.isNaN(t.minBusBw()) || r.busBw() >= t.minBusBw());
    }
}
