package dev.collsim.validation.calibration;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.validation.compare.ErrorStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.commons.math3.exception.ConvergenceException;
import org.apache.commons.math3.exception.TooManyEvaluationsException;
import org.apache.commons.math3.exception.TooManyIterationsException;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresProblem;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.linear.SingularMatrixException;
import org.apache.commons.math3.linear.SingularValueDecomposition;
import org.apache.commons.math3.util.Pair;

/**
 * Robust weighted fit of {@link PerformanceParameters} to measured times: Huber M-estimation ({@link HuberIrls}),
 * each reweighted least-squares step solved with Commons Math's {@link LevenbergMarquardtOptimizer}.
 *
 * <p>Residual of a point: (predicted - measured) / measured, weighted by 1/sqrt(points of its dataset) so each
 * dataset weighs the same whatever its number of sizes (relative errors, as the accuracy target is stated), and by
 * the square root of its Huber weight, so that a point further than {@value HuberIrls#TUNING} residual scales from
 * the fit pulls no harder than one at that distance (one far-off run does not set the parameters).
 * Unknowns are multipliers u of the start values (value = start x u), which keeps the problem scaled; the
 * Jacobian is by central differences. Parameters the data does not constrain (gradient below 1e-6 everywhere,
 * e.g. LL efficiency when no point runs LL) are left at their start value and named in the notes with why
 * ({@link FitAdvice#insensitive}: which points it could move, and what binds them). A fit is
 * refused when the optimizer does not converge within its budget, when fewer than p + 2 points are given, or
 * when the scaled Jacobian's condition number exceeds 1e6 (the data cannot tell some parameters apart); the
 * message names the combination and says why in terms of the sizes and the model's picks ({@link FitAdvice}: a
 * missing size regime, launch overhead and latency scale moving the time alike, or a column of zeros at the values
 * the fit reached, with the parameter its points depend on there) (each check on every reweighted step). Standard errors, of the last reweighted
 * step: sqrt(diag((J'WJ)^-1) x RSS_W/(N - p)), W the dataset and Huber weights.
 */
public final class Fitter {

    /** Largest condition number of the scaled Jacobian a fit may have. */
    public static final double MAX_CONDITION = 1e6;
    private static final int MAX_EVALUATIONS = 4000;

    private final Set<FitParameter> candidates;
    private final boolean dropIllConditioned;

    /**
     * @param candidates         the parameters to try to fit
     * @param dropIllConditioned when the fit is ill-conditioned, drop the parameter the data determines least and
     *                           refit (noted), instead of refusing; a single remaining parameter is still refused
     */
    public Fitter(Set<FitParameter> candidates, boolean dropIllConditioned) {
        this.candidates = EnumSet.copyOf(candidates);
        this.dropIllConditioned = dropIllConditioned;
    }

    /** A fitter for every {@link FitParameter} that refuses ill-conditioned fits. */
    public Fitter() {
        this(EnumSet.allOf(FitParameter.class), false);
    }

