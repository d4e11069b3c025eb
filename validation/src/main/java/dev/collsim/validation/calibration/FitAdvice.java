package dev.collsim.validation.calibration;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.PreparedCall;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.compare.Regime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.SingularValueDecomposition;

/**
 * Why a fit's data cannot determine its parameters, in the user's terms: the sizes the data has and the algorithm and
 * protocol the model picks at each. Two causes need different advice. Sizes on one side of 1 MiB only
 * ({@link Regime#ONE_MIB}, the split of every regime figure) lack a regime, and more sizes help. Data that
 * already spans both can still leave two parameters moving the time alike: {@code launchOverheadUs} adds the same
 * microseconds to every call, and {@code latencyScale} multiplies NCCL's latency, one figure per algorithm and
 * protocol on a communicator (NCCL 2.30.7 {@code src/graph/tuning.cc}: {@code ncclTopoTuneModel} fills
 * {@code latencies[coll][algo][proto]} once at init; {@code ncclTopoGetAlgoTime} changes it with the size only by the
 * Ring/Simple AllReduce plateau factor between nodes), so when the model picks one algorithm and protocol at every
 * size both columns are (nearly) proportional and only fitting one of them helps. Whether they are is decided by the
 * Jacobian ({@link #collinear}); this class only words it, the points' picks and sizes in {@link FitPicks}'s words.
 * A parameter whose every derivative is 0 is explained by the points' picks: {@code bwEfficiencySimple} moves only
 * points bound by Simple's bandwidth, so at values where another term binds every Simple point (an efficiency above
 * the network's share) its Jacobian column is zeros; the refusal names the values the fit reached and the parameter
 * those points depend on most there. Package-private; stateless.
 */
final class FitAdvice {

    /** A right-singular vector's component above this names its parameter as part of a weak combination. */
    private static final double PART = 0.3;

    private FitAdvice() {
    }

