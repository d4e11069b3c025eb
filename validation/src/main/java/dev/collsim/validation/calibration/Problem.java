package dev.collsim.validation.calibration;

import dev.collsim.simulator.PreparedCall;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.validation.compare.ErrorStats;
import dev.collsim.validation.compare.Regime;
import java.util.ArrayList;
import java.util.List;

/**
 * The points of a fit with their weights; evaluates residuals and Jacobian columns. {@code parity} selects the
 * hold-out halves: true keeps even-indexed sizes of every series (all points of single-size series), false the
 * odd-indexed ones, null all. A point's weight is 1/sqrt(points of its dataset) (each dataset weighs the same) times
 * sqrt of its robustness weight ({@link #reweighted}, {@link HuberIrls}; 1 until reweighted). Package-private.
 */
final class Problem {

    private record Ref(Series series, int index, double weight) {
    }

    private final List<Ref> refs;
    private final PerformanceParameters start;
    private final GpuGeneration gen;

    private Problem(List<Ref> refs, PerformanceParameters start, GpuGeneration gen) {
        this.refs = refs;
        this.start = start;
        this.gen = gen;
    }

    Problem(List<Series> series, PerformanceParameters start, GpuGeneration gen, Boolean parity) {
        this.start = start;
        this.gen = gen;
        this.refs = new ArrayList<>();
        for (Series s : series) {
            int n = s.calls().size();
            List<Integer> keep = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                boolean even = i % 2 == 0;
                if (parity == null || n == 1 && parity || n > 1 && even == parity) {
                    keep.add(i);
                }
            }
            for (int i : keep) {
                refs.add(new Ref(s, i, 1.0 / Math.sqrt(keep.size())));
            }
        }
    }

    /**
     * @param robust robustness weight per point (0..1), in point order
     * @return this problem with each point's squared residual counting {@code robust[i]} times more
     */
    Problem reweighted(double[] robust) {
        List<Ref> out = new ArrayList<>(refs.size());
        for (int i = 0; i < refs.size(); i++) {
            Ref r = refs.get(i);
            out.add(new Ref(r.series(), r.index(), r.weight() * Math.sqrt(robust[i])));
        }
        return new Problem(out, start, gen);
    }

    /** @return each point's relative residual (predicted - measured) / measured, unweighted */
    double[] relative(PerformanceParameters p) {
        double[] r = new double[refs.size()];
        for (int i = 0; i < r.length; i++) {
            Ref ref = refs.get(i);
            double meas = ref.series().measuredUs()[ref.index()];
            r[i] = (ref.series().calls().get(ref.index()).timeUs(p) - meas) / meas;
        }
        return r;
    }

    /** @return per point, its size regime: 0 below 1 MiB, 1 at 1 MiB and more ({@link Regime#ONE_MIB}) */
    int[] regimes() {
        return refs.stream().mapToInt(r -> r.series().sizes()[r.index()] >= Regime.ONE_MIB ? 1 : 0).toArray();
    }

    int count() {
        return refs.size();
    }

    /** @return point {@code i}'s prepared call (NCCL's algorithm and protocol as the model picks them) */
    PreparedCall call(int i) {
        Ref r = refs.get(i);
        return r.series().calls().get(r.index());
    }

    /** @return point {@code i}'s size, bytes */
    long size(int i) {
        Ref r = refs.get(i);
        return r.series().sizes()[r.index()];
    }

    PerformanceParameters start() {
        return start;
    }

    GpuGeneration gen() {
        return gen;
    }

    PerformanceParameters apply(List<FitParameter> free, double[] multipliers) {
        PerformanceParameters p = start;
        for (int c = 0; c < free.size(); c++) {
            FitParameter f = free.get(c);
            p = f.with(p, gen, f.get(start, gen) * multipliers[c]);
        }
        return p;
    }

    double[] residuals(PerformanceParameters p) {
        double[] r = new double[refs.size()];
        for (int i = 0; i < r.length; i++) {
            Ref ref = refs.get(i);
            double meas = ref.series().measuredUs()[ref.index()];
            r[i] = ref.weight() * (ref.series().calls().get(ref.index()).timeUs(p) - meas) / meas;
        }
        return r;
    }

    /** Derivative of each weighted residual by the parameter's value (central differences). */
    double[] column(FitParameter f, PerformanceParameters p) {
        double v = f.get(p, gen);
        double h = Math.max(1e-6, Math.abs(v) * 1e-4);
        double lo = Math.max(f.lo(), v - h);
        double hi = Math.min(f.hi(), v + h);
        double[] up = residuals(f.with(p, gen, hi));
        double[] dn = residuals(f.with(p, gen, lo));
        double[] col = new double[up.length];
        for (int i = 0; i < col.length; i++) {
            col[i] = hi > lo ? (up[i] - dn[i]) / (hi - lo) : 0;
        }
        return col;
    }

    ErrorStats errors(PerformanceParameters p) {
        List<Double> e = new ArrayList<>();
        for (Ref ref : refs) {
            e.add(Math.abs(Residuals.errorPercent(ref.series(), p, ref.index())));
        }
        return ErrorStats.of(e);
    }
}
