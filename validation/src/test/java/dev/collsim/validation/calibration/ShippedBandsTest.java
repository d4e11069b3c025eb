package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shipped profiles on the project's real measurement files (src/test/resources/data): the network profile
 * leaves one-host predictions alone, and the shipped bands hold on files that did not make them.
 */
class ShippedBandsTest {

    private static List<ProfileBuilder.ClassFit> fits;

    @BeforeAll
    static void build() throws Exception {
        fits = new ProfileBuilder(Optional.empty()).build(AccuracyGateTest.corpus());
    }

    private static ProfileBuilder.ClassFit cls(String key) {
        return fits.stream().filter(f -> f.profileClass().key().equals(key)).findFirst().orElseThrow();
    }

    /**
     * The InfiniBand class's bandwidth rung is the network efficiency, not the Simple one (FitLadder#network), and
     * nothing else that one host sees: that rung fitted on its files predicts one DGX H100 (and a plan's
     * tensor-parallel groups inside a host) exactly as the bare model does, for AllReduce, AllGather and AllToAll at
     * 1 KiB..8 GiB, while two DGX H100 at 8 GiB are predicted slower (the fitted efficiency is below 1: the bare model
     * is mostly fast on these files). The rung is fitted on its own: which rung the class's ladder accepts on every
     * file depends on the corpus (a latency rung before it may pass), and the class is not shipped either way (no
     * fit is accepted without the XE9680 file; see ProfileBuilder).
     */
    @Test
    void infinibandProfileLeavesOneHostCallsAlone() throws Exception {
        Set<FitParameter> net = Set.of(FitParameter.BW_EFFICIENCY_NET);
        assertTrue(FitLadder.network().steps().contains(net), "the network ladder's bandwidth rung");
        Calibration cal = FitLadder.of(net, false).fit(ClassBands.series(List.of(cls("hopper-infiniband"))),
                PerformanceParameters.DEFAULTS).accepted().orElseThrow();
        assertEquals(List.of("bwEfficiencyNet"), cal.fitted().stream().map(FittedValue::name).toList());
        PerformanceParameters p = cal.parameters();
        Topology one = ClusterLoader.load("dgx-h100");
        for (Collective c : new Collective[] {Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.ALL_TO_ALL}) {
            for (long n = 1 << 10; n <= 8L << 30; n <<= 3) {
                assertEquals(time(one, c, n, PerformanceParameters.DEFAULTS), time(one, c, n, p), 0.0, c + " " + n);
            }
        }
        Topology two = ClusterLoader.load("dgx-h100x2");
        assertTrue(time(two, Collective.ALL_REDUCE, 8L << 30, p)
                > time(two, Collective.ALL_REDUCE, 8L << 30, PerformanceParameters.DEFAULTS));
    }

    private static double time(Topology t, Collective c, long n, PerformanceParameters p) throws Exception {
        return new NcclPredictor(NcclVersion.DEFAULT, p).predict(new PredictionRequest(t, t.gpus(), c, n,
                DataType.FLOAT, RedOp.SUM, NcclSettings.DEFAULTS)).timeUs();
    }

    /**
     * The accuracy gate for the figures with the shipped profile choice, out of sample (the second closing line of
     * {@code collsim accuracy}): each healthy dataset of a class that ships a profile counted by the profile refitted
     * without its file, the others by the bare model; they must not regress past the {@code choice.*} figures of
     * {@code accuracy-gate.properties} (the same rule as {@link AccuracyGateTest}).
     */
    @Test
    void shippedChoiceDoesNotRegressOnThePublicData() throws Exception {
        AccuracySummary.WithChoice now = AccuracySummary.withChoice(AccuracyGateTest.bareRows(), fits);
        List<String> regressions = AccuracyGate.regressions(AccuracyGate.recorded("choice."), now.figures());
        assertTrue(regressions.isEmpty(), "accuracy with the shipped choice regressed: " + regressions + "\nnow: "
                + now.render());
    }