    /**
     * The parameters of the weakest combination of the Jacobian with its columns scaled to unit length, so that two
     * proportional columns are both named whatever their scales (on the fit's own scaling a small launch column
     * next to a large latency column hides the latency scale).
     *
     * @param jac      the Jacobian (points x parameters)
     * @param free     the parameters, in column order
     * @param fallback the parts to name when the Jacobian is not finite
     * @return the parameters whose component in the weakest direction exceeds {@value #PART}
     */
    static List<FitParameter> collinear(RealMatrix jac, List<FitParameter> free, List<FitParameter> fallback) {
        int k = free.size();
        double[][] a = jac.getData();
        for (int c = 0; c < k; c++) {
            double norm = 0;
            for (double[] row : a) {
                norm += row[c] * row[c];
            }
            norm = Math.sqrt(norm);
            if (!(norm > 0) || !Double.isFinite(norm)) {
                return fallback;
            }
            for (double[] row : a) {
                row[c] /= norm;
            }
        }
        double[] weak = new SingularValueDecomposition(new Array2DRowRealMatrix(a, false)).getV().getColumn(k - 1);
        List<FitParameter> parts = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            if (Math.abs(weak[c]) > PART) {
                parts.add(free.get(c));
            }
        }
        return parts.isEmpty() ? fallback : parts;
    }

    /**
     * @param p        the points of the refused fit
     * @param involved the parameters the data cannot tell apart ({@link #collinear})
     * @param free     every parameter of the fit
     * @param jac      the Jacobian at the values the fit reached (points x {@code free}, per unit multiplier)
     * @param reached  the parameters at the values the fit reached
     * @return the refusal: what cannot be determined, why in terms of the sizes and picks, and what to do
     */
    static String illConditioned(Problem p, List<FitParameter> involved, List<FitParameter> free, RealMatrix jac,
            PerformanceParameters reached) {
        String head = "ill-conditioned: the data cannot determine " + String.join(" separately from ",
                involved.stream().map(FitParameter::field).toList()) + " (condition number " + condition(jac, free)
                + "); ";
        boolean small = false;
        boolean large = false;
        for (int r : p.regimes()) {
            small |= r == 0;
            large |= r == 1;
        }
        if (!small || !large) {
            return head + "the points have no size " + (small ? "of 1 MiB or more, where bandwidth binds"
                    : "below 1 MiB, where latency binds") + " (sizes " + FitPicks.span(p) + "): add sizes in the"
                    + " latency-bound and bandwidth-bound ranges, or fit fewer parameters";
        }
        String spans = " (sizes " + FitPicks.span(p) + " span both regimes, so more sizes would not help)";
        if (involved.contains(FitParameter.LAUNCH_OVERHEAD_US) && involved.contains(FitParameter.LATENCY_SCALE)) {
            return head + "launch and latScale cannot be told apart on these points" + spans + ": launchOverheadUs"
                    + " adds the same time to every call and latencyScale scales NCCL's latency, one figure per"
                    + " algorithm and protocol, and the model picks " + FitPicks.picks(p) + "; fit one of them: --fit "
                    + without(free, FitParameter.LATENCY_SCALE) + " or --fit "
                    + without(free, FitParameter.LAUNCH_OVERHEAD_US);
        }
        FitParameter drop = involved.get(involved.size() - 1);
        if (involved.size() == 1) {
            double share = share(jac, free.indexOf(drop));
            String fitted = String.join(", ", free.stream().map(f -> String.format(Locale.ROOT, "%s %.4g",
                    f.field(), f.get(reached, p.gen()))).toList());
            return head + "at the values the fit reached (" + fitted + ") its Jacobian column is " + (share == 0
                    ? "0" : String.format(Locale.ROOT, "%.2g of the largest column", share)) + ": "
                    + binds(p, drop, reached, new EnumMap<>(FitParameter.class), Set.copyOf(free))
                    + "; the model picks " + FitPicks.picks(p) + (free.size() == 1 ? "; it is this fit's only parameter"
                    : "; fit without it: --fit " + without(free, drop));
        }
        return head + "they move the time alike on these points" + spans + "; the model picks " + FitPicks.picks(p)
                + "; fit fewer of them, e.g. --fit " + without(free, drop);
    }

    /**
     * @return the condition number of the Jacobian as compared with {@link Fitter#MAX_CONDITION}, or why it has
     *         none: every column 0 (undefined), or one column 0 (infinite)
     */
    private static String condition(RealMatrix jac, List<FitParameter> free) {
        List<String> zero = new ArrayList<>();
        for (int c = 0; c < free.size(); c++) {
            if (share(jac, c) == 0) {
                zero.add(free.get(c).field());
            }
        }
        if (zero.size() == free.size()) {
            return "undefined: " + (zero.size() == 1 ? "its column is" : "every column is") + " all zeros";
        }
        double cond = new SingularValueDecomposition(jac).getConditionNumber();
        if (!zero.isEmpty()) {
            return "infinite: the column of " + String.join(", ", zero) + (zero.size() == 1 ? " is" : " are")
                    + " all zeros";
        }
        return Double.isFinite(cond) ? String.format(Locale.ROOT, "%.3g > %.0g", cond, Fitter.MAX_CONDITION)
                : "infinite: its columns are linearly dependent";
    }

    /** @return the norm of column {@code c} of {@code jac} over the largest column norm (0 when every one is 0) */
    private static double share(RealMatrix jac, int c) {
        double largest = 0;
        double own = 0;
        for (int k = 0; k < jac.getColumnDimension(); k++) {
            double n = jac.getColumnVector(k).getNorm();
            largest = Math.max(largest, n);
            own = k == c ? n : own;
        }
        return largest > 0 ? own / largest : 0;
    }

    /**
     * @param p          the points
     * @param candidates the parameters that were to be fitted, none of which moves any point
     * @return why, in terms of the points' picks
     */
    static String unconstrained(Problem p, Collection<FitParameter> candidates) {
        String head = "no parameter is constrained by the data: every model derivative is 0";
        if (!candidates.contains(FitParameter.BW_EFFICIENCY_SIMPLE)) {
            return head + " (" + String.join(", ", candidates.stream().map(FitParameter::field).toList())
                    + "; the model picks " + FitPicks.picks(p) + ")";
        }
        List<Integer> simple = new ArrayList<>();
        for (int i = 0; i < p.count(); i++) {
            if (p.call(i).protocol() == Protocol.SIMPLE) {
                simple.add(i);
            }
        }
        String why = "no point of the data is bound by Simple's bandwidth, so the data say nothing about"
                + " bwEfficiencySimple: the model picks " + FitPicks.picks(p);
        if (simple.isEmpty()) {
            return head + "; " + why + ", no point runs the Simple protocol";
        }
        return head + "; " + why + ", and its Simple points are bound by " + boundBy(p, simple);
    }

    /**
     * Why the data hardly depends on one parameter, in terms of the points' picks: the points it could move are
     * missing (for a protocol's efficiency or cap, the points running that protocol; for the network's efficiency,
     * step and socket stream rate, the points between hosts; for the NVLS scale, the NVLS and NVLSTree points; every
     * point otherwise), or another parameter binds them: of every {@link FitParameter}, the one their time depends on
     * most (the largest norm of its Jacobian column over those points, each column times its start value, so all are
     * per unit of relative change), named with how to fit it when the fit does not and with how much the points'
     * time moves per 1 % of it (mean |d ln time / d ln parameter|, so that a parameter that binds them, about 1,
     * reads apart from one that is merely the largest of small ones, when a limit outside the fit binds).
     *
     * @param p       the points
     * @param f       the parameter the data hardly depends on
     * @param columns Jacobian columns at the start values, times the start value, of the parameters known so far
     *                (at least the fit's candidates); the others' are computed here and added
     * @param fitted  the fit's candidates
     * @return e.g. {@code no point runs the LL protocol; the model picks Ring/Simple at 1M-8G (14 points)}
     */
    static String insensitive(Problem p, FitParameter f, Map<FitParameter, double[]> columns,
            Set<FitParameter> fitted) {
        return binds(p, f, p.start(), columns, fitted) + "; the model picks " + FitPicks.picks(p);
    }

    /**
     * @return which points {@code f} could move and the parameter they depend on most at {@code at}
     *         ({@link #insensitive}), without the picks
     */
    private static String binds(Problem p, FitParameter f, PerformanceParameters at,
            Map<FitParameter, double[]> columns, Set<FitParameter> fitted) {
        List<Integer> own = new ArrayList<>();
        for (int i = 0; i < p.count(); i++) {
            if (moves(f, p.call(i))) {
                own.add(i);
            }
        }
        if (own.isEmpty()) {
            return "no point " + scope(f);
        }
        FitParameter binding = null;
        double best = 0;
        for (FitParameter q : FitParameter.values()) {
            double[] col = columns.computeIfAbsent(q, x -> scaled(p, x, at));
            double norm = 0;
            for (int i : own) {
                norm += col[i] * col[i];
            }
            if (q != f && norm > best) {
                best = norm;
                binding = q;
            }
        }
        boolean one = own.size() == 1;
        long lo = own.stream().mapToLong(p::size).min().orElseThrow();
        long hi = own.stream().mapToLong(p::size).max().orElseThrow();
        String which = own.size() == p.count() ? "every point depends" : "the " + own.size() + (one ? " point that "
                + scope(f) : " points that " + plural(scope(f))) + " (sizes " + FitPicks.range(lo, hi)
                + (one ? ") depends" : ") depend");
        String on = binding == null ? " on no parameter a fit can move" : " most on " + binding.field()
                + (fitted.contains(binding) ? "" : " (not fitted here: --fit " + binding.field() + " fits it)");
        return which + on + (binding == null ? "" : String.format(Locale.ROOT, ", their time moving %.2g %% per"
                + " 1 %% of it on average", elasticity(p, binding, at, own)));
    }

    /**
     * @return the mean over {@code own} of |d ln time / d ln q| at {@code at} (central differences of the model's
     *         time, 1e-3 relative step, inside {@code q}'s range); 0 where {@code q} is 0 or pinned at both bounds
     */
    private static double elasticity(Problem p, FitParameter q, PerformanceParameters at, List<Integer> own) {
        double v = q.get(at, p.gen());
        double h = Math.max(1e-6, Math.abs(v) * 1e-3);
        double lo = Math.max(q.lo(), v - h);
        double hi = Math.min(q.hi(), v + h);
        if (!(hi > lo)) {
            return 0;
        }
        PerformanceParameters up = q.with(at, p.gen(), hi);
        PerformanceParameters dn = q.with(at, p.gen(), lo);
        double sum = 0;
        for (int i : own) {
            PreparedCall c = p.call(i);
            sum += Math.abs(c.timeUs(up) - c.timeUs(dn)) / (hi - lo) * Math.abs(v) / c.timeUs(at);
        }
        return sum / own.size();
    }

    /** @return {@code f}'s Jacobian column at the start values times its start value */
    static double[] scaled(Problem p, FitParameter f) {
        return scaled(p, f, p.start());
    }

    /** @return {@code f}'s Jacobian column at {@code at} times its value there */
    private static double[] scaled(Problem p, FitParameter f, PerformanceParameters at) {
        double[] col = p.column(f, at);
        double s0 = Math.max(1e-12, Math.abs(f.get(at, p.gen())));
        for (int i = 0; i < col.length; i++) {
            col[i] *= s0;
        }
        return col;
    }

    /** @return true when {@code f} can move the time of call {@code c}, by what the parameter is a figure of */
    private static boolean moves(FitParameter f, PreparedCall c) {
        return switch (f) {
            case BW_EFFICIENCY_SIMPLE, PER_CHANNEL_CAP_SIMPLE -> c.protocol() == Protocol.SIMPLE;
            case BW_EFFICIENCY_LL128 -> c.protocol() == Protocol.LL128;
            case BW_EFFICIENCY_LL -> c.protocol() == Protocol.LL;
            case BW_EFFICIENCY_NET, NET_STEP_US, SOCKET_STREAM_GBPS -> c.communicator().nNodes() > 1;
            case NVLS_BW_SCALE -> c.algorithm() == Algorithm.NVLS || c.algorithm() == Algorithm.NVLS_TREE;
            case LAUNCH_OVERHEAD_US, LATENCY_SCALE -> true;
        };
    }

    /** @return a verb phrase of {@link #scope} for several points: "run the Simple protocol" */
    private static String plural(String phrase) {
        return phrase.replaceFirst("^runs ", "run ").replaceFirst("^crosses ", "cross ").replaceFirst("^is ", "are ");
    }

    /** @return what a point does when {@code f} can move it ({@link #moves}), as a verb phrase */
    private static String scope(FitParameter f) {
        return switch (f) {
            case BW_EFFICIENCY_SIMPLE, PER_CHANNEL_CAP_SIMPLE -> "runs the Simple protocol";
            case BW_EFFICIENCY_LL128 -> "runs the LL128 protocol";
            case BW_EFFICIENCY_LL -> "runs the LL protocol";
            case BW_EFFICIENCY_NET, NET_STEP_US, SOCKET_STREAM_GBPS -> "crosses the network between hosts";
            case NVLS_BW_SCALE -> "runs NVLS or NVLSTree";
            case LAUNCH_OVERHEAD_US, LATENCY_SCALE -> "is timed";
        };
    }

    /** @return the limit that moves the given points' time, of those a fit can name, in words */
    private static String boundBy(Problem p, List<Integer> points) {
        Map<FitParameter, String> limits = new LinkedHashMap<>();
        limits.put(FitParameter.BW_EFFICIENCY_NET, "the network between the hosts");
        limits.put(FitParameter.NVLS_BW_SCALE, "NCCL's NVLS (NVLink SHARP) bandwidth");
        limits.put(FitParameter.SOCKET_STREAM_GBPS, "the socket transport's stream rate");
        for (Map.Entry<FitParameter, String> e : limits.entrySet()) {
            double[] col = p.column(e.getKey(), p.start());
            if (points.stream().anyMatch(i -> col[i] != 0)) {
                return e.getValue() + " (" + e.getKey().field() + ": --fit " + e.getKey().field() + " fits it)";
            }
        }
        return "another limit (a per-channel cap, or the NVLink or PCIe efficiency)";
    }

    private static String without(List<FitParameter> free, FitParameter drop) {
        return String.join(",", free.stream().filter(f -> f != drop).map(FitParameter::field).toList());
    }
}
