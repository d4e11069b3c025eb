package dev.collsim.validation.calibration;

import dev.collsim.validation.compare.ErrorStats;
import dev.collsim.validation.compare.PredictionBand;
import dev.collsim.validation.ingest.RunHealth;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

/**
 * The headline figures of the accuracy table over the healthy datasets: those compared (a model time exists) whose
 * file header does not report the run as broken ({@code #@ health: problem ...}, or per run: {@link RunHealth}).
 * Errors are the rows' uncalibrated per-dataset medians (absolute percentage error of time), so a summary says how the bare model does.
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
        DescriptiveStatistics medians = new DescriptiveStatistics();
        int w3 = 0;
        int w10 = 0;
        int small = 0;
        int small15 = 0;
        for (AccuracyRow r : rows) {
            if (!healthy(r)) {
                continue;
            }
            if (r.points1MiB() > 0 && !Double.isNaN(r.uncalibrated())) {
                medians.addValue(r.uncalibrated());
                w3 += r.uncalibrated() <= 3 ? 1 : 0;
                w10 += r.uncalibrated() <= 10 ? 1 : 0;
            }
            if (r.pointsSmall() > 0 && !Double.isNaN(r.uncalibratedSmall())) {
                small++;
                small15 += r.uncalibratedSmall() <= 15 ? 1 : 0;
            }
        }
        double med = ErrorStats.median(medians);
        return new AccuracySummary((int) medians.getN(), med, w3, w10, small, small15);
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
        return String.format(Locale.ROOT, "Healthy datasets (header does not call the run a problem), uncalibrated: %d "
                + "compared at >= 1 MiB; median of per-dataset medians %.1f %%; within 3 %%: %d of %d; within 10 %%: %d of %d; "
                + "below 1 MiB within 15 %%: %d of %d.%n", healthy, medianOfMedians, within3, healthy, within10,
                healthy, smallWithin15, healthySmall);
    }
}