    /**
     * @param series the data (at least one point)
     * @param start  parameters to start from (and to keep for what is not fitted)
     * @param holdOut true to also run the hold-out check (fit on even-indexed sizes, test on odd ones)
     * @return the calibration
     * @throws CalibrationException when the fit is refused (see the class comment)
     */
    public Calibration fit(List<Series> series, PerformanceParameters start, boolean holdOut)
            throws CalibrationException {
        GpuGeneration gen = generation(series);
        Problem all = new Problem(series, start, gen, null);
        List<String> notes = new ArrayList<>();
        List<FitParameter> free = new ArrayList<>(identifiable(all, notes));
        if (free.isEmpty()) {
            throw new CalibrationException("nothing constrained", FitAdvice.unconstrained(all, candidates));
        }
        int n = all.count();
        if (n < free.size() + 2) {
            throw new CalibrationException("too few points (" + n + " for " + free.size() + ")", "too few points: "
                    + n + " points for " + free.size() + " parameters (" + names(free) + "); need at least "
                    + (free.size() + 2));
        }
        Solution sol = null;
        while (sol == null) {
            try {
                sol = solve(all, free);
            } catch (IllConditioned e) {
                if (!dropIllConditioned || free.size() == 1) {
                    throw new CalibrationException("ill-conditioned", e.getMessage());
                }
                notes.add(e.weakest.field() + " kept at " + e.weakest.get(start, gen) + " " + e.weakest.unit() + ": "
                        + e.getMessage());
                free.remove(e.weakest);
            }
        }
        if (sol.downweighted() > 0) {
            double[] s = sol.scales();
            notes.add(String.format(Locale.ROOT, "robust fit: %d of %d points beyond %.3g x their regime's residual"
                    + " scale (%s below 1 MiB, %s at >= 1 MiB) count with Huber weights below 1", sol.downweighted(),
                    n, HuberIrls.TUNING, s.length > 0 ? String.format(Locale.ROOT, "%.1f %%", 100 * s[0]) : "-",
                    s.length > 1 ? String.format(Locale.ROOT, "%.1f %%", 100 * s[1]) : "-"));
        }
        ErrorStats train = ErrorStats.NONE;
        ErrorStats test = ErrorStats.NONE;
        if (holdOut) {
            Problem even = new Problem(series, start, gen, Boolean.TRUE);
            Problem odd = new Problem(series, start, gen, Boolean.FALSE);
            if (even.count() >= free.size() + 2 && odd.count() > 0) {
                Solution h;
                try {
                    h = solve(even, free);
                } catch (IllConditioned e) {
                    throw new CalibrationException("hold-out fit ill-conditioned", "hold-out fit: " + e.getMessage());
                }
                train = even.errors(h.params());
                test = odd.errors(h.params());
            } else {
                notes.add("hold-out check skipped: " + even.count() + " training points for " + free.size()
                        + " parameters");
            }
        }
        List<FittedValue> values = new ArrayList<>();
        double[][] cov = new double[free.size()][free.size()];
        for (int a = 0; a < free.size(); a++) {
            FitParameter fa = free.get(a);
            double s0 = fa.get(start, gen);
            double v = fa.get(sol.params(), gen);
            for (int b = 0; b < free.size(); b++) {
                cov[a][b] = sol.cov()[a][b] * s0 * free.get(b).get(start, gen);
            }
            boolean atBound = Math.abs(v - fa.lo()) < 1e-9 * Math.max(1, fa.hi()) || Math.abs(v - fa.hi()) < 1e-9 * fa.hi();
            if (atBound) {
                notes.add(fa.field() + " ended at the edge of its range [" + fa.lo() + ", " + fa.hi() + "]");
            }
            values.add(new FittedValue(fa.field(), v, Math.sqrt(Math.max(0, cov[a][a])), s0, atBound));
        }
        List<String> sources = series.stream().map(s -> s.dataset().id() + ", " + s.calls().size() + " points")
                .toList();
        return new Calibration(sol.params(), gen, values, cov, notes, all.errors(sol.params()), train, test,
                sources, n, sol.evaluations());
    }

    private static GpuGeneration generation(List<Series> series) throws CalibrationException {
        if (series.isEmpty()) {
            throw new CalibrationException("no data", "no data to fit");
        }
        GpuGeneration g = series.get(0).calls().get(0).communicator().generation();
        for (Series s : series) {
            if (s.calls().get(0).communicator().generation() != g) {
                throw new CalibrationException("mixed GPU generations", "data mixes GPU generations (" + g + " and "
                        + s.calls().get(0).communicator().generation() + " in " + s.dataset().id()
                        + "); calibrate one hardware class at a time");
            }
        }
        return g;
    }

