package dev.collsim.validation.calibration;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.compare.PredictionBand;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A band made per file, not per point: per regime, the smallest band residual t (percent, {@link
 * PredictionBand#residualPercent}) with
 * <pre>
 *   (F_1(t) + ... + F_K(t) + S(t)) / (K + 1) &gt;= level
 * </pre>
 * where F_k is the empirical distribution of the residuals of the class's file k (each file weighs the same, whatever
 * its number of points), K the class's files with a point in the regime, and S the unseen file's share: the mean of
 * F_j over the files of every class (the band over every class, one file's weight). Stateless.
 *
 * <p>Source: conformal prediction for grouped data, groups exchangeable and points exchangeable within a group (a
 * file is runs on one machine, and its points move together). Lee, Barber and Willett, "Distribution-free inference
 * with hierarchical data", arXiv:2306.06342 (hierarchical conformal prediction, HCP, and its Theorem 1: finite-sample
 * marginal coverage of a point of a new group): each of the K calibration groups weighs 1 / (K + 1), spread evenly
 * over its points, and the new group's 1 / (K + 1) is a point mass at +infinity; that is the mixture above with S
 * at infinity, finite at level 0.95 only when 1 / (K + 1) &lt;= 0.05, i.e. from K = 19 files. Dunn, Wasserman and
 * Ramdas, "Distribution-free prediction sets for two-layer hierarchical models", JASA 118(544), 2023, pp. 2491-2502,
 * arXiv:1809.07441, "CDF pooling" (their section 3; the mean of the K groups' empirical CDFs, 1 / K each, in their
 * code {@code R/unsup_avg_ecdf.R}, RobinMDunn/ConformalTwoLayer): the same equal weight per group, whatever its
 * points, with coverage only asymptotic. collsim keeps HCP's 1 / (K + 1) and fills the new file's share S with what
 * the files of every class say of a new file (collsim's choice, in neither paper), so a class of 2 files leans on
 * the other classes, one of 10 mostly on itself. With K = 0 the band is S's {@code level} quantile: the band over
 * every class.
 */
public final class PooledBand {

    private PooledBand() {
    }

    /**
     * One file's band residuals, percent, sorted, per regime.
     *
     * @param belowMiB   below 1 MiB
     * @param atLeastMiB at 1 MiB and more
     */
    public record FileResiduals(double[] belowMiB, double[] atLeastMiB) {
    }

    /**
     * @param series the series
     * @param params the parameters each is predicted with
     * @return per file (in order of first appearance), its residuals per regime, sorted
     */
    public static Map<String, FileResiduals> byFile(List<Series> series,
            Function<Series, PerformanceParameters> params) {
        Map<String, List<Double>> small = new LinkedHashMap<>();
        Map<String, List<Double>> large = new LinkedHashMap<>();
        for (Series s : series) {
            Residuals.relativeToPredicted(s, params.apply(s),
                    small.computeIfAbsent(s.dataset().file(), f -> new ArrayList<>()),
                    large.computeIfAbsent(s.dataset().file(), f -> new ArrayList<>()));
        }
        Map<String, FileResiduals> out = new LinkedHashMap<>();
        small.forEach((f, v) -> out.put(f, new FileResiduals(sorted(v), sorted(large.get(f)))));
        return out;
    }

    /**
     * @param cls     the class's files
     * @param every   the files of every class (the unseen file's share)
     * @param level   coverage, 0..1
     * @param without a file left out of both (null: none)
     * @return the band per regime
     */
    public static PredictionBand of(Map<String, FileResiduals> cls, Map<String, FileResiduals> every, double level,
            String without) {
        return new PredictionBand(quantile(regime(cls, without, true), regime(every, without, true), level),
                quantile(regime(cls, without, false), regime(every, without, false), level));
    }

    /**
     * @param cls   the class's files' sorted residuals (empty arrays left out)
     * @param every every class's files' sorted residuals (the unseen file's share; empty: no share, and the class's
     *              files alone are the mixture, K / (K + 1) at most)
     * @param level coverage, 0..1
     * @return the smallest residual t where the mixture reaches {@code level}; the largest residual when it never
     *         does; 0 without a residual
     */
    public static double quantile(List<double[]> cls, List<double[]> every, double level) {
        double[] cand = Stream.concat(cls.stream(), every.stream()).flatMapToDouble(Arrays::stream)
                .sorted().distinct().toArray();
        for (double t : cand) {
            double g = 0;
            for (double[] f : cls) {
                g += cdf(f, t);
            }
            double s = 0;
            for (double[] f : every) {
                s += cdf(f, t);
            }
            g = (g + (every.isEmpty() ? 0 : s / every.size())) / (cls.size() + 1);
            if (g >= level - 1e-12) {
                return t;
            }
        }
        return cand.length == 0 ? 0 : cand[cand.length - 1];
    }

    /** @return the share of the sorted values at or below t */
    private static double cdf(double[] sorted, double t) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return (double) lo / sorted.length;
    }

    private static List<double[]> regime(Map<String, FileResiduals> files, String without, boolean small) {
        List<double[]> out = new ArrayList<>();
        files.forEach((f, r) -> {
            double[] v = small ? r.belowMiB() : r.atLeastMiB();
            if (!f.equals(without) && v.length > 0) {
                out.add(v);
            }
        });
        return out;
    }

    private static double[] sorted(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }
}
