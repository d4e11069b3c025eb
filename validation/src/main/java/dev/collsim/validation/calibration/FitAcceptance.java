package dev.collsim.validation.calibration;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a converged fit is usable as a profile. A fit converging is not enough: the optimizer can stop at the
 * edge of a parameter's range, leave a parameter undetermined, land on a physically impossible value, or explain
 * the data badly. Each such cause gives one plain-words line; a fit with no line is accepted.
 *
 * <p>Rules (thresholds are collsim's own choices, stated here):
 * <ul>
 *   <li>a fitted parameter ended at a bound of its {@link FitParameter} range: the optimum lies outside the range,
 *       so the value is not an estimate;</li>
 *   <li>relative standard error sigma/|value| above {@value #MAX_RELATIVE_SE} (a parameter the data does not
 *       determine);</li>
 *   <li>a {@code bwEfficiency*} above 1: a fraction of NCCL's link-limited bandwidth above 1 means faster than
 *       the link, which no transfer achieves (PerformanceParameters' definition);</li>
 *   <li>median absolute error of the fitted model above {@value #MAX_MEDIAN_ERROR_PCT} %, on all points or on
 *       the held-out half (the model does not describe this data: mixed runs, or a run with a problem).</li>
 * </ul>
 */
public final class FitAcceptance {

    /** Largest accepted relative standard error of a fitted value (fraction). */
    public static final double MAX_RELATIVE_SE = 0.5;
    /** Largest accepted median absolute error, percent, on all points and on the held-out half. */
    public static final double MAX_MEDIAN_ERROR_PCT = 20.0;
    /** Largest physically possible bandwidth efficiency (fraction of NCCL's link-limited bandwidth). */
    public static final double MAX_EFFICIENCY = 1.0;

    private FitAcceptance() {
    }

    /**
     * One reason to refuse a fit.
     *
     * @param reason  in a few words, with the parameter's short label (e.g. "effLL at bound", "latScale RSE 75%",
     *                "hold-out 31.0%"), for tables
     * @param message in plain words, for calibrate's output
     */
    public record Refusal(String reason, String message) {
    }

    /**
     * @param c a fit
     * @return one line per reason to refuse it; empty when it is usable
     */
    public static List<String> problems(Calibration c) {
        return refusals(c).stream().map(Refusal::message).toList();
    }

    /**
     * @param c a fit
     * @return every reason to refuse it (rules of the class comment, in that order per parameter); empty when it
     *         is usable
     */
    public static List<Refusal> refusals(Calibration c) {
        List<Refusal> out = new ArrayList<>();
        for (FittedValue v : c.fitted()) {
            String label = FitParameter.ofField(v.name()).label();
            if (v.atBound()) {
                out.add(new Refusal(label + " at bound", String.format(Locale.ROOT, "%s ended at a bound of its "
                        + "range (%.4g): not an estimate; fit without it (--fit) or check the data", v.name(),
                        v.value())));
            }
            double rse = v.value() == 0 ? Double.POSITIVE_INFINITY : Math.abs(v.sigma() / v.value());
            if (!(rse <= MAX_RELATIVE_SE)) {
                String pct = Double.isInfinite(rse) ? "infinite" : String.format(Locale.ROOT, "%.0f%%", 100 * rse);
                out.add(new Refusal(label + " RSE " + pct, String.format(Locale.ROOT, "%s = %.4g +- %.3g: relative "
                        + "standard error %s > %.0f%%; the data does not determine it", v.name(), v.value(),
                        v.sigma(), pct, 100 * MAX_RELATIVE_SE)));
            }
            if (v.name().startsWith("bwEfficiency") && v.value() > MAX_EFFICIENCY) {
                // 3 digits, or 5 where 3 would round to 1.00 and hide why it is refused
                out.add(new Refusal(String.format(Locale.ROOT, v.value() < 1.005 ? "%s %.5g > 1" : "%s %.3g > 1",
                        label, v.value()),
                        String.format(Locale.ROOT, "%s = %.4g > 1: faster than the link, physically impossible",
                                v.name(), v.value())));
            }
        }
        if (c.residuals().n() > 0 && !(c.residuals().median() <= MAX_MEDIAN_ERROR_PCT)) {
            out.add(new Refusal(String.format(Locale.ROOT, "residual %.1f%%", c.residuals().median()),
                    String.format(Locale.ROOT, "median residual %.1f%% > %.0f%%: the model does not describe this "
                            + "data (mixed clusters or a run with a problem? run collsim diagnose)",
                            c.residuals().median(), MAX_MEDIAN_ERROR_PCT)));
        }
        if (c.holdTest().n() > 0 && !(c.holdTest().median() <= MAX_MEDIAN_ERROR_PCT)) {
            out.add(new Refusal(String.format(Locale.ROOT, "hold-out %.1f%%", c.holdTest().median()),
                    String.format(Locale.ROOT, "hold-out median error %.1f%% > %.0f%%: the fit does not predict "
                            + "sizes it was not fitted on", c.holdTest().median(), MAX_MEDIAN_ERROR_PCT)));
        }
        return List.copyOf(out);
    }
}
