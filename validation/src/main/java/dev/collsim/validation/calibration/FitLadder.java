package dev.collsim.validation.calibration;

import dev.collsim.simulator.perf.PerformanceParameters;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one fit-and-accept path of {@code collsim calibrate} and {@code collsim accuracy}: fit a parameter set with
 * {@link Fitter} (hold-out check on, ill-conditioned fits refused, not reduced), judge the fit with
 * {@link FitAcceptance}, and when it is refused (by the fitter or by an acceptance rule) try the next set, until
 * one is accepted or the sets run out. Immutable.
 *
 * <p>Fallback order (collsim's own choice), tried after the requested set is refused when fallback is on:
 * <ol>
 *   <li>{@code launchOverheadUs, latencyScale, bwEfficiencySimple}: the two latency terms every point has, and the
 *       bandwidth of the protocol large sizes run; the LL/LL128 efficiencies are fitted on the few sizes that use
 *       those protocols and the per-channel cap competes with the Simple efficiency, so they are dropped first;</li>
 *   <li>{@code launchOverheadUs, latencyScale}: latency only (bandwidth at collsim's defaults), the set the 2x
 *       H200 profile needed;</li>
 *   <li>{@code bwEfficiencySimple}: bandwidth only, for data where the two latency terms cannot be told apart
 *       (e.g. one algorithm, protocol and rank count on one host: NCCL's latency is then the same at every size,
 *       so launch overhead and latency scale move the time alike).</li>
 * </ol>
 * Classes of several hosts over a network use {@link #network()}: the same ladder with the network efficiency in
 * the Simple efficiency's place. A fallback set is tried only when it is a proper subset of the requested set, so an explicit selection is never
 * widened. Parameters in a set that the data does not constrain are kept at their start value by the
 * {@link Fitter} (noted in the calibration), as in every fit.
 */
public final class FitLadder {

    /** The fallback sets, in the order they are tried (see the class comment). */
    public static final List<Set<FitParameter>> FALLBACKS = List.of(
            EnumSet.of(FitParameter.LAUNCH_OVERHEAD_US, FitParameter.LATENCY_SCALE, FitParameter.BW_EFFICIENCY_SIMPLE),
            EnumSet.of(FitParameter.LAUNCH_OVERHEAD_US, FitParameter.LATENCY_SCALE),
            EnumSet.of(FitParameter.BW_EFFICIENCY_SIMPLE));

    /**
     * The network classes' sets: {@link #FALLBACKS} with {@link FitParameter#BW_EFFICIENCY_NET} in place of
     * {@link FitParameter#BW_EFFICIENCY_SIMPLE}, so that a profile fitted between nodes leaves one-node traffic
     * (NVLink, PCIe) at the bare model's bandwidth.
     */
    public static final List<Set<FitParameter>> NETWORK_FALLBACKS = FALLBACKS.stream().map(FitLadder::netForSimple)
            .toList();

    private final List<Set<FitParameter>> steps;

    private FitLadder(List<Set<FitParameter>> steps) {
        this.steps = steps;
    }

    /**
     * @param requested the parameters to fit first
     * @param fallback  true to try {@link #FALLBACKS} (those that are proper subsets of {@code requested}) after
     *                  a refusal; false to fit exactly {@code requested}
     * @return the ladder
     * @throws IllegalArgumentException when {@code requested} is empty
     */
    public static FitLadder of(Set<FitParameter> requested, boolean fallback) {
        return of(requested, fallback ? FALLBACKS : List.of());
    }

    private static FitLadder of(Set<FitParameter> requested, List<Set<FitParameter>> fallbacks) {
        if (requested.isEmpty()) {
            throw new IllegalArgumentException("no parameter to fit");
        }
        List<Set<FitParameter>> steps = new ArrayList<>();
        steps.add(Set.copyOf(EnumSet.copyOf(requested)));
        for (Set<FitParameter> f : fallbacks) {
            if (requested.containsAll(f) && !f.containsAll(requested)) {
                steps.add(Set.copyOf(f));
            }
        }
        return new FitLadder(List.copyOf(steps));
    }

    /**
     * Calibrate's default set: every {@link FitParameter} but {@link FitParameter#NVLS_BW_SCALE},
     * {@link FitParameter#BW_EFFICIENCY_NET} and {@link FitParameter#SOCKET_STREAM_GBPS} (named only).
     */
    public static final Set<FitParameter> DEFAULT_SET = Set.copyOf(EnumSet.complementOf(
            EnumSet.of(FitParameter.NVLS_BW_SCALE, FitParameter.BW_EFFICIENCY_NET, FitParameter.SOCKET_STREAM_GBPS)));

    /** The network classes' first set: {@link #DEFAULT_SET} with the network efficiency for the Simple one. */
    public static final Set<FitParameter> NETWORK_SET = netForSimple(DEFAULT_SET);

    /** @return calibrate's default: {@link #DEFAULT_SET}, then the fallbacks */
    public static FitLadder everyParameter() {
        return of(DEFAULT_SET, true);
    }

    /**
     * The ladder of a class of several hosts over a network (calibration {@code ProfileClass#network()}):
     * {@link #NETWORK_SET}, then {@link #NETWORK_FALLBACKS}. Its bandwidth factor is
     * {@link FitParameter#BW_EFFICIENCY_NET}, which moves calls between nodes only, so the profile predicts
     * one-host calls (e.g. a plan's tensor-parallel groups on NVLink) as the bare model does unless a latency term
     * is fitted too.
     *
     * @return the ladder
     */
    public static FitLadder network() {
        return of(NETWORK_SET, NETWORK_FALLBACKS);
    }

    private static Set<FitParameter> netForSimple(Set<FitParameter> set) {
        EnumSet<FitParameter> s = EnumSet.copyOf(set);
        if (s.remove(FitParameter.BW_EFFICIENCY_SIMPLE)) {
            s.add(FitParameter.BW_EFFICIENCY_NET);
        }
        return Set.copyOf(s);
    }

    /** @return the parameter sets in the order they are tried */
    public List<Set<FitParameter>> steps() {
        return steps;
    }

    /**
     * Fits the steps in order and stops at the first accepted one.
     *
     * @param series the data
     * @param start  parameters to start from (and to keep for what is not fitted)
     * @return every attempt made, the accepted one (if any) last
     */
    public Outcome fit(List<Series> series, PerformanceParameters start) {
        List<Attempt> attempts = new ArrayList<>();
        for (Set<FitParameter> step : steps) {
            Attempt a;
            try {
                Calibration c = new Fitter(step, false).fit(series, start, true);
                a = new Attempt(step, Optional.of(c), FitAcceptance.refusals(c));
            } catch (CalibrationException e) {
                a = new Attempt(step, Optional.empty(),
                        List.of(new FitAcceptance.Refusal(e.reason(), e.getMessage())));
            }
            attempts.add(a);
            if (a.accepted()) {
                break;
            }
        }
        return new Outcome(attempts);
    }

    /**
     * One fit of one parameter set.
     *
     * @param parameters  the set tried
     * @param calibration the fit, empty when the fitter refused it (the refusal says why)
     * @param refusals    why it is refused; empty when accepted
     */
    public record Attempt(Set<FitParameter> parameters, Optional<Calibration> calibration,
            List<FitAcceptance.Refusal> refusals) {

        /** Copies. */
        public Attempt {
            parameters = Set.copyOf(parameters);
            refusals = List.copyOf(refusals);
        }

        /** @return true when the fit exists and no acceptance rule refuses it */
        public boolean accepted() {
            return calibration.isPresent() && refusals.isEmpty();
        }

        /**
         * @return the set's short labels joined by '+' in {@link FitParameter} order, or "all" for the default set,
         *         "all-net" for the network set
         */
        public String label() {
            if (parameters.equals(DEFAULT_SET) || parameters.size() == FitParameter.values().length) {
                return "all";
            }
            if (parameters.equals(NETWORK_SET)) {
                return "all-net";
            }
            return EnumSet.copyOf(parameters).stream().map(FitParameter::label).collect(Collectors.joining("+"));
        }

        /** @return "label: reason, reason" (the short reasons) */
        public String reasons() {
            return label() + ": " + refusals.stream().map(FitAcceptance.Refusal::reason)
                    .collect(Collectors.joining(", "));
        }
    }

    /**
     * Every attempt of one {@link #fit}.
     *
     * @param attempts in the order made; only the last can be accepted
     */
    public record Outcome(List<Attempt> attempts) {

        /** Copies. */
        public Outcome {
            attempts = List.copyOf(attempts);
        }

        /** @return the accepted fit, or empty when every attempt was refused */
        public Optional<Calibration> accepted() {
            Attempt last = attempts.get(attempts.size() - 1);
            return last.accepted() ? last.calibration() : Optional.empty();
        }

        /** @return the refused attempts, in order */
        public List<Attempt> refused() {
            return attempts.stream().filter(a -> !a.accepted()).toList();
        }

        /** @return true when an attempt after the first was accepted */
        public boolean fellBack() {
            return accepted().isPresent() && attempts.size() > 1;
        }
    }
}