    /**
     * The candidates the data depends on: a parameter whose scaled sensitivity (norm of its Jacobian column times its
     * start value) is below 1e-6, or below 1/1000 of the strongest candidate's, is kept at its start value, with a
     * note that says why in terms of the points' picks ({@link FitAdvice#insensitive}).
     */
    private List<FitParameter> identifiable(Problem p, List<String> notes) {
        List<FitParameter> free = new ArrayList<>();
        Map<FitParameter, double[]> columns = new EnumMap<>(FitParameter.class);
        Map<FitParameter, Double> norms = new EnumMap<>(FitParameter.class);
        double largest = 0;
        for (FitParameter f : candidates) {
            double[] col = FitAdvice.scaled(p, f);
            double norm = 0;
            for (double c : col) {
                norm += c * c;
            }
            columns.put(f, col);
            norm = Math.sqrt(norm);
            norms.put(f, norm);
            largest = Math.max(largest, norm);
        }
        Map<FitParameter, double[]> fitted = new EnumMap<>(columns);
        for (FitParameter f : candidates) {
            if (norms.get(f) < 1e-6 || norms.get(f) < 1e-3 * largest) {
                notes.add(f.field() + " kept at " + f.get(p.start(), p.gen()) + " " + f.unit() + ": the data hardly"
                        + " depends on it (sensitivity below 1/1000 of the strongest parameter): "
                        + FitAdvice.insensitive(p, f, columns, fitted.keySet()));
            } else {
                free.add(f);
            }
        }
        return free;
    }

    /**
     * A fit; {@code downweighted} points had a Huber weight below 1 at the residual scales {@code scales} (below
     * 1 MiB, at 1 MiB and more; a regime without a point may be missing).
     */
    private record Solution(PerformanceParameters params, double[][] cov, int evaluations, int downweighted,
            double[] scales) {
    }

    /** Signals an ill-conditioned fit and the parameter the data determines least. */
    private static final class IllConditioned extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient FitParameter weakest;

