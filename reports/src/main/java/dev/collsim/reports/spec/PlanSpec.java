package dev.collsim.reports.spec;

import dev.collsim.reports.plan.RankOrder;
import dev.collsim.reports.plan.TrainingJob;

/**
 * A training job to plan on every variant. Immutable.
 *
 * @param name              table and chart name
 * @param job               the job
 * @param order             rank order
 * @param targetTokensPerS  throughput to reach (smallest GPU count is searched), or NaN
 * @param scalingMaxGpus    largest GPU count of the scaling curve, 0 for no curve
 */
public record PlanSpec(String name, TrainingJob job, RankOrder order, double targetTokensPerS, int scalingMaxGpus) {
}
