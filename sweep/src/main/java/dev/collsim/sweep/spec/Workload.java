package dev.collsim.sweep.spec;

import dev.collsim.reports.spec.PlanSpec;
import dev.collsim.reports.spec.SweepSpec;
import java.io.Serializable;

/**
 * One workload every design is timed on: one size of a collective sweep of the spec, or one training plan (a
 * parallelism plan). Immutable.
 *
 * @param index position in the spec's workload list (collective sizes first, in spec order, then plans)
 * @param name  e.g. {@code allreduce 1G} (collective as the spec names it, size as nccl-tests prints it) or the plan's name
 * @param sweep the collective at one size ({@code min = max}), or null for a plan
 * @param plan  the plan, or null for a collective
 */
public record Workload(int index, String name, SweepSpec sweep, PlanSpec plan) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** @return true for a training plan, false for a collective */
    public boolean isPlan() {
        return plan != null;
    }

    /** @return {@code plan} or {@code collective} */
    public String kind() {
        return isPlan() ? "plan" : "collective";
    }
}
