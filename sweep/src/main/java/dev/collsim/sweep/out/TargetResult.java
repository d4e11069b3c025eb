package dev.collsim.sweep.out;

import dev.collsim.sweep.point.PointResult;
import dev.collsim.sweep.spec.Target;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The cheapest design meeting a target. Immutable.
 *
 * @param target    the target's name
 * @param bounds    its bounds, e.g. {@code tokens/s >= 1e+06}
 * @param meeting   points meeting it
 * @param point     the cheapest of them (ties: the faster, then the lower point index), or -1 when none does
 * @param workload  its workload
 * @param design    its design
 * @param cost      its cost, currency units (NaN when none)
 * @param time      its time: step ms for plans, us for collectives (NaN when none)
 * @param tokensPerS its tokens per second (plans; NaN otherwise)
 * @param busBw     its busbw, GB/s (collectives; NaN otherwise)
 */
public record TargetResult(String target, String bounds, int meeting, long point, String workload, String design,
        double cost, double time, double tokensPerS, double busBw) {

    /**
     * @param targets the targets
     * @param rows    every point
     * @return one result per target
     */
    public static List<TargetResult> of(List<Target> targets, List<PointResult> rows) {
        List<TargetResult> out = new ArrayList<>();
        for (Target t : targets) {
            List<PointResult> meet = rows.stream().filter(r -> meets(t, r)).toList();
            Optional<PointResult> best = meet.stream().min(Comparator.comparingDouble(PointResult::cost)
                    .thenComparingDouble(PointResult::time).thenComparingLong(PointResult::point));
            out.add(best.map(b -> new TargetResult(t.name(), t.describe(), meet.size(), b.point(), b.workload(),
                    b.label(), b.cost(), b.time(), b.tokensPerS(), b.busBw()))
                    .orElse(new TargetResult(t.name(), t.describe(), 0, -1, "", "no design meets it", Double.NaN,
                            Double.NaN, Double.NaN, Double.NaN)));
        }
        return out;
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
