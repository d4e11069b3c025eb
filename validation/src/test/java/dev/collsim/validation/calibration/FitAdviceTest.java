package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.PreparedCall;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A refused fit says its true cause on real data files: the sizes present (read from the file's table) and the
 * algorithm/protocol the model picks at each size (read from the prepared calls here, not from {@link FitAdvice}).
 */
class FitAdviceTest {

    private static final long ONE_MIB = 1L << 20;

    private static Series series(String file) throws Exception {
        return SeriesBuilder.of(Corpus.read(file).get(0), Optional.empty(),
                new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null)).orElseThrow();
    }

    /**
     * The 2x2 DGX H100 file with NCCL_ALGO=Tree added to its settings: NCCL's estimates for its plain tree (x 0.85,
     * {@code channel.TreePattern}) make 4-64 MiB Ring otherwise; forced to Tree the model runs Simple only from 128 MiB,
     * where the hosts' network binds.
     */
    private static Series treeSeries(String file) throws Exception {
        Dataset d = Corpus.read(file).get(0);
        Map<String, String> env = new HashMap<>(d.env());
        env.put("NCCL_ALGO", "Tree");
        Dataset tree = new Dataset(d.file(), d.label(), d.line(), d.kind(), d.collective(), d.dataType(), d.nRanks(),
                d.nHosts(), d.gpuModel(), d.ncclRelease(), Map.copyOf(env), d.header(), d.ranks(), d.points(),
                d.avgBusBw(), d.summaryMaxBusBw(), d.log(), d.notes(), d.launch(), d.rounding());
        return SeriesBuilder.of(tree, Optional.empty(),
                new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null)).orElseThrow();
    }

    private static Set<String> picks(Series s) {
        return s.calls().stream().map(c -> c.algorithm().ncclName() + "/" + c.protocol().ncclName())
                .collect(Collectors.toSet());
    }

    private static CalibrationException refusal(Series s, FitParameter... fit) {
        return assertThrows(CalibrationException.class, () -> new Fitter(EnumSet.of(fit[0], fit), false)
                .fit(List.of(s), PerformanceParameters.DEFAULTS, false));
    }

    /**
     * AWS p4de 2x8 A100 over EFA, 8 B (file line 35) to 1 GiB (line 62), with NCCL_PROTO=simple (line 7): both
     * regimes are present and one algorithm/protocol runs at every size, so NCCL's latency is one figure and launch
     * overhead and latency scale move every point alike: more sizes would not help, fitting one of them does.
     */
    @Test
    void launchAndLatencyScaleOnAFullSweepOfOnePick() throws Exception {
        Series s = series("A-allreduce-2x8xA100-80GB-aws-p4de-efa-parallelcluster-nccl2.17-excerpt.txt");
        assertEquals(8, s.sizes()[0]);
        assertEquals(1L << 30, s.sizes()[s.sizes().length - 1]);
        Set<String> picks = picks(s);
        assertEquals(1, picks.size(), picks.toString());
        assertTrue(s.calls().stream().allMatch(c -> c.protocol() == Protocol.SIMPLE), "NCCL_PROTO=simple");
        CalibrationException e = refusal(s, FitParameter.LAUNCH_OVERHEAD_US, FitParameter.LATENCY_SCALE);
        assertEquals("ill-conditioned", e.reason());
        String m = e.getMessage();
        assertTrue(m.contains("cannot determine launchOverheadUs separately from latencyScale"), m);
        assertTrue(m.contains("launch and latScale cannot be told apart on these points (sizes 8 B-1G span both"
                + " regimes, so more sizes would not help)"), m);
        assertTrue(m.contains("the model picks " + picks.iterator().next() + " at every size (8 B-1G)"), m);
        assertTrue(m.endsWith("fit one of them: --fit launchOverheadUs or --fit latencyScale"), m);
        assertFalse(m.contains("add sizes"), m);
    }

    /**
     * GCP A3 High TCPX AllGather, 8 MiB (file line 17) to 8 GiB: no size below 1 MiB, so the latency regime is
     * missing and the advice to add sizes stands.
     */
    @Test
    void aMissingLatencyRegimeKeepsTheAdviceToAddSizes() throws Exception {
        Series s = series("A-allgather-2x8xH100-gcp-a3high-tcpx-dstack.txt");
        assertEquals(8 * ONE_MIB, s.sizes()[0]);
        assertTrue(Arrays.stream(s.sizes()).allMatch(b -> b >= ONE_MIB));
        String m = refusal(s, FitParameter.LAUNCH_OVERHEAD_US, FitParameter.LATENCY_SCALE).getMessage();
        assertTrue(m.contains("the points have no size below 1 MiB, where latency binds (sizes 8M-8G): add sizes in"
                + " the latency-bound and bandwidth-bound ranges, or fit fewer parameters"), m);
        assertFalse(m.contains("told apart"), m);
    }

    /**
     * DGX H100 2x2 over InfiniBand, 8 B (line 21) to 8 GiB (line 51), NCCL_ALGO=Tree: the model runs Simple only from 128 MiB, as
     * Tree between the 2 hosts, where the hosts' network binds: near its start value (0.98 -> 0.9) the Simple efficiency
     * moves no point's time (checked here by re-timing every call), the network efficiency moves the Simple points'.
     * The refusal says so.
     */
    @Test
    void simpleEfficiencyWithNoPointBoundBySimple() throws Exception {
        Series s = treeSeries("A-allreduce-2x2xH100-dgx-ib.txt");
        PerformanceParameters d = PerformanceParameters.DEFAULTS;
        PerformanceParameters simple = FitParameter.BW_EFFICIENCY_SIMPLE.with(d, GpuGeneration.HOPPER, 0.9);
        PerformanceParameters net = FitParameter.BW_EFFICIENCY_NET.with(d, GpuGeneration.HOPPER, 0.9);
        long firstSimple = Long.MAX_VALUE;
        for (int i = 0; i < s.calls().size(); i++) {
            PreparedCall c = s.calls().get(i);
            assertEquals(c.timeUs(d), c.timeUs(simple), 0.0, "size " + s.sizes()[i]);
            if (c.protocol() == Protocol.SIMPLE) {
                firstSimple = Math.min(firstSimple, s.sizes()[i]);
                assertTrue(c.timeUs(net) > c.timeUs(d), "size " + s.sizes()[i]);
            }
        }
        assertEquals(128 * ONE_MIB, firstSimple);
        CalibrationException e = refusal(s, FitParameter.BW_EFFICIENCY_SIMPLE);
        assertEquals("nothing constrained", e.reason());
        String m = e.getMessage();
        assertTrue(m.contains("no point of the data is bound by Simple's bandwidth, so the data say nothing about"
                + " bwEfficiencySimple"), m);
        assertTrue(m.contains("Tree/Simple at 128M-8G (7 points)"), m);
        assertTrue(m.endsWith("its Simple points are bound by the network between the hosts (bwEfficiencyNet: --fit"
                + " bwEfficiencyNet fits it)"), m);
    }

    /** @return the fit's note on {@code f} kept at its start value */
    private static String keptNote(Series s, FitParameter f, FitParameter... fit) throws Exception {
        Calibration c = new Fitter(EnumSet.of(fit[0], fit), true).fit(List.of(s), PerformanceParameters.DEFAULTS,
                false);
        return c.notes().stream().filter(n -> n.startsWith(f.field() + " kept at")).findFirst()
                .orElseThrow(() -> new AssertionError(c.notes().toString()));
    }

    /**
     * DGX H100 2x2, 8 B (line 21) to 8 GiB (line 51): the Simple efficiency is kept because the 7 Simple points,
     * 128 MiB to 8 GiB, move with the network efficiency and not with it (re-timed in
     * {@link #simpleEfficiencyWithNoPointBoundBySimple}); the note says which points and what binds them, naming
     * the parameter the fit leaves out and how to fit it, as a refusal does.
     */
    @Test
    void aKeptParameterNamesItsPointsAndWhatBindsThem() throws Exception {
        Series s = treeSeries("A-allreduce-2x2xH100-dgx-ib.txt");
        long simple = s.calls().stream().filter(c -> c.protocol() == Protocol.SIMPLE).count();
        assertEquals(7, simple);
        String m = keptNote(s, FitParameter.BW_EFFICIENCY_SIMPLE, FitParameter.LATENCY_SCALE,
                FitParameter.BW_EFFICIENCY_SIMPLE);
        assertTrue(m.startsWith("bwEfficiencySimple kept at 0.98 fraction: the data hardly depends on it"), m);
        assertTrue(m.contains(": the 7 points that run the Simple protocol (sizes 128M-8G) depend most on"
                + " bwEfficiencyNet (not fitted here: --fit bwEfficiencyNet fits it), their time moving "), m);
        assertTrue(m.contains(" per 1 % of it on average; the model picks "), m);
        assertTrue(m.endsWith("Tree/Simple at 128M-8G (7 points)"), m);
    }

    /**
     * AWS p4de 2x8 A100 with NCCL_PROTO=simple (file line 7): no point runs LL, so the LL efficiency is kept with
     * that reason and the one pick at every size, 8 B (line 35) to 1 GiB (line 62).
     */
    @Test
    void aKeptProtocolEfficiencyWithNoPointOfItsProtocol() throws Exception {
        Series s = series("A-allreduce-2x8xA100-80GB-aws-p4de-efa-parallelcluster-nccl2.17-excerpt.txt");
        String pick = picks(s).iterator().next();
        String m = keptNote(s, FitParameter.BW_EFFICIENCY_LL, FitParameter.LATENCY_SCALE, FitParameter.BW_EFFICIENCY_LL);
        assertTrue(m.endsWith(": no point runs the LL protocol; the model picks " + pick + " at every size (8 B-1G)"), m);
    }
}
