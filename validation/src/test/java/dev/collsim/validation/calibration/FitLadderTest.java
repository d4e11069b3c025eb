package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link FitLadder}, the fit-and-accept path calibrate and accuracy share, on data whose outcome follows from the
 * rules by construction: the real sizes (1 KiB..8 GiB, 24 points) and cluster (8x A100 SXM, one host) of the
 * Azure ND A100 v4 dataset, with times generated from the model under known parameters.
 */
class FitLadderTest {

    private static final FitParameter LAUNCH = FitParameter.LAUNCH_OVERHEAD_US;
    private static final FitParameter LAT = FitParameter.LATENCY_SCALE;
    private static final FitParameter SIMPLE = FitParameter.BW_EFFICIENCY_SIMPLE;

    /** The Azure dataset with {@code env} in place of its own settings. */
    private static Dataset azure(Map<String, String> env) throws Exception {
        Dataset d = Corpus.read("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt").get(0);
        return new Dataset(d.file(), d.label(), d.line(), d.kind(), d.collective(), d.dataType(), d.nRanks(),
                d.nHosts(), d.gpuModel(), d.ncclRelease(), env, d.header(), d.ranks(), d.points(), d.avgBusBw(),
                d.summaryMaxBusBw(), d.log(), d.notes());
    }

