package dev.collsim.validation.calibration;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.compare.ErrorStats;
import dev.collsim.validation.compare.PredictionBand;
import dev.collsim.validation.compare.Regime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.LongPredicate;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

/**
 * Residual arithmetic of the shipped profiles: per-dataset median error, band residuals, the nearest-rank
 * percentile and the share of points inside a band. Stateless.
 */
public final class Residuals {

    private Residuals() {
    }

    /**
     * @param s a series
     * @param p parameters
     * @return median absolute percentage error of time (|predicted - measured| / measured x 100) over the sizes of
     *         1 MiB and more, NaN when there is none
     */
    public static double median(Series s, PerformanceParameters p) {
        return median(s, p, Regime.ONE_MIB);
    }

    /**
     * @param s    a series
     * @param p    parameters
     * @param from smallest size included, bytes (0: every size)
     * @return median absolute percentage error of time over the sizes from {@code from} on, NaN when there is none
     */
    public static double median(Series s, PerformanceParameters p, long from) {
        return ErrorStats.median(errors(s, p, size -> size >= from, true));
    }

    /**
     * @param s  a series
     * @param p  parameters
     * @param to first size left out, bytes ({@link Regime#ONE_MIB}: the sizes below 1 MiB)
     * @return median absolute percentage error of time over the sizes below {@code to}, NaN when there is none
     */
    public static double medianBelow(Series s, PerformanceParameters p, long to) {
        return ErrorStats.median(errors(s, p, size -> size < to, true));
    }

    /**
     * @param s a series
     * @param p parameters
     * @param i the point's index in the series
     * @return the point's signed error of time, percent: (predicted - measured) / measured x 100, positive where the
     *         model is slow
     */
    public static double errorPercent(Series s, PerformanceParameters p, int i) {
        return (s.calls().get(i).timeUs(p) - s.measuredUs()[i]) / s.measuredUs()[i] * 100;
    }

    /**
     * @param s        a series
     * @param p        parameters
     * @param sizes    which sizes (bytes) to take
     * @param absolute true for the absolute errors, false for the signed ones
     * @return the {@link #errorPercent errors of time} of the series' points of those sizes, percent
     */
    public static DescriptiveStatistics errors(Series s, PerformanceParameters p, LongPredicate sizes,
            boolean absolute) {
        DescriptiveStatistics st = new DescriptiveStatistics();
        for (int i = 0; i < s.calls().size(); i++) {
            if (sizes.test(s.sizes()[i])) {
                double e = errorPercent(s, p, i);
                st.addValue(absolute ? Math.abs(e) : e);
            }
        }
        return st;
    }

    /**
     * Adds each point's band residual (e^|ln(measured / predicted)| - 1) x 100 ({@link PredictionBand#residualPercent}:
     * a monotone function of |ln(measured / predicted)|, so its nearest-rank percentile is that of the log residuals,
     * and a band of that upper reach holds the point exactly when its residual is at most the reach).
     *
     * @param s     a series
     * @param p     parameters
     * @param small receives the residuals below 1 MiB
     * @param large receives the residuals at 1 MiB and more
     */
    public static void relativeToPredicted(Series s, PerformanceParameters p, List<Double> small, List<Double> large) {
        for (int i = 0; i < s.calls().size(); i++) {
            double pred = s.calls().get(i).timeUs(p);
            double r = PredictionBand.residualPercent(pred, s.measuredUs()[i]);
            (s.sizes()[i] >= Regime.ONE_MIB ? large : small).add(r);
        }
    }

