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
     * @param c a fit
     * @return one line per reason to refuse it; empty when it is usable
     */
    public static List<String> problems(Calibration c) {
        List<String> out = new ArrayList<>();
        for (FittedValue v : c.fitted()) {
            if (v.atBound()) {
                out.add(String.format(Locale.ROOT, "%s ended at a bound of its range (%.4g): not an estimate; fit "
                        + "without it (--fit) or check the data", v.name(), v.value()));
            }
            double rse = v.value() == 0 ? Double.POSITIVE_INFINITY : Math.abs(v.sigma() / v.value());
            if (!(rse <= MAX_RELATIVE_SE)) {
                out.add(String.format(Locale.ROOT, "%s = %.4g +- %.3g: relative standard error %s > %.0f%%; the data "
                        + "does not determine it", v.name(), v.value(), v.sigma(),
                        Double.isInfinite(rse) ? "infinite" : String.format(Locale.ROOT, "%.0f%%", 100 * rse),
                        100 * MAX_RELATIVE_SE));
            }
            if (v.name().startsWith("bwEfficiency") && v.value() > MAX_EFFICIENCY) {
                out.add(String.format(Locale.ROOT, "%s = %.4g > 1: faster than the link, physically impossible",
                        v.name(), v.value()));
            }
        }
        if (c.residuals().n() > 0 && !(c.residuals().median() <= MAX_MEDIAN_ERROR_PCT)) {
            out.add(String.format(Locale.ROOT, "median residual %.1f%% > %.0f%%: the model does not describe this data "
                    + "(mixed clusters or a run with a problem? run collsim diagnose)", c.residuals().median(),
                    MAX_MEDIAN_ERROR_PCT));
        }
        if (c.holdTest().n() > 0 && !(c.holdTest().median() <= MAX_MEDIAN_ERROR_PCT)) {
            out.add(String.format(Locale.ROOT, "hold-out median error %.1f%% > %.0f%%: the fit does not predict sizes "
                    + "it was not fitted on", c.holdTest().median(), MAX_MEDIAN_ERROR_PCT));
        }
        return List.copyOf(out);
    }
}