    /** A series of d whose measured times are the model's under {@code truth}: exact data. */
    private static Series exact(Dataset d, PerformanceParameters truth) {
        Series s = SeriesBuilder.of(d, Optional.empty(),
                new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null)).orElseThrow();
        double[] t = new double[s.calls().size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = s.calls().get(i).timeUs(truth);
        }
        return new Series(d, s.calls(), t, s.sizes());
    }

    private static PerformanceParameters with(PerformanceParameters p, FitParameter f, double v) {
        return f.with(p, GpuGeneration.AMPERE, v);
    }

    /** The documented order, and fallbacks only where they are proper subsets of the requested set. */
    @Test
    void stepsFollowTheDocumentedOrder() {
        Set<FitParameter> all = EnumSet.complementOf(EnumSet.of(FitParameter.NVLS_BW_SCALE,
                FitParameter.BW_EFFICIENCY_NET, FitParameter.SOCKET_STREAM_GBPS));
        assertEquals(List.of(all, Set.of(LAUNCH, LAT, SIMPLE), Set.of(LAUNCH, LAT), Set.of(SIMPLE)),
                FitLadder.everyParameter().steps());
        assertEquals(List.of(Set.of(LAUNCH, LAT, SIMPLE), Set.of(LAUNCH, LAT), Set.of(SIMPLE)),
                FitLadder.of(EnumSet.of(LAUNCH, LAT, SIMPLE), true).steps());
        // {launch, effSimple}: the first two fallbacks contain latScale, so only {effSimple} is a subset
        assertEquals(List.of(Set.of(LAUNCH, SIMPLE), Set.of(SIMPLE)),
                FitLadder.of(EnumSet.of(LAUNCH, SIMPLE), true).steps());
        assertEquals(List.of(all), FitLadder.of(all, false).steps(), "an explicit --fit is fitted as given");
    }

    /**
     * The network classes' ladder: the same order with the network efficiency where the Simple one was (the first
     * set: launch, latScale, effLL128, effLL, capSimple, netStep, effNet), so no step of it moves one-host bandwidth.
     */
    @Test
    void networkLadderFitsTheNetworkEfficiencyInsteadOfSimple() {
        FitParameter net = FitParameter.BW_EFFICIENCY_NET;
        Set<FitParameter> first = EnumSet.of(LAUNCH, LAT, FitParameter.BW_EFFICIENCY_LL128,
                FitParameter.BW_EFFICIENCY_LL, FitParameter.PER_CHANNEL_CAP_SIMPLE, FitParameter.NET_STEP_US, net);
        assertEquals(List.of(first, Set.of(LAUNCH, LAT, net), Set.of(LAUNCH, LAT), Set.of(net)),
                FitLadder.network().steps());
        assertEquals("all-net", new FitLadder.Attempt(first, Optional.empty(), List.of()).label());
        assertEquals("launch+latScale+effNet", new FitLadder.Attempt(Set.of(LAUNCH, LAT, net), Optional.empty(),
                List.of()).label());
    }

    /**
     * NCCL_ALGO=Ring NCCL_PROTO=Simple on one host: every point has NCCL's one Ring/Simple latency L (the multi-host
     * plateau factor does not apply; CostTable), so time = launch + latScale x L + (terms without either), and
     * d time/d launch = 1, d time/d latScale = L at every point: the two Jacobian columns are proportional, the
     * condition number is unbounded (> 1e6) and every set holding both is refused as ill-conditioned: "all",
     * launch+latScale+effSimple, launch+latScale. The next set, {effSimple}, fits data generated with
     * effSimple 0.8 (everything else at the defaults) exactly: 0.8, zero residual, accepted.
     */
    @Test
    void singleProtocolFallsBackToSimpleEfficiency() throws Exception {
        Series s = exact(azure(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple")),
                with(PerformanceParameters.DEFAULTS, SIMPLE, 0.8));
        for (int i = 0; i < s.calls().size(); i++) {
            assertEquals(Algorithm.RING, s.calls().get(i).algorithm(), "precondition: NCCL_ALGO applied");
            assertEquals(Protocol.SIMPLE, s.calls().get(i).protocol(), "precondition: NCCL_PROTO applied");
        }
        FitLadder.Outcome o = FitLadder.everyParameter().fit(List.of(s), PerformanceParameters.DEFAULTS);
        assertEquals(List.of("all", "launch+latScale+effSimple", "launch+latScale", "effSimple"),
                o.attempts().stream().map(FitLadder.Attempt::label).toList());
        for (FitLadder.Attempt a : o.refused()) {
            assertEquals(List.of("ill-conditioned"), a.refusals().stream().map(FitAcceptance.Refusal::reason)
                    .toList(), a.reasons());
        }
        assertEquals(3, o.refused().size());
        assertTrue(o.fellBack());
        Calibration c = o.accepted().orElseThrow();
        assertEquals(List.of("bwEfficiencySimple"), c.fitted().stream().map(FittedValue::name).toList());
        assertEquals(0.8, c.parameters().bwEfficiencySimple(), 1e-6);
        assertEquals(PerformanceParameters.DEFAULTS.launchOverheadUs(), c.parameters().launchOverheadUs());
        assertTrue(c.residuals().median() < 1e-6, c.residuals().toString());
    }

    /**
     * NCCL's own algorithm and protocol choice over 1 KiB..8 GiB, exact data from launch 9 us, latScale 1.3 and
     * efficiencies Simple 0.9, LL 0.8 (inside their ranges, none above 1): the least-squares optimum is these values
     * with zero residual, so no rule refuses the fit of every parameter: one attempt, accepted, the values recovered
     * (parameters the data does not constrain stay at their defaults, which are the truth's: LL128's efficiency among
     * them, since Ampere's LL128 per-channel cap, 7.0 GB/s on 24 channels = 168 GB/s, binds before 0.96 x NCCL's
     * LL128 rate on this 8x A100 host).
     */
    @Test
    void exactSweepIsAcceptedWithoutFallback() throws Exception {
        PerformanceParameters truth = with(with(with(with(PerformanceParameters.DEFAULTS, LAUNCH, 9.0), LAT, 1.3),
                SIMPLE, 0.9), FitParameter.BW_EFFICIENCY_LL, 0.8);
        Series s = exact(azure(Map.of()), truth);
        FitLadder.Outcome o = FitLadder.everyParameter().fit(List.of(s), PerformanceParameters.DEFAULTS);
        assertEquals(1, o.attempts().size(), o.refused().stream().map(FitLadder.Attempt::reasons).toList()
                .toString());
        Calibration c = o.accepted().orElseThrow();
        // small sizes are latency-bound and large ones Simple-bandwidth-bound, so these three are fitted
        assertTrue(c.fitted().stream().map(FittedValue::name).toList().containsAll(
                List.of("launchOverheadUs", "latencyScale", "bwEfficiencySimple")), c.fitted().toString());
        for (FitParameter f : FitParameter.values()) {
            assertEquals(f.get(truth, GpuGeneration.AMPERE), f.get(c.parameters(), GpuGeneration.AMPERE),
                    1e-4 * f.get(truth, GpuGeneration.AMPERE), f.field());
        }
    }

    /**
     * The socket class's stream rate is calibratable: the real L40S socket run (2 hosts x 1 GPU, NCCL_IB_DISABLE=1)
     * with times made by the model under a stream rate of 4 GB/s gives back 4 when only that rate is fitted, and
     * leaves every other parameter as it was.
     */
    @Test
    void theSocketStreamRateIsFittedFromASocketRun() throws Exception {
        Dataset d = Corpus.read("A-allreduce-2x1-2x2xL40S-openshift-sriov-tcp-vs-roce-nccl2.27.txt").get(0);
        FitParameter stream = FitParameter.SOCKET_STREAM_GBPS;
        PerformanceParameters truth = with(PerformanceParameters.DEFAULTS, stream, 4.0);
        assertEquals(4.0, stream.get(truth, GpuGeneration.AMPERE), 1e-12);
        FitLadder.Outcome o = FitLadder.of(EnumSet.of(stream), false).fit(List.of(exact(d, truth)),
                PerformanceParameters.DEFAULTS);
        Calibration c = o.accepted().orElseThrow(() -> new AssertionError(o.refused().stream()
                .map(FitLadder.Attempt::reasons).toList().toString()));
        assertEquals(4.0, stream.get(c.parameters(), GpuGeneration.AMPERE), 1e-3);
        assertEquals(PerformanceParameters.DEFAULTS.bwEfficiencySimple(), c.parameters().bwEfficiencySimple());
    }
}
