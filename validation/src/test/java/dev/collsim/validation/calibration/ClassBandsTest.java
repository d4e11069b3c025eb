package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.compare.PredictionBand;
import dev.collsim.validation.compare.Regime;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The out-of-sample band check ({@link Residuals#insideLeaveOneFileOut}), the shipped band rule ({@link ClassBands})
 * and the leave-one-out rule, on synthetic residual sets worked out by hand. Each "file" is the Azure ND A100 v4
 * dataset's 24 sizes (1 KiB..8 GiB doubling: 10 below 1 MiB, 14 at 1 MiB and more) with measured times set to the
 * bare model's prediction x (1 + r / 100), so every point's band residual (e^|ln(measured / predicted)| - 1) x 100 is
 * r % (measured above the prediction: e^|ln(1 + r / 100)| - 1 = r / 100).
 */
class ClassBandsTest {

    private static final Function<Series, PerformanceParameters> BARE = s -> PerformanceParameters.DEFAULTS;
    private static final PredictionBand NONE = new PredictionBand(0, 0);
    private static Series a;
    private static Series b;
    private static Series c;

    @BeforeAll
    static void files() throws Exception {
        a = withResiduals("A.txt", 10, 20);
        b = withResiduals("B.txt", 30, 5);
        c = withResiduals("C.txt", 100, 50);
    }

    private static Series withResiduals(String file, double small, double large) throws Exception {
        Dataset d = Corpus.read("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt").get(0);
        Dataset r = new Dataset(file, d.label(), d.line(), d.kind(), d.collective(), d.dataType(), d.nRanks(),
                d.nHosts(), d.gpuModel(), d.ncclRelease(), d.env(), d.header(), d.ranks(), d.points(), d.avgBusBw(),
                d.summaryMaxBusBw(), d.log(), d.notes());
        Series s = SeriesBuilder.of(r, Optional.empty(), new Comparer(Optional.empty(),
                PerformanceParameters.DEFAULTS, null)).orElseThrow();
        double[] t = new double[s.calls().size()];
        for (int i = 0; i < t.length; i++) {
            double pct = s.sizes()[i] >= Regime.ONE_MIB ? large : small;
            t[i] = s.calls().get(i).timeUs(PerformanceParameters.DEFAULTS) * (1 + pct / 100);
        }
        return new Series(r, s.calls(), t, s.sizes());
    }

    @Test
    void theFilesHaveTenSmallAndFourteenLargePoints() {
        assertEquals(10, Arrays.stream(a.sizes()).filter(x -> x < Regime.ONE_MIB).count());
        assertEquals(14, Arrays.stream(a.sizes()).filter(x -> x >= Regime.ONE_MIB).count());
    }

    /**
     * A and B pooled: below 1 MiB ten 10s and ten 30s, p95 rank ceil(19) = 19: 30; at >= 1 MiB fourteen 20s and
     * fourteen 5s, rank ceil(26.6) = 27: 20. A regime without points takes the given band's half-width.
     */
    @Test
    void bandIsThePercentilePerRegime() {
        PredictionBand p = Residuals.band(List.of(a, b), BARE, 95, NONE);
        assertEquals(30, p.belowMiBPercent(), 1e-9);
        assertEquals(20, p.atLeastMiBPercent(), 1e-9);
        PredictionBand e = Residuals.band(List.of(), BARE, 95, new PredictionBand(7, 8));
        assertEquals(7, e.belowMiBPercent());
        assertEquals(8, e.atLeastMiBPercent());
    }

    /**
     * Leaving A out, the band is B's (30, 5): A's 10 small points (10 <= 30) are in, its 14 large (20 > 5) out.
     * Leaving B out, the band is A's (10, 20): B's small (30 > 10) out, its 14 large (5 <= 20) in. 24 of 48, where
     * the in-sample band (30, 20) holds all 48. With a floor of (25, 25): A is checked against (30, 25), all 24 in;
     * B against (25, 25), its 10 small out: 38.
     */
    @Test
    void leaveOneFileOutChecksEachFileAgainstTheOthersBand() {
        assertEquals(24, Residuals.insideLeaveOneFileOut(List.of(a, b), BARE, 95, f -> NONE, f -> NONE));
        assertEquals(1.0, Residuals.inside(List.of(a, b), BARE, new PredictionBand(30, 20)), 1e-12);
        assertEquals(38, Residuals.insideLeaveOneFileOut(List.of(a, b), BARE, 95, f -> NONE,
                f -> new PredictionBand(25, 25)));
    }

    /**
     * Class X = files A and B (bare model), another class Y = file C. X's own band (30, 20) holds 24 of 48 out of
     * sample (above): 50 % < 90 %, so it is widened. The band over every class (A, B, C): below 1 MiB 30 values (10,
     * 30, 100 ten each), rank ceil(28.5) = 29: 100; at >= 1 MiB 42 values (20, 5, 50 fourteen each), rank ceil(39.9)
     * = 40: 50; the floor cap is max(100, 50) = 100. Candidate floors, X's residuals: 5, 10, 20, 30. Out of sample
     * with floor k (per regime min(k, every)), A against the wider of B's (30, 5) and it, B against the wider of A's
     * (10, 20) and it: k = 5 or 10: A's 10 small in, 14 large (20) out; B's small (30) out, large in: 24 (50 %); k =
     * 20: A all in, B's small out: 38 (79 %); k = 30: all 48 in (100 %). So k = 30, band (max(30, 30), max(20, 30)) =
     * (30, 30), factor 1.30: narrower than the band over every class (100, 50) the old rule took.
     */
    @Test
    void aClassWhoseOwnBandFailsOutOfSampleTakesTheSmallestFloorThatHolds() {
        ProfileBuilder.ClassFit x = bare("x", a, b);
        ClassBands.Entry e = ClassBands.of(x, List.of(a, b, c));
        assertTrue(e.widened());
        assertEquals(0.5, e.ownInside(), 1e-12);
        assertEquals(30, e.floor(), 1e-9);
        assertEquals(30, e.band().belowMiBPercent(), 1e-9);
        assertEquals(30, e.band().atLeastMiBPercent(), 1e-9);
        assertEquals(1.0, e.outOfSample(), 1e-12);
        assertEquals(1.0, e.inSample(), 1e-12);
        assertTrue(e.widening().contains("smallest floor"), e.widening());
    }

    /**
     * Class X = A and C among 20 files like B (30, 5): the files outside X do not cover C. Every class (22 files):
     * below 1 MiB 220 values (10 x10, 30 x200, 100 x10), rank ceil(209) = 209: 30; at >= 1 MiB 308 values (5 x280,
     * 20 x14, 50 x14), rank ceil(292.6) = 293: 20; cap 30. X's own band (A, C pooled) is (100, 50); out of sample A
     * against C's (100, 50): 24 in, C against A's (10, 20): 0 in, 50 %. Candidate floors <= 30: 10, 20; with either,
     * C is checked against at most (20, 20) and its 100 / 50 stay out: 50 %. No floor holds, so the band over every
     * class: (max(100, 30), max(50, 20)) = (100, 50), and out of sample C against the wider of A's (10, 20) and every
     * class without C (below 210 values, rank 200: 30; at >= 1 MiB 294 values, rank 280: 5), (30, 20): 0 in. The
     * check fails: 24 of 48. The band shipped, (100, 50), is X's own band: the band over every class (30, 20) is
     * narrower in both regimes, so nothing was widened, and the entry must not say it was widened to that band (it
     * did, naming a band of factor 2.00 / 1.50 beside a shipped 2.00 / 1.50 own band of the class, as the blackwell-roce
     * row read "widened ... to the band over every class" at factor 10.83 / 14.53 beside an all-class 5.24 / 2.47).
     */
    @Test
    void aClassTheOtherFilesDoNotCoverFailsTheCheck() {
        List<Series> all = new ArrayList<>(List.of(a, c));
        for (int i = 0; i < 20; i++) {
            all.add(renamed(b, "B" + i + ".txt"));
        }
        ClassBands.Entry e = ClassBands.of(bare("x", a, c), all);
        assertFalse(e.widened());
        assertEquals(ClassBands.Rule.OWN_FAILS, e.rule());
        assertEquals(0.5, e.ownInside(), 1e-12);
        assertTrue(Double.isNaN(e.floor()));
        assertEquals(100, e.band().belowMiBPercent(), 1e-9);
        assertEquals(50, e.band().atLeastMiBPercent(), 1e-9);
        assertEquals(30, e.every().belowMiBPercent(), 1e-9);
        assertEquals(20, e.every().atLeastMiBPercent(), 1e-9);
        assertEquals(0.5, e.outOfSample(), 1e-12);
        assertTrue(e.widening().startsWith("not widened (own band 50 % out of sample, below 90 %): no floor"),
                e.widening());
    }

    /** A point measured at a third of the prediction and one at three times it have the same band residual, 200 %. */
    @Test
    void aThirdAndThreeTimesAreEquallyFar() {
        Series third = scaled(a, "T.txt", 1.0 / 3);
        Series triple = scaled(a, "U.txt", 3);
        PredictionBand p = Residuals.band(List.of(third), BARE, 95, NONE);
        PredictionBand q = Residuals.band(List.of(triple), BARE, 95, NONE);
        assertEquals(200, p.belowMiBPercent(), 1e-9);
        assertEquals(200, q.atLeastMiBPercent(), 1e-9);
        assertEquals(1.0, Residuals.inside(List.of(third, triple), BARE, new PredictionBand(200, 200)), 1e-12);
        assertEquals(0.0, Residuals.inside(List.of(third, triple), BARE, new PredictionBand(199, 199)), 1e-12);
    }

    private static Series renamed(Series s, String file) {
        Dataset d = s.dataset();
        Dataset r = new Dataset(file, d.label(), d.line(), d.kind(), d.collective(), d.dataType(), d.nRanks(),
                d.nHosts(), d.gpuModel(), d.ncclRelease(), d.env(), d.header(), d.ranks(), d.points(), d.avgBusBw(),
                d.summaryMaxBusBw(), d.log(), d.notes());
        return new Series(r, s.calls(), s.measuredUs(), s.sizes());
    }

    private static Series scaled(Series s, String file, double ratio) {
        double[] t = new double[s.calls().size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = s.calls().get(i).timeUs(PerformanceParameters.DEFAULTS) * ratio;
        }
        Series r = renamed(s, file);
        return new Series(r.dataset(), r.calls(), t, r.sizes());
    }

    /**
     * Class X = A and a copy of A under another file name: each file's band from the other is (10, 20), which holds
     * every point: 100 % >= 90 %, the own band (10, 20) is kept.
     */
    @Test
    void aClassWhoseOwnBandHoldsKeepsIt() throws Exception {
        Series a2 = withResiduals("A2.txt", 10, 20);
        ClassBands.Entry e = ClassBands.of(bare("x", a, a2), List.of(a, a2, c));
        assertFalse(e.widened());
        assertEquals(10, e.band().belowMiBPercent(), 1e-9);
        assertEquals(20, e.band().atLeastMiBPercent(), 1e-9);
        assertEquals(1.0, e.outOfSample(), 1e-12);
    }

    /**
     * The leave-one-out rule: leave-one-out medians 12 and 14 (median 13) against in-sample 9 and 11 (median 10):
     * +3.0 points, more than 2: fails; 10 and 12 (11) against 9 and 11 (10): +1.0, holds.
     */
    @Test
    void leaveOneOutRuleIsTheGapOfTheMedians() {
        assertEquals("+3.0: fails", ProfileFiles.looRule(scored(12, 14, 9, 11)));
        assertEquals("+1.0: holds", ProfileFiles.looRule(scored(10, 12, 9, 11)));
        assertEquals("-", ProfileFiles.looRule(bare("x", a, b)));
    }

    private static ProfileBuilder.ClassFit scored(double loo1, double loo2, double in1, double in2) {
        List<ProfileBuilder.Score> s = List.of(score(a, loo1, in1), score(b, loo2, in2));
        return new ProfileBuilder.ClassFit(new ProfileClass("x", "x"), s, Optional.empty(), Optional.empty(), 0, 0,
                "test");
    }

    private static ProfileBuilder.Score score(Series s, double loo, double in) {
        return new ProfileBuilder.Score(s, 0, loo, in, "-", new double[] {0, loo, in}, PerformanceParameters.DEFAULTS);
    }

    private static ProfileBuilder.ClassFit bare(String key, Series... series) {
        List<ProfileBuilder.Score> s = Arrays.stream(series).map(x -> new ProfileBuilder.Score(x, 0, Double.NaN,
                Double.NaN, "-", new double[] {0, Double.NaN, Double.NaN}, PerformanceParameters.DEFAULTS)).toList();
        return new ProfileBuilder.ClassFit(new ProfileClass(key, key), s, Optional.empty(), Optional.empty(), 0, 0,
                "bare model");
    }
}
