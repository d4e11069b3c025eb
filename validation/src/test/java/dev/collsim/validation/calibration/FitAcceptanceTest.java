package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.compare.ErrorStats;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * Each refusal rule of {@link FitAcceptance} on data whose verdict is clear by construction: times generated from
 * the model on the real sizes and cluster of the Azure ND A100 v4 dataset (24 sizes, 1 KiB..8 GiB), then
 * altered so that exactly one rule must trip; and a fit of exact data with plausible parameters must pass.
 */
class FitAcceptanceTest {

    private static final EnumSet<FitParameter> TWO =
            EnumSet.of(FitParameter.LAUNCH_OVERHEAD_US, FitParameter.BW_EFFICIENCY_SIMPLE);

    private static Series real() throws Exception {
        Dataset d = Corpus.read("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt").get(0);
        return SeriesBuilder.of(d, Optional.empty(),
                new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null)).orElseThrow();
    }

    /** Times: f(i) applied to the model's time of point i under {@code truth}. */
    private static Series synthetic(Series s, PerformanceParameters truth, BiFunction<Integer,
            Double, Double> f) {
        double[] t = new double[s.calls().size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = f.apply(i, s.calls().get(i).timeUs(truth));
        }
        return new Series(s.dataset(), s.calls(), t, s.sizes());
    }

    private static PerformanceParameters truth(double launchUs, double eff) {
        return FitParameter.BW_EFFICIENCY_SIMPLE.with(FitParameter.LAUNCH_OVERHEAD_US.with(
                PerformanceParameters.DEFAULTS, GpuGeneration.AMPERE, launchUs), GpuGeneration.AMPERE, eff);
    }

    private static Calibration fit(Series s) throws CalibrationException {
        return new Fitter(TWO, false).fit(List.of(s), PerformanceParameters.DEFAULTS, true);
    }

    /** Exact data from launch 11 us, efficiency 0.85 (both inside their ranges, efficiency below 1): accepted. */
    @Test
    void acceptsExactPlausibleFit() throws Exception {
        Calibration c = fit(synthetic(real(), truth(11, 0.85), (i, t) -> t));
        assertEquals(List.of(), FitAcceptance.problems(c));
    }

    /** Data generated with efficiency 1.3: the fit recovers 1.3, which is faster than the link. */
    @Test
    void refusesEfficiencyAboveOne() throws Exception {
        Calibration c = fit(synthetic(real(), truth(11, 1.3), (i, t) -> t));
        assertEquals(1.3, c.parameters().bwEfficiencySimple(), 1e-4);
        List<String> p = FitAcceptance.problems(c);
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).startsWith("bwEfficiencySimple = 1.3") && p.get(0).contains("faster than the link"),
                p.get(0));
    }

    /**
     * Data from launch 0 minus 5 us at every size: the least-squares launch overhead is -5 us, below the range
     * [0, 100], so the fit must stop at 0 and be refused for ending at a bound.
     */
    @Test
    void refusesParameterAtBound() throws Exception {
        Calibration c = fit(synthetic(real(), truth(0, 0.85), (i, t) -> t - 5.0));
        assertEquals(0.0, c.parameters().launchOverheadUs(), 1e-9);
        assertTrue(FitAcceptance.problems(c).stream().anyMatch(s -> s.startsWith("launchOverheadUs ended at a bound")),
                FitAcceptance.problems(c).toString());
    }

    /**
     * Times alternately x1.5 and x0.6 of the model's: a model smooth in size cannot follow the alternation; with a
     * common scale s the even points miss by |s/1.5 - 1| and the odd by |s/0.6 - 1|, whose larger is at least
     * 42.9% (equal at s = 6/7), so the median error of all points and of the held-out odd points exceeds 20%.
     */
    @Test
    void refusesLargeResiduals() throws Exception {
        Calibration c = fit(synthetic(real(), truth(11, 0.85), (i, t) -> t * (i % 2 == 0 ? 1.5 : 0.6)));
        List<String> p = FitAcceptance.problems(c);
        assertTrue(p.stream().anyMatch(s -> s.startsWith("median residual")), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.startsWith("hold-out median error")), p.toString());
    }

    /** Relative standard error: 2 +- 1.5 (75%) is refused, 2 +- 0.9 (45%) and 2 +- 1.0 (exactly 50%) are not. */
    @Test
    void refusesLargeRelativeStandardError() {
        ErrorStats ok = new ErrorStats(10, 5, 8, 9);
        for (double[] sv : new double[][] {{1.5, 1}, {0.9, 0}, {1.0, 0}}) {
            Calibration c = new Calibration(PerformanceParameters.DEFAULTS, GpuGeneration.AMPERE,
                    List.of(new FittedValue("latencyScale", 2.0, sv[0], 1.0, false)), new double[1][1], List.of(),
                    ok, ok, ok, List.of(), 10, 1);
            List<String> p = FitAcceptance.problems(c);
            assertEquals((int) sv[1], p.size(), p.toString());
            if (sv[1] == 1) {
                assertTrue(p.get(0).contains("relative standard error 75% > 50%"), p.get(0));
            }
        }
    }
}
