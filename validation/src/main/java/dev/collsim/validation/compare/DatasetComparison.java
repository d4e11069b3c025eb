package dev.collsim.validation.compare;

import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Map;

/**
 * A dataset compared with predictions.
 *
 * @param dataset            the measurement
 * @param cluster            the cluster used, or null when the dataset could not be compared
 * @param reason             why it could not be compared (empty when it was)
 * @param points             per-point comparisons
 * @param overall            error statistics over all points
 * @param byRegime           error statistics per regime
 * @param atLeast1MiB        error statistics over sizes of 1 MiB and more (the accuracy target's set)
 * @param physicalBoundBusBw predicted physical bound, GB/s busbw
 * @param algorithmChecked   points where the log named NCCL's algorithm
 * @param algorithmMatched   of those, points where the prediction agrees
 * @param band               which band the points carry, in words
 */
public record DatasetComparison(Dataset dataset, ClusterGuess cluster, String reason, List<PointComparison> points,
        ErrorStats overall, Map<Regime, ErrorStats> byRegime, ErrorStats atLeast1MiB, double physicalBoundBusBw,
        int algorithmChecked, int algorithmMatched, String band) {

    /** Copies. */
    public DatasetComparison {
        points = List.copyOf(points);
        byRegime = Map.copyOf(byRegime);
        reason = reason == null ? "" : reason;
        band = band == null ? "" : band;
    }

    /** @return a comparison that could not be made */
    public static DatasetComparison notComparable(Dataset d, String reason) {
        return new DatasetComparison(d, null, reason, List.of(), ErrorStats.NONE, Map.of(), ErrorStats.NONE,
                Double.NaN, 0, 0, "");
    }

    /** @return points whose measured time lies inside the prediction's band */
    public int insideBand() {
        return (int) points.stream().filter(p -> p.measuredUs() >= p.lowUs() && p.measuredUs() <= p.highUs()).count();
    }

    /** @return true when predictions were made */
    public boolean compared() {
        return cluster != null && !points.isEmpty();
    }
}