        IllConditioned(String message, FitParameter weakest) {
            super(message);
            this.weakest = weakest;
        }
    }

    /** The Huber fit ({@link HuberIrls}) of {@code p}: least squares, then reweighted refits. */
    private static Solution solve(Problem p, List<FitParameter> free) throws CalibrationException, IllConditioned {
        int[] evaluations = {0};
        HuberIrls.WeightedFit<Solution, Exception> solver = new HuberIrls.WeightedFit<>() {
            @Override
            public Solution fit(double[] weights) throws CalibrationException, IllConditioned {
                Solution s = solveWeighted(p.reweighted(weights), free);
                evaluations[0] += s.evaluations();
                return s;
            }

            @Override
            public double[] residuals(Solution s) {
                return p.relative(s.params());
            }
        };
        HuberIrls.Result<Solution> r;
        try {
            r = HuberIrls.fit(p.regimes(), solver);
        } catch (CalibrationException | IllConditioned e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("unexpected failure of a weighted fit", e);
        }
        if (!r.converged()) {
            throw new CalibrationException("no convergence", "the robust (Huber) reweighting did not settle within "
                    + HuberIrls.MAX_ITERATIONS + " refits (" + names(free) + "): " + String.format(Locale.ROOT,
                    "the residuals changed by %.1e (relative) at the first refit and by %.1e at the last, where %.0e"
                    + " is settled", r.firstChange(), r.lastChange(), HuberIrls.TOLERANCE) + "; a last change far"
                    + " below the first was still settling, slowly; one near the first did not settle: the data may"
                    + " be inconsistent (runs that disagree: run collsim diagnose first)");
        }
        int down = (int) Arrays.stream(r.weights()).filter(h -> h < 1).count();
        Solution s = r.fit();
        return new Solution(s.params(), s.cov(), evaluations[0], down, r.scales());
    }

    /** One weighted least-squares fit of {@code p} (the weights are in {@code p}'s residuals). */
    private static Solution solveWeighted(Problem p, List<FitParameter> free)
            throws CalibrationException, IllConditioned {
        int m = p.count();
        int k = free.size();
        LeastSquaresProblem lsp = new LeastSquaresBuilder()
                .start(ones(k))
                .target(new double[m])
                .model(u -> {
                    PerformanceParameters pp = p.apply(free, u.toArray());
                    double[] r = p.residuals(pp);
                    double[][] j = new double[m][k];
                    for (int c = 0; c < k; c++) {
                        double[] col = p.column(free.get(c), pp);
                        double s0 = free.get(c).get(p.start(), p.gen());
                        for (int row = 0; row < m; row++) {
                            j[row][c] = col[row] * s0;
                        }
                    }
                    return new Pair<RealVector, RealMatrix>(new ArrayRealVector(r), new Array2DRowRealMatrix(j));
                })
                .parameterValidator(u -> clamp(u, free, p))
                .maxEvaluations(MAX_EVALUATIONS)
                .maxIterations(MAX_EVALUATIONS)
                .build();
        LeastSquaresOptimizer.Optimum opt;
        try {
            opt = new LevenbergMarquardtOptimizer().optimize(lsp);
        } catch (TooManyEvaluationsException | TooManyIterationsException e) {
            throw new CalibrationException("no convergence", "the fit did not converge within " + MAX_EVALUATIONS
                    + " evaluations of the model (" + names(free) + "); the data may be inconsistent (runs that "
                    + "disagree, or a problem run mixed with healthy ones: run collsim diagnose first)");
        } catch (ConvergenceException e) {
            throw new CalibrationException("no convergence", "the fit did not converge: " + e.getMessage());
        }
        RealMatrix jac = opt.getJacobian();
        SingularValueDecomposition svd = new SingularValueDecomposition(jac);
        double cond = svd.getConditionNumber();
        if (!(cond <= MAX_CONDITION)) {
            double[] weak = svd.getV().getColumn(k - 1);
            List<FitParameter> parts = new ArrayList<>();
            int worst = 0;
            for (int c = 0; c < k; c++) {
                if (Math.abs(weak[c]) > 0.3) {
                    parts.add(free.get(c));
                }
                if (Math.abs(weak[c]) > Math.abs(weak[worst])) {
                    worst = c;
                }
            }
            List<FitParameter> involved = FitAdvice.collinear(jac, free, parts);
            throw new IllConditioned(FitAdvice.illConditioned(p, involved, free, jac,
                    p.apply(free, opt.getPoint().toArray())), free.get(worst));
        }
        double[][] cov;
        try {
            RealMatrix c = opt.getCovariances(1e-14);
            double rss = opt.getResiduals().dotProduct(opt.getResiduals());
            double scale = m > k ? rss / (m - k) : 0;
            cov = c.scalarMultiply(scale).getData();
        } catch (SingularMatrixException e) {
            throw new CalibrationException("ill-conditioned",
                    "ill-conditioned: the covariance matrix is singular for " + names(free));
        }
        return new Solution(p.apply(free, opt.getPoint().toArray()), cov, opt.getEvaluations(), 0, new double[0]);
    }

    private static RealVector clamp(RealVector u, List<FitParameter> free, Problem p) {
        double[] x = u.toArray();
        for (int c = 0; c < x.length; c++) {
            FitParameter f = free.get(c);
            double s0 = f.get(p.start(), p.gen());
            double lo = s0 > 0 ? f.lo() / s0 : 0;
            double hi = s0 > 0 ? f.hi() / s0 : 1;
            x[c] = Math.max(lo, Math.min(hi, x[c]));
        }
        return new ArrayRealVector(x);
    }

    private static double[] ones(int k) {
        double[] x = new double[k];
        Arrays.fill(x, 1.0);
        return x;
    }

    private static String names(List<FitParameter> free) {
        return String.join(", ", free.stream().map(FitParameter::field).toList());
    }
}
