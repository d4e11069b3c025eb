package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.compare.PredictionBand;
import dev.collsim.validation.compare.Regime;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The out-of-sample band check and the shipped band rule ({@link ClassBands}, {@link PooledBand}, {@link
 * BandCoverage}) and the leave-one-out rule, on synthetic residual sets worked out by hand. Each "file" is the Azure
 * ND A100 v4 dataset's 24 sizes (1 KiB..8 GiB doubling: 10 below 1 MiB, 14 at 1 MiB and more) with measured times
 * set to the bare model's prediction x (1 + r / 100), so every point's band residual (e^|ln(measured / predicted)| -
 * 1) x 100 is r % (measured above the prediction: e^|ln(1 + r / 100)| - 1 = r / 100).
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
     * The out-of-sample check as {@link ClassBands#of} runs it: each file's points ({@link BandCoverage#of}) against
     * the band {@link PooledBand#of} makes without that file, out of the class and out of the every-class share. With
     * class and every class both A and B, leaving A out leaves the mixture (F_B + F_B) / 2 = F_B, which reaches 0.95
     * only at B's largest residual per regime: (30, 5), so A's 10 small points are in (10 &lt;= 30), none of its 14
     * large (20 &gt; 5). Leaving B out, (10, 20): B's 10 small out (30 &gt; 10), its 14 large in (5 &lt;= 20). 24 of
     * 48, where the band made with both, (30, 20), holds all 48 (the mixture (F_A + F_B + S) / 3, S = (F_A + F_B) /
     * 2, is 0.5 at a regime's smaller residual, 10 or 5, and 1 at its larger, 30 or 20).
     */
    @Test
    void leaveOneFileOutChecksEachFileAgainstTheOthersBand() {
        Map<String, PooledBand.FileResiduals> both = PooledBand.byFile(List.of(a, b), BARE);
        PredictionBand withoutA = PooledBand.of(both, both, ClassBands.LEVEL, "A.txt");
        PredictionBand withoutB = PooledBand.of(both, both, ClassBands.LEVEL, "B.txt");
        assertEquals(30, withoutA.belowMiBPercent(), 1e-9);
        assertEquals(5, withoutA.atLeastMiBPercent(), 1e-9);
        assertEquals(10, withoutB.belowMiBPercent(), 1e-9);
        assertEquals(20, withoutB.atLeastMiBPercent(), 1e-9);
        List<BandCoverage> by = List.of(BandCoverage.of(a, PerformanceParameters.DEFAULTS, withoutA),
                BandCoverage.of(b, PerformanceParameters.DEFAULTS, withoutB));
        assertEquals(List.of(new BandCoverage(10, 10, 0, 14), new BandCoverage(0, 10, 14, 14)), by);
        BandCoverage sum = BandCoverage.sum(by);
        assertEquals(24, sum.inside());
        assertEquals(48, sum.points());
        assertEquals("10/20 (50 %)", BandCoverage.words(sum.insideBelowMiB(), sum.belowMiB()));
        PredictionBand in = PooledBand.of(both, both, ClassBands.LEVEL, null);
        assertEquals(30, in.belowMiBPercent(), 1e-9);
        assertEquals(20, in.atLeastMiBPercent(), 1e-9);
        assertEquals(1.0, Residuals.inside(List.of(a, b), BARE, in), 1e-12);
    }

    /**
     * The rule ({@link PooledBand}) with class X = files A and B (bare model) and another class Y = file C, so every
     * class = A, B, C. Below 1 MiB the candidates are 10, 30, 100 and the every-class share S (each file's share of
     * its points at or below t, averaged) is 1/3, 2/3, 1; X's mixture (F_A + F_B + S) / 3 is (1 + 0 + 1/3) / 3 =
     * 0.44 at 10, (1 + 1 + 2/3) / 3 = 0.89 at 30, 1 at 100: the band is 100 (0.95 first reached). At >= 1 MiB
     * (candidates 5, 20, 50) the same 0.44, 0.89, 1: 50. Every class alone (K = 0): S reaches 0.95 at 100 and 50.
     * Out of sample, without A: X = B, S over B and C: below 1 MiB (1 + 1/2) / 2 = 0.75 at 30, 1 at 100; at >= 1 MiB
     * 0.75 at 5, 1 at 50: (100, 50), which holds A's 10 and 20. Without B, symmetrically (100, 50): B's 30 and 5 in.
     */
    @Test
    void twoFilesThatDisagreeTakeTheWidestResidual() {
        ClassBands.Entry e = ClassBands.of(bare("x", a, b), List.of(a, b, c));
        assertEquals(100, e.band().belowMiBPercent(), 1e-9);
        assertEquals(50, e.band().atLeastMiBPercent(), 1e-9);
        assertEquals(100, e.every().belowMiBPercent(), 1e-9);
        assertEquals(50, e.every().atLeastMiBPercent(), 1e-9);
        assertEquals(List.of(new BandCoverage(10, 10, 14, 14), new BandCoverage(10, 10, 14, 14)), e.bySeries());
        assertEquals(1.0, e.outOfSample(), 1e-12);
        assertEquals(1.0, e.inSample(), 1e-12);
    }

    /**
     * Class X = A and C among 20 files like B (30, 5): 22 files. Below 1 MiB S is 1/22 at 10, 21/22 at 30, 1 at
     * 100; X's mixture (F_A + F_C + S) / 3: 0.35, 0.65, 1: band 100; at >= 1 MiB S is 20/22 at 5, 21/22 at 20, 1 at
     * 50, the mixture 0.30, 0.65, 1: 50. Every class alone: 21/22 = 0.955 at 30 and at 20: (30, 20). Out of sample,
     * without A: X = C, S over C and the 20 B (21 files): below 1 MiB (0 + 20/21) / 2 = 0.48 at 30, 1 at 100; at
     * >= 1 MiB 0.48 at 5, 1 at 50: (100, 50), A's 24 points in. Without C: X = A, S over A and the 20 B: (1 + 1/21)
     * / 2 = 0.52 at 10, 1 at 30; at >= 1 MiB (0 + 20/21) / 2 = 0.48 at 5, 1 at 20: (30, 20), C's 100 and 50 out:
     * 24 of 48.
     */
    @Test
    void aFileTheOthersDoNotCoverFailsTheCheck() {
        List<Series> all = new ArrayList<>(List.of(a, c));
        for (int i = 0; i < 20; i++) {
            all.add(renamed(b, "B" + i + ".txt"));
        }
        ClassBands.Entry e = ClassBands.of(bare("x", a, c), all);
        assertEquals(100, e.band().belowMiBPercent(), 1e-9);
        assertEquals(50, e.band().atLeastMiBPercent(), 1e-9);
        assertEquals(30, e.every().belowMiBPercent(), 1e-9);
        assertEquals(20, e.every().atLeastMiBPercent(), 1e-9);
        assertEquals(List.of(new BandCoverage(10, 10, 14, 14), new BandCoverage(0, 10, 0, 14)), e.bySeries());
        assertEquals(0.5, e.outOfSample(), 1e-12);
        assertEquals(1.0, e.inSample(), 1e-12);
    }

    /**
     * A class of one file, A among 20 files like B (30, 5): 21 files. Its file weighs 1/2: below 1 MiB (1 + 1/21) / 2
     * = 0.52 at 10, 1 at 30; at >= 1 MiB (0 + 20/21) / 2 = 0.48 at 5, 1 at 20: (30, 20). The band over every class
     * alone (K = 0) is (30, 5): 20/21 = 0.952 at 5. Out of sample A is checked against the rule without it, the band
     * over the 20 B, (30, 5): its 10 small points in, its 14 large (20) out.
     */
    @Test
    void aClassOfOneFileWeighsHalf() {
        List<Series> all = new ArrayList<>(List.of(a));
        for (int i = 0; i < 20; i++) {
            all.add(renamed(b, "B" + i + ".txt"));
        }
        ClassBands.Entry e = ClassBands.of(bare("y", a), all);
        assertEquals(30, e.band().belowMiBPercent(), 1e-9);
        assertEquals(20, e.band().atLeastMiBPercent(), 1e-9);
        assertEquals(30, e.every().belowMiBPercent(), 1e-9);
        assertEquals(5, e.every().atLeastMiBPercent(), 1e-9);
        assertEquals(List.of(new BandCoverage(10, 10, 0, 14)), e.bySeries());
    }

    /**
     * The mixture by hand: class files {1, 2, 3} and {10}, every class {1, 2, 3}, {10}, {5, 5}. At t = 1, 2, 3, 5,
     * 10: F_1 = 1/3, 2/3, 1, 1, 1; F_2 = 0, 0, 0, 0, 1; S = (F_1 + F_2 + F_3) / 3 = 1/9, 2/9, 1/3, 2/3, 1; (F_1 + F_2
     * + S) / 3 = 0.15, 0.30, 0.44, 0.56, 1. Level 0.95: 10; level 0.5: 5. Without the every-class share one file
     * {1, 2, 3} reaches at most 1/2 = F / 2: level 0.3 at 2 (1/3), level 0.95 never, so its largest residual, 3.
     */
    @Test
    void pooledQuantileByHand() {
        List<double[]> cls = List.of(new double[] {1, 2, 3}, new double[] {10});
        List<double[]> every = List.of(new double[] {1, 2, 3}, new double[] {10}, new double[] {5, 5});
        assertEquals(10, PooledBand.quantile(cls, every, 0.95));
        assertEquals(5, PooledBand.quantile(cls, every, 0.5));
        assertEquals(2, PooledBand.quantile(List.of(new double[] {1, 2, 3}), List.of(), 0.3));
        assertEquals(3, PooledBand.quantile(List.of(new double[] {1, 2, 3}), List.of(), 0.95));
        assertEquals(0, PooledBand.quantile(List.of(), List.of(), 0.95));
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
     * Class X = A and a copy A2 among A, A2, 20 files like B (30, 5) and C (100, 50): 23 files. Below 1 MiB S is
     * 2/23 at 10 and 22/23 at 30; X's mixture (2 + S) / 3 is 0.70 at 10 and 0.986 at 30: band 30; at >= 1 MiB S is
     * 20/23 at 5 and 22/23 at 20, the mixture 0.29 at 5 and 0.986 at 20: 20. The two like files are not enough to
     * ship their own 10 below 1 MiB: the unseen file's share is the other classes', and 30 is where most of them are.
     * Out of sample, without A: (1 + 21/22) / 2 = 0.98 at 30 and at 20: (30, 20) holds A's 10 and 20; A2 likewise.
     */
    @Test
    void twoLikeFilesLeanOnTheOtherClasses() throws Exception {
        Series a2 = withResiduals("A2.txt", 10, 20);
        List<Series> all = new ArrayList<>(List.of(a, a2, c));
        for (int i = 0; i < 20; i++) {
            all.add(renamed(b, "B" + i + ".txt"));
        }
        ClassBands.Entry e = ClassBands.of(bare("x", a, a2), all);
        assertEquals(30, e.band().belowMiBPercent(), 1e-9);
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
        return new ProfileBuilder.ClassFit(new ProfileClass("x", "x"), s, Optional.empty(),
                "test");
    }

    private static ProfileBuilder.Score score(Series s, double loo, double in) {
        return new ProfileBuilder.Score(s, 0, loo, in, "-", new double[] {0, loo, in}, PerformanceParameters.DEFAULTS);
    }

    private static ProfileBuilder.ClassFit bare(String key, Series... series) {
        List<ProfileBuilder.Score> s = Arrays.stream(series).map(x -> new ProfileBuilder.Score(x, 0, Double.NaN,
                Double.NaN, "-", new double[] {0, Double.NaN, Double.NaN}, PerformanceParameters.DEFAULTS)).toList();
        return new ProfileBuilder.ClassFit(new ProfileClass(key, key), s, Optional.empty(),
                "bare model");
    }
}
