package dev.collsim.validation.compare;

import java.util.Locale;

/**
 * A multiplicative prediction band per size regime: a point predicted at {@code p} microseconds has the band
 * {@code [p / f, p x f]} with the factor {@code f = 1 + percent / 100 = e^r}, r the band's half-width in log space
 * (|ln(measured / predicted)|). It is symmetric in the ratio (a measured time 3x the prediction and one a third of it
 * are equally far) and its low end is never 0 or negative. Printed as {@code factor 1.25 (-20 % .. +25 %)}: the factor,
 * then how far below and above the prediction the band reaches.
 *
 * <p>The uncalibrated band ({@link #UNCALIBRATED}) is the accuracy command's typical error over the healthy public
 * datasets (the median over datasets of each dataset's median absolute percentage error of time): half the datasets do
 * at least this well. A shipped calibration profile and the shipped bare-model bands carry a 95 % band of this form
 * (calibration {@code ClassBands} / {@code PooledBand}: the 95th percentile of |ln(measured / predicted)| per regime,
 * each file weighing the same, checked out of sample leaving one file out). A calibrated comparison uses the calibration's
 * own 95 % band instead ({@link Comparer}). Immutable.
 *
 * @param belowMiBPercent   below 1 MiB: how far above the prediction the band reaches, percent, >= 0 (factor
 *                          1 + percent / 100)
 * @param atLeastMiBPercent at 1 MiB and more: the same, percent, >= 0
 */
public record PredictionBand(double belowMiBPercent, double atLeastMiBPercent) {

    /**
     * The uncalibrated model's band: the last lines of {@code collsim accuracy validation/src/test/resources/data}
     * (model defaults, each file modelled by its NCCL release, 2026-12-07, 164 healthy datasets; "uncalibrated band"
     * line). AccuracyGateTest checks it against a fresh run.
     */
    public static final PredictionBand UNCALIBRATED = new PredictionBand(8.2, 5.3);

    /**
     * Upper reach, percent, above which a band is flagged in the output as wide: factor 2, the measured time may then
     * be more than twice or less than half the prediction (collsim's choice, the "say so" threshold of the accuracy
     * report).
     */
    public static final double WIDE_PERCENT = 100;

    /** @throws IllegalArgumentException on a negative or non-finite percentage */
    public PredictionBand {
        if (!(belowMiBPercent >= 0 && belowMiBPercent < 1e6 && atLeastMiBPercent >= 0 && atLeastMiBPercent < 1e6)) {
            throw new IllegalArgumentException("band percentages must be >= 0, got " + belowMiBPercent + ", "
                    + atLeastMiBPercent);
        }
    }

    /**
     * @param predictedUs a prediction, microseconds, > 0
     * @param measuredUs  a measured time, microseconds, > 0
     * @return the point's band residual as an upper reach in percent: (max(m / p, p / m) - 1) x 100, i.e.
     *         (e^|ln(m / p)| - 1) x 100; a band holds the point exactly when its percent is at least this
     */
    public static double residualPercent(double predictedUs, double measuredUs) {
        return 100 * (Math.max(measuredUs / predictedUs, predictedUs / measuredUs) - 1);
    }

    /**
     * @return true when a regime's factor, as printed ({@link #stored} reach), exceeds 1 + {@link #WIDE_PERCENT} / 100:
     *         the mark and the printed figure follow the same value
     */
    public boolean wide() {
        return wide(belowMiBPercent) || wide(atLeastMiBPercent);
    }

    private static boolean wide(double percent) {
        return stored(percent) > WIDE_PERCENT;
    }

    /**
     * @return "" for a band within {@link #WIDE_PERCENT}, else a note naming the wide regime(s), starting with a
     *         space, e.g. {@code " (wide below 1 MiB: the measured time can be more than twice or less than half
     *         the prediction)"}
     */
    public String wideNote() {
        if (!wide()) {
            return "";
        }
        String where = wide(belowMiBPercent) && wide(atLeastMiBPercent) ? "at every size"
                : wide(belowMiBPercent) ? "below 1 MiB" : "at >= 1 MiB";
        return String.format(Locale.ROOT, " (wide %s: the measured time can be more than %.0fx or less than 1/%.0f of"
                + " the prediction)", where, 1 + WIDE_PERCENT / 100, 1 + WIDE_PERCENT / 100);
    }

    /** @param sizeBytes nccl-tests size; @return the band's factor for that size, >= 1 */
    public double factor(long sizeBytes) {
        return 1 + (sizeBytes >= Regime.ONE_MIB ? atLeastMiBPercent : belowMiBPercent) / 100;
    }

