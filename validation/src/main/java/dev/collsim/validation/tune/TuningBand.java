package dev.collsim.validation.tune;

import dev.collsim.validation.calibration.Calibration;
import dev.collsim.validation.compare.PredictionBand;
import dev.collsim.validation.compare.Regime;
import java.util.Locale;

/**
 * How sure the model is of a predicted gain: a predicted gain (percent of NCCL's choice's predicted time) is only
 * acted on when it exceeds {@link #percent()}. The one place the band is decided.
 *
 * <p>With a calibration, the band is the 90th percentile of the fit's absolute percentage residuals (the profile's
 * {@code residualsPercent.p90}): nine in ten fitted points were predicted closer than this, so a gain smaller than it
 * cannot be told from the model's own error. Without a calibration (the default parameters), the band is the
 * default model's recorded accuracy over the public datasets: the median over datasets of the median absolute
 * percentage error of time at sizes of at least 1 MiB, {@link PredictionBand#UNCALIBRATED} (the accuracy gate's
 * {@code medianOfMedians}, validation/src/test/resources/accuracy-gate.properties). That is a
 * median, not a p90, so uncalibrated advice is weaker than calibrated advice; the source says so. Where the cluster's
 * class has a shipped band ({@code ProfileSelector}, printed on the {@code calibration:} line), that band is used
 * ({@link #ofClass}), one figure per regime (nccl-tests size below 1 MiB and at 1 MiB and more, as
 * {@link PredictionBand#relative}), so the band printed and the band judged with are the same.
 *
 * @param belowMiBPercent   band at nccl-tests sizes below 1 MiB (1048576 B), percent of NCCL's choice's time, > 0
 * @param atLeastMiBPercent band at sizes of 1 MiB and more, percent, > 0
 * @param source            where the figures come from, in words
 */
public record TuningBand(double belowMiBPercent, double atLeastMiBPercent, String source) {

    /**
     * Median of per-dataset median errors of the default model at >= 1 MiB, percent: the uncalibrated prediction
     * band's figure ({@link PredictionBand#UNCALIBRATED}, the accuracy gate's medianOfMedians).
     */
    public static final double UNCALIBRATED_PERCENT = PredictionBand.UNCALIBRATED.atLeastMiBPercent();

    /** The band of the default parameters (no calibration). */
    public static final TuningBand UNCALIBRATED = new TuningBand(UNCALIBRATED_PERCENT,
            "default parameters: median error of the default model over the public datasets (sizes >= 1 MiB), "
            + "a median, not a p90");

    /** @throws IllegalArgumentException when a percent is not a positive finite number */
    public TuningBand {
        for (double percent : new double[] {belowMiBPercent, atLeastMiBPercent}) {
            if (!(percent > 0) || Double.isInfinite(percent)) {
                throw new IllegalArgumentException("band percent must be > 0 and finite, got " + percent);
            }
        }
    }

    /**
     * @param percent the band at every size, percent, > 0
     * @param source  where the figure comes from, in words
     */
    public TuningBand(double percent, String source) {
        this(percent, percent, source);
    }

    /**
     * @param band   a class's shipped band (ProfileSelector), both regimes > 0
     * @param source where it comes from, in words
     * @return the band judged with per regime
     */
    public static TuningBand ofClass(PredictionBand band, String source) {
        return new TuningBand(band.belowMiBPercent(), band.atLeastMiBPercent(), source);
    }

    /**
     * @param sizeBytes nccl-tests size, bytes
     * @return the band at that size, percent
     */
    public double percentAt(long sizeBytes) {
        return sizeBytes >= Regime.ONE_MIB ? atLeastMiBPercent : belowMiBPercent;
    }

    /** @return the band in words: {@code 10.1 %}, or {@code 31.9 % below 1 MiB, 50.1 % at >= 1 MiB} */
    public String text() {
        return belowMiBPercent == atLeastMiBPercent ? String.format(Locale.ROOT, "%.1f %%", PredictionBand.stored(atLeastMiBPercent))
                : String.format(Locale.ROOT, "%.1f %% below 1 MiB, %.1f %% at >= 1 MiB",
                PredictionBand.stored(belowMiBPercent), PredictionBand.stored(atLeastMiBPercent));
    }

    /**
     * @param c a calibration, with or without residuals (a profile written before they were recorded has none)
     * @return {@link #of(Calibration)} when it has residuals, else {@link #UNCALIBRATED}
     */
    public static TuningBand forCalibration(Calibration c) {
        return c.residuals().n() == 0 || !(c.residuals().p90() > 0) ? UNCALIBRATED : of(c);
    }

    /**
     * @param c a calibration with residuals
     * @return the band of that calibration: the p90 of its fit's absolute percentage residuals
     * @throws IllegalArgumentException when the calibration has no residuals
     */
    public static TuningBand of(Calibration c) {
        if (c.residuals().n() == 0 || !(c.residuals().p90() > 0)) {
            throw new IllegalArgumentException("the calibration has no residuals to derive a band from");
        }
        return new TuningBand(c.residuals().p90(), String.format(Locale.ROOT,
                "p90 of the calibration fit's residuals (%d points)", c.residuals().n()));
    }
}