    /**
     * The share of measured points inside their class's band out of sample must not fall more than half a point
     * below the share recorded in {@code accuracy-gate.properties} ({@code bandsOutOfSample}). The target is
     * 90 %: met with the 141 datasets of 2026-12-07 (92.3 %), missed since the 23 datasets added that evening (89.9 %,
     * recorded as measured; docs/accuracy.md says where the band fails).
     */
    @Test
    void bandsHoldOutOfSampleOnTheRealData() {
        List<Series> all = ClassBands.series(fits);
        double in = 0;
        for (ProfileBuilder.ClassFit f : fits) {
            in += ClassBands.of(f, all).outOfSample() * Residuals.points(ClassBands.series(List.of(f)));
        }
        double share = in / Residuals.points(all);
        double recorded = AccuracyGate.recordedBandShare();
        assertTrue(share >= recorded - 0.005, "out-of-sample share " + share + " < recorded " + recorded + " - 0.005");
    }

    /**
     * The out-of-sample share of one bare-model class recounted here independently: Ampere hosts over RoCE (3
     * files): for each file, per regime (below 1 MiB, at 1 MiB and more), the smallest residual r = max(m / p, p / m)
     * - 1 of any file at which the mean of (each other class file's share of its points at or below r, and the mean
     * of that share over every other file of every class) reaches 0.95, counted point by point; then the file's points
     * within it.
     */
    @Test
    void outOfSampleShareRecountedByHand() {
        ProfileBuilder.ClassFit f = cls("ampere-roce");
        List<Series> s = ClassBands.series(List.of(f));
        List<Series> all = ClassBands.series(fits);
        int in = 0;
        int n = 0;
        for (String file : f.files()) {
            for (Series o : s) {
                if (o.dataset().file().equals(file)) {
                    for (int i = 0; i < o.sizes().length; i++) {
                        boolean large = o.sizes()[i] >= 1 << 20;
                        double r = mixture(byFile(s, file, large), byFile(all, file, large));
                        in += residual(o, i) <= r * (1 + 1e-9) ? 1 : 0;
                        n++;
                    }
                }
            }
        }
        assertEquals((double) in / n, ClassBands.of(f, all).outOfSample(), 1e-12);
    }

    /** @return the smallest residual where (the class files' shares + the every-class mean share) / (K + 1) >= 0.95 */
    private static double mixture(List<List<Double>> cls, List<List<Double>> every) {
        List<Double> cand = new ArrayList<>();
        cls.forEach(cand::addAll);
        every.forEach(cand::addAll);
        Collections.sort(cand);
        for (double t : cand) {
            double g = 0;
            for (List<Double> v : cls) {
                g += v.stream().filter(x -> x <= t).count() / (double) v.size();
            }
            double e = 0;
            for (List<Double> v : every) {
                e += v.stream().filter(x -> x <= t).count() / (double) v.size();
            }
            if ((g + e / every.size()) / (cls.size() + 1) >= 0.95 - 1e-12) {
                return t;
            }
        }
        throw new AssertionError("no residual reaches 0.95");
    }

    /** @return per file other than {@code file}, its bare residuals in one regime (files without one left out) */
    private static List<List<Double>> byFile(List<Series> series, String file, boolean large) {
        List<String> files = series.stream().map(o -> o.dataset().file()).filter(x -> !x.equals(file)).distinct()
                .toList();
        List<List<Double>> out = new ArrayList<>();
        for (String g : files) {
            List<Double> v = new ArrayList<>();
            for (Series o : series) {
                for (int i = 0; o.dataset().file().equals(g) && i < o.sizes().length; i++) {
                    if ((o.sizes()[i] >= 1 << 20) == large) {
                        v.add(residual(o, i));
                    }
                }
            }
            if (!v.isEmpty()) {
                out.add(v);
            }
        }
        return out;
    }

    private static double residual(Series o, int i) {
        double pred = o.calls().get(i).timeUs(PerformanceParameters.DEFAULTS);
        return Math.max(o.measuredUs()[i] / pred, pred / o.measuredUs()[i]) - 1;
    }
}
