package dev.collsim.validation.compare;

import java.util.Locale;

/**
 * The band an uncalibrated prediction carries: its typical relative error per size regime, so a reader sees how far
 * to trust a number before any calibration. The figures are the accuracy command's over the healthy public datasets
 * (the median over datasets of each dataset's median absolute percentage error of time, below 1 MiB and at 1 MiB and
 * more): half the datasets do at least this well. A point's band is {@code [predicted x (1 - r), predicted x
 * (1 + r)]}. A shipped calibration profile carries its own band of this form (calibration {@code ProfileBuilder}:
 * the 95th percentile of its leave-one-out residuals per regime; its share of points inside is checked leaving
 * one file out: each file against the band made from the other files). A calibrated comparison uses the calibration's own 95 % band instead ({@link Comparer}). Immutable.
 *
 * @param belowMiBPercent   typical error below 1 MiB, percent, >= 0
 * @param atLeastMiBPercent typical error at 1 MiB and more, percent, >= 0
 */
public record PredictionBand(double belowMiBPercent, double atLeastMiBPercent) {

    /**
     * The uncalibrated model's band: the last lines of {@code collsim accuracy validation/src/test/resources/data}
     * (NCCL 2.30.7 model defaults, 2026-12-04; "uncalibrated band" line). AccuracyGateTest checks it against a
     * fresh run.
     */
    public static final PredictionBand UNCALIBRATED = new PredictionBand(18.9, 10.1);

    /** @throws IllegalArgumentException on a negative or non-finite percentage */
    public PredictionBand {
        if (!(belowMiBPercent >= 0 && belowMiBPercent < 1e6 && atLeastMiBPercent >= 0 && atLeastMiBPercent < 1e6)) {
            throw new IllegalArgumentException("band percentages must be >= 0, got " + belowMiBPercent + ", "
                    + atLeastMiBPercent);
        }
    }

    /**
     * Half-width, percent, above which a band is flagged in the output as wide: the measured time may then be more
     * than twice the prediction (collsim's choice, the "say so" threshold of the accuracy report).
     */
    public static final double WIDE_PERCENT = 100;

    /** @return true when a regime's half-width exceeds {@link #WIDE_PERCENT} */
    public boolean wide() {
        return belowMiBPercent > WIDE_PERCENT || atLeastMiBPercent > WIDE_PERCENT;
    }

    /**
     * @return "" for a band within {@link #WIDE_PERCENT}, else a note naming the wide regime(s), starting with a
     *         space, e.g. {@code " (wide: > +/-100 % below 1 MiB; the measured time can be more than twice the
     *         prediction)"}
     */
    public String wideNote() {
        if (!wide()) {
            return "";
        }
        String where = belowMiBPercent > WIDE_PERCENT && atLeastMiBPercent > WIDE_PERCENT ? "at every size"
                : belowMiBPercent > WIDE_PERCENT ? "below 1 MiB" : "at >= 1 MiB";
        return String.format(Locale.ROOT, " (wide: > +/-%.0f %% %s; the measured time can be more than twice the "
                + "prediction)", WIDE_PERCENT, where);
    }

    /** @param sizeBytes nccl-tests size; @return the relative half-width for that size, as a fraction */
    public double relative(long sizeBytes) {
        return (sizeBytes >= 1 << 20 ? atLeastMiBPercent : belowMiBPercent) / 100;
    }

    /** @param source where the band comes from, in words; @return the band in words, for tables */
    public String describeAs(String source) {
        return String.format(Locale.ROOT, "%s: +/-%.1f %% below 1 MiB, +/-%.1f %% at >= 1 MiB", source,
                belowMiBPercent, atLeastMiBPercent) + wideNote();
    }

    /** @return the band in words, for tables */
    public String describe() {
        return String.format(Locale.ROOT, "uncalibrated typical error: +/-%.1f %% below 1 MiB, +/-%.1f %% at >= 1 MiB",
                belowMiBPercent, atLeastMiBPercent);
    }
}
