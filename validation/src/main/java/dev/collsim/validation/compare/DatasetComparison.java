package dev.collsim.validation.compare;

import dev.collsim.validation.ingest.Dataset;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A dataset compared with predictions.
 *
 * @param dataset            the measurement
 * @param cluster            the cluster used, or null when the dataset could not be compared
 * @param reason             why it could not be compared (empty when it was)
 * @param points             per-point comparisons, every usable point (those left out of the statistics too)
 * @param leftOutIndices     positions in {@code points} of the points the statistics leave out
 *                           ({@link Comparer#leftOut}: the one-off hiccups diagnose finds from the measured times
 *                           alone)
 * @param overall            error statistics over the points not left out
 * @param byRegime           error statistics per regime, of the points not left out
 * @param atLeast1MiB        error statistics over sizes of 1 MiB and more, of the points not left out (the accuracy
 *                           table's uncalibrated column with the default parameters)
 * @param below1MiB          error statistics over sizes below 1 MiB, of the points not left out (the accuracy
 *                           table's last column with the default parameters)
 * @param physicalBoundBusBw physical busbw bound (links at their physical speeds), GB/s busbw
 * @param boundFor           the algorithms the bound is for where NCCL_ALGO restricts them
 *                           ({@code PhysicalBound.algorithmsNote}, e.g. {@code for Ring, the algorithm NCCL_ALGO=Ring
 *                           allows}), else empty
 * @param algorithmChecked   points where the log named NCCL's algorithm
 * @param algorithmMatched   of those, points where the prediction agrees
 * @param band               which band the points carry, in words
 */
public record DatasetComparison(Dataset dataset, ClusterGuess cluster, String reason, List<PointComparison> points,
        Set<Integer> leftOutIndices, ErrorStats overall, Map<Regime, ErrorStats> byRegime, ErrorStats atLeast1MiB,
        ErrorStats below1MiB, double physicalBoundBusBw, String boundFor, int algorithmChecked, int algorithmMatched,
        String band) {

    /** Copies. */
    public DatasetComparison {
        points = List.copyOf(points);
        leftOutIndices = Set.copyOf(leftOutIndices);
        byRegime = Map.copyOf(byRegime);
        reason = reason == null ? "" : reason;
        band = band == null ? "" : band;
        boundFor = boundFor == null ? "" : boundFor;
    }

    /** @return a comparison that could not be made */
    public static DatasetComparison notComparable(Dataset d, String reason) {
        return new DatasetComparison(d, null, reason, List.of(), Set.of(), ErrorStats.NONE, Map.of(), ErrorStats.NONE,
                ErrorStats.NONE, Double.NaN, "", 0, 0, "");
    }

    /** @return the points the statistics leave out, by size ({@link #leftOutIndices}) */
    public List<PointComparison> leftOut() {
        return leftOutIndices.stream().map(points::get).sorted(Comparator.comparingLong(PointComparison::sizeBytes))
                .toList();
    }

    /**
     * @return points whose measured time lies inside the prediction's band, of those the statistics keep (a hiccup
     *         is left out here too, as calibrate leaves it out of its fitted points)
     */
    public int insideBand() {
        int n = 0;
        for (int i = 0; i < points.size(); i++) {
            PointComparison p = points.get(i);
            n += !leftOutIndices.contains(i) && p.measuredUs() >= p.lowUs() && p.measuredUs() <= p.highUs() ? 1 : 0;
        }
        return n;
    }

    /** @return the points the statistics and {@link #insideBand} count: every point but those left out */
    public int keptPoints() {
        return points.size() - leftOutIndices.size();
    }

    /** @return true when predictions were made */
    public boolean compared() {
        return cluster != null && !points.isEmpty();
    }
}