    /**
     * The nearest-rank percentile: the smallest value with at least {@code pct} % of the values at or below it, i.e.
     * the value of rank ceil(pct / 100 x n) in ascending order (rank 1 when that is 0).
     *
     * @param values the values (not changed)
     * @param pct    percentile, 0 to 100
     * @return the percentile, 0 when there is no value
     */
    public static double nearestRank(List<Double> values, double pct) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(pct / 100 * sorted.size());
        return sorted.get(Math.max(1, rank) - 1);
    }

    /**
     * @param series the points
     * @param params the parameters each series is predicted with
     * @param band   the band
     * @return share of the points whose measured time lies in [predicted / f, predicted x f], 0..1 (0
     *         when there is no point)
     */
    public static double inside(List<Series> series, Function<Series, PerformanceParameters> params,
            PredictionBand band) {
        int n = points(series);
        return n == 0 ? 0 : (double) countInside(series, params, band) / n;
    }

    /** @return the points of the series */
    public static int points(List<Series> series) {
        return series.stream().mapToInt(s -> s.calls().size()).sum();
    }

    private static int countInside(List<Series> series, Function<Series, PerformanceParameters> params,
            PredictionBand band) {
        int in = 0;
        for (Series s : series) {
            PerformanceParameters p = params.apply(s);
            for (int i = 0; i < s.calls().size(); i++) {
                double pred = s.calls().get(i).timeUs(p);
                in += band.holds(pred, s.measuredUs()[i], s.sizes()[i]) ? 1 : 0;
            }
        }
        return in;
    }

    /**
     * A band made from residuals: per regime the {@code pct}th percentile (nearest rank) of
     * {@link #relativeToPredicted}; a regime without a residual takes {@code empty}'s half-width.
     *
     * @param series the points
     * @param params the parameters each series is predicted with
     * @param pct    percentile, 0 to 100
     * @param empty  the band for a regime the series have no point in
     * @return the band
     */
    public static PredictionBand band(List<Series> series, Function<Series, PerformanceParameters> params, double pct,
            PredictionBand empty) {
        List<Double> small = new ArrayList<>();
        List<Double> large = new ArrayList<>();
        series.forEach(s -> relativeToPredicted(s, params.apply(s), small, large));
        return new PredictionBand(small.isEmpty() ? empty.belowMiBPercent() : nearestRank(small, pct),
                large.isEmpty() ? empty.atLeastMiBPercent() : nearestRank(large, pct));
    }

    /** Fewest points of one dataset in one regime for {@link #oneSided} to judge it. */
    public static final int ONE_SIDED_MIN_POINTS = 3;

    /**
     * The datasets of one fit that disagree with the others: in one regime (below 1 MiB, at >= 1 MiB), at least
     * {@value #ONE_SIDED_MIN_POINTS} points of the dataset all lie on one side of the fitted model, with a median
     * error beyond {@link FitAcceptance#MAX_MEDIAN_ERROR_PCT} % (the error at which calibrate says the model does
     * not describe a fit's data), while the fit has other datasets. One parameter set cannot serve files that
     * disagree this way (a run with a problem, a half-speed link, another cluster): the fit lands between them and
     * its band takes both in. collsim's own rule, no fitted constant.
     *
     * @param series the fit's datasets
     * @param p      the fitted parameters
     * @return one sentence per dataset and regime, naming the dataset; empty with fewer than two datasets
     */
    public static List<String> oneSided(List<Series> series, PerformanceParameters p) {
        List<String> out = new ArrayList<>();
        if (series.size() < 2) {
            return out;
        }
        for (Series s : series) {
            for (boolean large : new boolean[] {false, true}) {
                DescriptiveStatistics st = errors(s, p, size -> size >= Regime.ONE_MIB == large, false);
                double median = ErrorStats.median(st);
                boolean oneSide = st.getMax() < 0 || st.getMin() > 0;
                if (st.getN() >= ONE_SIDED_MIN_POINTS && oneSide
                        && Math.abs(median) > FitAcceptance.MAX_MEDIAN_ERROR_PCT) {
                    out.add(String.format(Locale.ROOT, "%s: its %d points %s all measure %s than the fit predicts"
                            + " (median error %+.1f %% of time, beyond %.0f %%), unlike the other dataset(s): the files"
                            + " disagree (a run with a problem, or another cluster) and the profile's band takes in"
                            + " both; check it with collsim diagnose, or calibrate it apart", s.dataset().id(),
                            st.getN(), large ? "at >= 1 MiB" : "below 1 MiB", median < 0 ? "slower" : "faster",
                            median, FitAcceptance.MAX_MEDIAN_ERROR_PCT));
                }
            }
        }
        return out;
    }
}
