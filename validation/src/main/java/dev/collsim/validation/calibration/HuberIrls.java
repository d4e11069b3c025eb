package dev.collsim.validation.calibration;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * Huber M-estimation by iteratively reweighted least squares (IRLS), the loss of every calibration fit
 * ({@link Fitter}).
 *
 * <p>Why: least squares minimises the sum of squared residuals, so its breakdown point is 0: one point far from the
 * model (a warm-up hiccup such as the 8 B call of the xe9680 runs at -62 %, a run on a fabric the model does not
 * describe) pulls the parameters in proportion to its residual, as far as it needs. Huber's loss is quadratic up to
 * {@code k s} and linear beyond, so a point's pull is capped at {@code k s}: points within it are fitted as by least
 * squares, points beyond count with weight {@code k s / |r|}. Its objective is convex, so the estimate is unique for a
 * model linear in its parameters. It bounds the pull of single points; it does not stop a class in which most points
 * disagree with the model (then the scale is large and no point is far by it).
 *
 * <p>The estimate solves sum_i h_i psi(r_i / s) dr_i/dtheta = 0 with psi(u) = max(-k, min(k, u)) (Huber 1964,
 * "Robust estimation of a location parameter", Ann. Math. Statist. 35, 73-101), by IRLS (Holland and Welsch 1977,
 * "Robust regression using iteratively reweighted least-squares", Commun. Statist. A6, 813-827): start from the
 * least-squares fit; from its residuals set each group's scale s = median |r_i| / {@value #MAD_CONSISTENCY} over the
 * group (the median absolute residual made consistent for the standard deviation of normal errors:
 * Phi^-1(0.75) = 0.6745) and the weights h_i = 1 where |r_i| &lt;= k s, else k s / |r_i|; refit weighted least
 * squares with h_i on top of the fit's own weights; repeat until the residuals change by at most
 * {@value #TOLERANCE} (relative, sqrt(sum (r_new - r_old)^2 / sum r_old^2)) or give up after
 * {@value #MAX_ITERATIONS} refits. The stop rule is rlm's (see {@link #TOLERANCE}). k = {@value #TUNING} gives 95 %
 * of least squares' efficiency when the errors are
 * normal (Huber 1981, Robust Statistics, section 4.6); re-estimating s from the median absolute residual at each step
 * is also what Venables and Ripley's rlm does (Modern Applied Statistics with S, 4th ed., section 6.5). The groups
 * let the scale differ where the errors differ in size: the calibration's groups are the two size regimes of the
 * bands (below 1 MiB, at 1 MiB and more), whose residual scales differ (measured, hopper-infiniband fitted without
 * the 2x4 H100 file: 19.1 % below 1 MiB, 8.6 % at 1 MiB and more); one scale would judge the bandwidth-bound points
 * by the latency-bound points' larger spread and down-weight none of them. A scale of 0 (half the group's points or
 * more fitted exactly), or one below {@link #MIN_SCALE} (the rounding of printed times), leaves its weights at 1.
 * Stateless.
 */
public final class HuberIrls {

    /** Huber's tuning constant k, in units of the scale s (95 % efficiency at the normal; see the class comment). */
    public static final double TUNING = 1.345;
    /** Phi^-1(0.75): median |r| / this is the standard deviation of normal residuals r. */
    public static final double MAD_CONSISTENCY = 0.6745;
    /**
     * Smallest residual scale (relative) the weights act on: 1e-4 (0.01 %). Below it the residuals are the rounding
     * of the times as printed (nccl-tests prints 4 significant digits, e.g. "141.9" us, up to 0.035 % apart from
     * the time), not disagreement between model and run, so there is no far point to judge and the weights stay 1
     * (the fit is least squares'). Measured classes have scales of several percent.
     */
    public static final double MIN_SCALE = 1e-4;
    /**
     * Largest number of reweighted refits: 50, more than rlm's default {@code maxit = 20} (MASS 7.3-65, R/rlm.R line
     * 70). rlm only warns when it runs out ("failed to converge", line 196) and returns the fit; the calibration
     * refuses the fit instead, so its cap must let a slow but steady iteration finish. IRLS converges linearly: the
     * change shrinks by a ratio q per refit, so reaching {@link #TOLERANCE} from a first change c_1 takes
     * 1 + ln(TOLERANCE / c_1) / ln q refits. Measured, A-allreduce-4x8xH100-voltagepark-ib-nccl2.24 (Simple
     * efficiency alone): c_1 = 3.3e-2 and 4.5e-5 at the 50th refit, so q = 0.87 on average and about 44 refits to
     * reach 1e-4; with 20 it would be refused. A fit that does not settle at all (q near 1, or swinging) is still
     * refused after 50 refits.
     */
    public static final int MAX_ITERATIONS = 50;
    /**
     * Relative change of the residuals at or below which the iteration stops: 1e-4, rlm's default {@code acc = 1e-4}
     * with {@code test.vec = "resid"} (Venables and Ripley's MASS package, 7.3-65, R/rlm.R line 70), tested as
     * {@code convi <= acc} (line 192) on irls.delta, sqrt(sum (old - new)^2 / sum old^2) (lines 72-73), the change
     * computed here. Residuals are relative times (several percent), so 1e-4 of their norm is far below the
     * printed times' rounding (4 significant digits).
     */
    public static final double TOLERANCE = 1e-4;

    private HuberIrls() {
    }

    /**
     * A weighted least-squares fit the iteration calls.
     *
     * @param <T> the fit
     * @param <E> what the fit may throw (passed through)
     */
    public interface WeightedFit<T, E extends Exception> {

        /**
         * @param weights robustness weight per point, 0..1 (all 1 for the first, least-squares, fit); a point's
         *                squared residual counts h times
         * @return the fit
         * @throws E when the fit fails
         */
        T fit(double[] weights) throws E;

        /**
         * @param fit a fit
         * @return its residual per point, unweighted (the scale and weights are made from them)
         */
        double[] residuals(T fit);
    }

    /**
     * The result.
     *
     * @param fit        the last fit, made with {@code weights}
     * @param weights    the robustness weight per point at the last fit, 0..1
     * @param scales     per group, the scale s of the last fit's residuals (median |r| / {@value #MAD_CONSISTENCY})
     * @param iterations  refits after the least-squares one
     * @param converged   false when {@value #MAX_ITERATIONS} refits did not reach {@value #TOLERANCE}
     * @param firstChange the relative change of the residuals at the first refit (see the class comment)
     * @param lastChange  the relative change of the residuals at the last refit: at most {@value #TOLERANCE} when
     *                    converged; a failed iteration whose last change is far below its first was still settling
     *                    slowly, one whose last change stays near its first did not settle at all
     * @param <T>         the fit
     */
    public record Result<T>(T fit, double[] weights, double[] scales, int iterations, boolean converged,
            double firstChange, double lastChange) {

        /** Copies. */
        public Result {
            weights = weights.clone();
            scales = scales.clone();
        }

        /** @return a copy of the scales */
        @Override
        public double[] scales() {
            return scales.clone();
        }

        /** @return a copy of the weights */
        @Override
        public double[] weights() {
            return weights.clone();
        }
    }

    /**
     * @param groups per point, the group whose residuals set its scale (0, 1, ...; one group: all 0)
     * @param solver the weighted fit
     * @param <T>    the fit
     * @param <E>    what the fit may throw
     * @return the Huber fit
     * @throws E when a fit of the iteration fails
     */
    public static <T, E extends Exception> Result<T> fit(int[] groups, WeightedFit<T, E> solver) throws E {
        double[] h = new double[groups.length];
        Arrays.fill(h, 1.0);
        T fit = solver.fit(h);
        double[] r = solver.residuals(fit);
        double first = Double.NaN;
        double change = Double.NaN;
        for (int it = 1; it <= MAX_ITERATIONS; it++) {
            h = weights(r, groups);
            fit = solver.fit(h);
            double[] next = solver.residuals(fit);
            change = change(r, next);
            first = it == 1 ? change : first;
            r = next;
            if (change <= TOLERANCE) {
                return new Result<>(fit, h, scales(r, groups), it, true, first, change);
            }
        }
        return new Result<>(fit, h, scales(r, groups), MAX_ITERATIONS, false, first, change);
    }

    /**
     * @param r      residuals
     * @param groups per residual, its group (0, 1, ...)
     * @return per group g (index g, up to the largest group), s_g = median |r| over the group's residuals /
     *         {@value #MAD_CONSISTENCY} (0 for a group without a residual)
     */
    public static double[] scales(double[] r, int[] groups) {
        int k = Arrays.stream(groups).max().orElse(-1) + 1;
        double[] s = new double[k];
        for (int g = 0; g < k; g++) {
            int gg = g;
            double[] abs = IntStream.range(0, r.length).filter(i -> groups[i] == gg)
                    .mapToDouble(i -> Math.abs(r[i])).toArray();
            s[g] = abs.length == 0 ? 0 : new Median().evaluate(abs) / MAD_CONSISTENCY;
        }
        return s;
    }

    /**
     * @param r      residuals
     * @param groups per residual, its group (0, 1, ...), whose scale s ({@link #scales}) it is judged by
     * @return Huber's weight per residual: 1 where |r| &lt;= k s, else k s / |r| (1 where s is below
     *         {@link #MIN_SCALE})
     */
    public static double[] weights(double[] r, int[] groups) {
        double[] s = scales(r, groups);
        double[] h = new double[r.length];
        for (int i = 0; i < r.length; i++) {
            double ks = TUNING * s[groups[i]];
            double a = Math.abs(r[i]);
            h[i] = s[groups[i]] >= MIN_SCALE && a > ks ? ks / a : 1.0;
        }
        return h;
    }

    private static double change(double[] old, double[] next) {
        double d = 0;
        double o = 0;
        for (int i = 0; i < old.length; i++) {
            d += (next[i] - old[i]) * (next[i] - old[i]);
            o += old[i] * old[i];
        }
        return o == 0 ? Math.sqrt(d) : Math.sqrt(d / o);
    }
}
