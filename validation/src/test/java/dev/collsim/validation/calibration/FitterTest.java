package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.validation.compare.ClusterGuesser;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fit recovers parameters chosen by the test (data generated from the model with those parameters on the real
 * sizes and cluster of a corpus dataset), refuses what it must, and writes profiles that read back.
 */
class FitterTest {

    /** Azure ND A100 v4 (24 sizes, 1 KiB..8 GiB) on a DGX A100 host: sizes span both regimes. */
    private static Series azureA100() throws Exception {
        Dataset d = Corpus.read("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt").get(0);
        Comparer c = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null);
        return SeriesBuilder.of(d, Optional.empty(), c).orElseThrow();
    }

    /** The same sizes and model, with times generated from {@code truth}. */
    private static Series synthetic(Series s, PerformanceParameters truth) {
        double[] t = new double[s.calls().size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = s.calls().get(i).timeUs(truth);
        }
        return new Series(s.dataset(), s.calls(), t, s.sizes());
    }

    @Test
    void recoversChosenParameters() throws Exception {
        Series real = azureA100();
        PerformanceParameters truth = FitParameter.BW_EFFICIENCY_SIMPLE.with(
                FitParameter.LAUNCH_OVERHEAD_US.with(PerformanceParameters.DEFAULTS, GpuGeneration.AMPERE, 11.0),
                GpuGeneration.AMPERE, 0.85);
        Calibration c = new Fitter(EnumSet.of(FitParameter.LAUNCH_OVERHEAD_US, FitParameter.BW_EFFICIENCY_SIMPLE),
                false).fit(List.of(synthetic(real, truth)), PerformanceParameters.DEFAULTS, true);
        assertEquals(11.0, c.parameters().launchOverheadUs(), 1e-3);
        assertEquals(0.85, c.parameters().bwEfficiencySimple(), 1e-5);
        assertTrue(c.residuals().max() < 1e-3, "exact data leaves no residual: " + c.residuals());
        assertTrue(c.holdTest().n() > 0 && c.holdTest().max() < 1e-3);
        assertTrue(c.fitted().get(0).sigma() < 1e-3);
    }

    @Test
    void refusesTooFewPoints() throws Exception {
        Series real = azureA100();
        Series two = new Series(real.dataset(), new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS,
                null).model(real.dataset(), SeriesBuilder.of(real.dataset(), Optional.empty(),
                new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null)).isPresent()
                ? ClusterGuesser.guess(real.dataset()).orElseThrow() : null,
                NcclSettings.modelled(real.dataset().env()), Comparer.usable(real.dataset()).subList(20, 22)),
                new double[] {real.measuredUs()[20], real.measuredUs()[21]},
                new long[] {real.sizes()[20], real.sizes()[21]});
        CalibrationException e = assertThrows(CalibrationException.class, () -> new Fitter(
                EnumSet.of(FitParameter.LAUNCH_OVERHEAD_US, FitParameter.BW_EFFICIENCY_SIMPLE), false)
                .fit(List.of(two), PerformanceParameters.DEFAULTS, false));
        assertTrue(e.getMessage().contains("too few points"), e.getMessage());
    }

    /**
     * Only bandwidth-bound sizes (the last 6, 256 MiB-8 GiB): launch overhead and latency scale both act as a
     * constant next to milliseconds of transfer; the fit must refuse to separate them.
     */
    @Test
    void refusesIllConditioned() throws Exception {
        Series real = azureA100();
        var ds = real.dataset();
        var pts = Comparer.usable(ds).subList(18, 24);
        var model = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null).model(ds,
                ClusterGuesser.guess(ds).orElseThrow(), NcclSettings.modelled(ds.env()), pts);
        double[] t = new double[6];
        long[] s = new long[6];
        for (int i = 0; i < 6; i++) {
            t[i] = real.measuredUs()[18 + i];
            s[i] = real.sizes()[18 + i];
        }
        Series big = new Series(ds, model, t, s);
        CalibrationException e = assertThrows(CalibrationException.class, () -> new Fitter(
                EnumSet.of(FitParameter.LAUNCH_OVERHEAD_US, FitParameter.LATENCY_SCALE), false)
                .fit(List.of(big), PerformanceParameters.DEFAULTS, false));
        assertTrue(e.getMessage().contains("ill-conditioned") || e.getMessage().contains("hardly"), e.getMessage());
    }

    @Test
    void profileRoundTrip(@TempDir Path dir) throws Exception {
        Series real = azureA100();
        Calibration c = new Fitter(EnumSet.of(FitParameter.LAUNCH_OVERHEAD_US, FitParameter.BW_EFFICIENCY_SIMPLE),
                false).fit(List.of(real), PerformanceParameters.DEFAULTS, true);
        Path f = dir.resolve("a100.yaml");
        CalibrationProfile.write(c, f);
        Calibration back = CalibrationProfile.read(f);
        assertEquals(c.parameters(), back.parameters());
        assertEquals(c.fitted(), back.fitted());
        assertTrue(back.sources().get(0).startsWith("A-allreduce-8xA100-azure-ndv4"));
        assertTrue(back.sigmaUs(real.calls().get(23)) > 0, "a fitted calibration gives a band");
    }
}
