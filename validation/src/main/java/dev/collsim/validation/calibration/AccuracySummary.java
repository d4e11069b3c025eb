package dev.collsim.validation.calibration;

import dev.collsim.validation.compare.ErrorStats;
import dev.collsim.validation.compare.PredictionBand;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.RunHealth;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

/**
 * The headline figures of the accuracy table over the healthy datasets: those compared (a model time exists) whose
 * file header does not report the run as broken ({@code #@ health: problem ...}, or per run: {@link RunHealth}).
 * Errors are the rows' uncalibrated per-dataset medians (absolute percentage error of time), so a summary says how the
 * bare model does; {@link #withChoice} counts the same figures with the shipped profile choice, out of sample.
 *
 * @param healthy          healthy datasets with points of 1 MiB and more
 * @param medianOfMedians  median over those datasets of their median error at >= 1 MiB, percent (NaN: none)
 * @param within3          of those, datasets whose median error is at most 3 %
 * @param within10         of those, datasets whose median error is at most 10 %
 * @param healthySmall     healthy datasets with points below 1 MiB
 * @param smallWithin15    of those, datasets whose median error below 1 MiB is at most 15 %
 */
public record AccuracySummary(int healthy, double medianOfMedians, int within3, int within10, int healthySmall,
        int smallWithin15) {

    /**
     * @param rows the accuracy table's rows
     * @return the figures over the healthy rows
     */
    public static AccuracySummary of(List<AccuracyRow> rows) {
        return of(rows, AccuracyRow::uncalibrated, AccuracyRow::uncalibratedSmall);
    }

    /**
     * The figures of {@link #of} with each healthy dataset predicted by the choice compare makes without
     * {@code --calibration} ({@code auto}): where its class ships a profile ({@link ProfileBuilder.ClassFit#profile()}),
     * the class profile refitted without the dataset's file ({@link ProfileBuilder.Score#loo()}, below 1 MiB
     * {@link ProfileBuilder.Score#looBelowMiB()}), never the shipped fit, which has seen the file; elsewhere the
     * row's bare-model figures. A row is matched to its score by {@link Dataset#id()} (file, line, label); a
     * healthy row the profile builder did not score (diagnose finds a PROBLEM in the run, or no cluster is
     * guessed) keeps the bare figures.
     *
     * @param rows the accuracy table's rows
     * @param fits the per-class fits of the same datasets ({@link ProfileBuilder#build})
     * @return the figures, with how many datasets a profile predicted
     */
    public static WithChoice withChoice(List<AccuracyRow> rows, List<ProfileBuilder.ClassFit> fits) {
        Map<String, double[]> loo = new HashMap<>();
        fits.stream().filter(f -> f.profile().isPresent()).flatMap(f -> f.scores().stream())
                .forEach(sc -> loo.put(sc.series().dataset().id(), new double[] {sc.loo(), sc.looBelowMiB()}));
        return withChoice(rows, loo);
    }

    /**
     * @param rows the accuracy table's rows
     * @param loo  per dataset whose class ships a profile (by {@link Dataset#id()}), its leave-one-out median errors
     *             at >= 1 MiB and below 1 MiB, percent (NaN where it has no such size)
     * @return as {@link #withChoice(List, List)}
     */
    static WithChoice withChoice(List<AccuracyRow> rows, Map<String, double[]> loo) {
        double[] none = {Double.NaN, Double.NaN};
        AccuracySummary s = of(rows, r -> loo.containsKey(r.dataset().id()) ? loo.get(r.dataset().id())[0]
                : r.uncalibrated(), r -> loo.containsKey(r.dataset().id()) ? loo.get(r.dataset().id())[1]
                : r.uncalibratedSmall());
        int large = 0;
        int small = 0;
        for (AccuracyRow r : rows) {
            double[] e = loo.getOrDefault(r.dataset().id(), none);
            if (healthy(r)) {
                large += r.points1MiB() > 0 && !Double.isNaN(e[0]) ? 1 : 0;
                small += r.pointsSmall() > 0 && !Double.isNaN(e[1]) ? 1 : 0;
            }
        }
        return new WithChoice(s, large, small);
    }

    private static AccuracySummary of(List<AccuracyRow> rows, ToDoubleFunction<AccuracyRow> atLeastMiB,
            ToDoubleFunction<AccuracyRow> belowMiB) {
        DescriptiveStatistics medians = new DescriptiveStatistics();
        int w3 = 0;
        int w10 = 0;
        int small = 0;
        int small15 = 0;
        for (AccuracyRow r : rows) {
            if (!healthy(r)) {
                continue;
            }
            double big = atLeastMiB.applyAsDouble(r);
            if (r.points1MiB() > 0 && !Double.isNaN(big)) {
                medians.addValue(big);
                w3 += big <= 3 ? 1 : 0;
                w10 += big <= 10 ? 1 : 0;
            }
            double below = belowMiB.applyAsDouble(r);
            if (r.pointsSmall() > 0 && !Double.isNaN(below)) {
                small++;
                small15 += below <= 15 ? 1 : 0;
            }
        }
        double med = ErrorStats.median(medians);
        return new AccuracySummary((int) medians.getN(), med, w3, w10, small, small15);
    }

    /**
     * The healthy datasets' figures with the shipped profile choice, out of sample ({@link #withChoice}).
     *
     * @param figures         the five figures, as {@link #of} counts them
     * @param profiled        of the datasets compared at >= 1 MiB, those a profile predicted (the others: bare)
     * @param profiledSmall   of the datasets with points below 1 MiB, those a profile predicted
     */
    public record WithChoice(AccuracySummary figures, int profiled, int profiledSmall) {

        /** @return the line the accuracy command prints under the bare model's */
        public String render() {
            return figures.render(String.format(Locale.ROOT, "Healthy datasets, with the shipped profile choice (each"
                    + " file predicted by the profile fitted without it; %d of %d at >= 1 MiB and %d of %d below by a"
                    + " profile, the rest by the bare model)", profiled, figures.healthy(), profiledSmall,
                    figures.healthySmall()));
        }
    }

    /**
     * The uncalibrated prediction band these rows support ({@link PredictionBand}): the median over the healthy
     * datasets of their median error below 1 MiB, and {@link #medianOfMedians} at 1 MiB and more.
     *
     * @param rows the accuracy table's rows
     * @return the band (0 where no healthy dataset has points in a regime)
     */
    public static PredictionBand band(List<AccuracyRow> rows) {
        DescriptiveStatistics small = new DescriptiveStatistics();
        rows.stream().filter(r -> healthy(r) && r.pointsSmall() > 0 && !Double.isNaN(r.uncalibratedSmall()))
                .forEach(r -> small.addValue(r.uncalibratedSmall()));
        AccuracySummary s = of(rows);
        return new PredictionBand(small.getN() == 0 ? 0 : ErrorStats.median(small),
                Double.isNaN(s.medianOfMedians()) ? 0 : s.medianOfMedians());
    }

    /** @return true when the row was compared and its file's header does not call its run a problem (RunHealth) */
    public static boolean healthy(AccuracyRow r) {
        return !RunHealth.problem(r.dataset().header().text("health"), r.dataset().label())
                && !"-".equals(r.hardwareClass());
    }

    /** @return one line per figure, as the accuracy command prints them under the table */
    public String render() {
        return render("Healthy datasets (header does not call the run a problem), uncalibrated");
    }

    private String render(String head) {
        return String.format(Locale.ROOT, "%s: %d "
                + "compared at >= 1 MiB; median of per-dataset medians %.1f %%; within 3 %%: %d of %d; within 10 %%: %d of %d; "
                + "below 1 MiB within 15 %%: %d of %d.%n", head, healthy, medianOfMedians, within3, healthy, within10,
                healthy, smallWithin15, healthySmall);
    }
}