    /** @param predictedUs prediction, microseconds; @param sizeBytes size; @return the band's low end, > 0 */
    public double low(double predictedUs, long sizeBytes) {
        return predictedUs / factor(sizeBytes);
    }

    /** @param predictedUs prediction, microseconds; @param sizeBytes size; @return the band's high end */
    public double high(double predictedUs, long sizeBytes) {
        return predictedUs * factor(sizeBytes);
    }

    /**
     * @param predictedUs prediction, microseconds, > 0
     * @param measuredUs  measured time, microseconds, > 0
     * @param sizeBytes   size
     * @return true when the measured time lies in [low, high] (with a relative slack of 1e-12 for rounding)
     */
    public boolean holds(double predictedUs, double measuredUs, long sizeBytes) {
        double reach = (sizeBytes >= Regime.ONE_MIB ? atLeastMiBPercent : belowMiBPercent);
        return residualPercent(predictedUs, measuredUs) <= reach * (1 + 1e-12) + 1e-10;
    }

    /**
     * One regime in words. A figure never rounds onto the wide threshold: a factor that would print "2.00" but is
     * not exactly 2 (1.9985, 2.004) gets the decimals that tell which side it is on ("1.998", "2.004"), as do the
     * reach next to +100 % and the low end next to -50 %, so the "(wide)" mark ({@link #wide}, factor above 2) and
     * the printed figure never disagree.
     *
     * @param percent upper reach, percent, >= 0
     * @return one regime in words, e.g. {@code "factor 1.25 (-20.0 % .. +25.0 %)"}
     */
    public static String words(double percent) {
        double p = stored(percent);
        double f = 1 + p / 100;
        double wideFactor = 1 + WIDE_PERCENT / 100;
        return "factor " + figure(f, wideFactor, 2) + " (-" + figure(100 * (1 - 1 / f), 100 * (1 - 1 / wideFactor), 1)
                + " % .. +" + figure(p, WIDE_PERCENT, 1) + " %)";
    }

    /**
     * @param value     a figure to print
     * @param threshold the wide threshold that figure is judged against
     * @param decimals  the usual decimals
     * @return the value with {@code decimals} decimals, or up to 2 more while it would print as the threshold
     *         without being it
     */
    private static String figure(double value, double threshold, int decimals) {
        int d = decimals;
        String at = format(threshold, d);
        String text = format(value, d);
        while (text.equals(at) && value != threshold && d < decimals + 2) {
            d++;
            at = format(threshold, d);
            text = format(value, d);
        }
        return text;
    }

    private static String format(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /**
     * The one rounding of a band's reach: calibration files ({@code bare-model-bands.yaml}, profiles) store it to
     * 2 decimals, and every printer formats this stored value, so a band printed from the fit that wrote it and
     * the same band read back from the file give the same text (195.9478 is stored 195.95 and printed +196.0 by both,
     * not +195.9 by one and +196.0 by the other). The reach is rounded UP, so the stored band is never narrower than
     * the one the fit measured and keeps every point that set it (rounding half-down could drop the point at the
     * band's edge when the file is read back). A reach within 1e-9 of a hundredth above it is taken as that hundredth
     * (binary noise: 1.1 * 100 = 110.00000000000001). Source: collsim's own file format (no physical constant).
     *
     * @param percent upper reach, percent
     * @return the reach as the calibration files store it: rounded up to 2 decimals, NaN kept
     */
    public static double stored(double percent) {
        return Double.isNaN(percent) ? Double.NaN : Math.ceil(percent * 100 - 1e-9) / 100.0;
    }

    /** @return this band as calibration files store it and read it back: both reaches {@link #stored} */
    public PredictionBand asStored() {
        return new PredictionBand(stored(belowMiBPercent), stored(atLeastMiBPercent));
    }

    /** @return both regimes in words, e.g. {@code "factor 1.25 (-20.0 % .. +25.0 %) below 1 MiB, factor ... at >= 1 MiB"} */
    public String regimes() {
        return words(belowMiBPercent) + " below 1 MiB, " + words(atLeastMiBPercent) + " at >= 1 MiB";
    }

    /** @param source where the band comes from, in words; @return the band in words, for tables */
    public String describeAs(String source) {
        return source + ": " + regimes() + wideNote();
    }

    /** @return the band in words, for tables */
    public String describe() {
        return "uncalibrated typical error: " + regimes();
    }
}
