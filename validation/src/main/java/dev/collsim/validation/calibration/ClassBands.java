package dev.collsim.validation.calibration;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.compare.PredictionBand;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The band shipped with each class's choice (its profile, or the bare model) and the share of the class's points it
 * holds, out of sample and in sample. Stateless.
 *
 * <p>The rule (collsim's; the {@value ProfileBuilder#BAND_PERCENTILE}th percentile, nearest rank, per regime below
 * 1 MiB and at 1 MiB and more, of residuals |ln(measured / predicted)|, the band being [predicted x e^-r, predicted x
 * e^r], see {@link PredictionBand}):
 * <ul>
 *   <li>the class's own band: with a profile, the percentile of its leave-one-file-out residuals
 *       ({@link ProfileBuilder.ClassFit#band()}); without one, of the bare model's residuals on the class, in a regime
 *       the class has no point in the band over every class; a class of fewer than {@value ProfileBuilder#MIN_FILES}
 *       files has no own band and takes the band over every class;</li>
 *   <li>the own band is shipped only when it holds out of sample: at least {@value #MIN_OUT_OF_SAMPLE_PERCENT} % of
 *       the class's points lie inside the band the same rule makes without their file
 *       ({@link Residuals#insideLeaveOneFileOut}). Otherwise (a class whose few files disagree) the band is widened:
 *       per regime the wider of the own band and a floor, the floor being the smallest upper reach k (taken from
 *       the class's own point residuals, per regime at most the band over every class) that brings the class's
 *       out-of-sample share to {@value #MIN_OUT_OF_SAMPLE_PERCENT} %; when no such k does, the floor is the band
 *       over every class (as made without each point's file).</li>
 * </ul>
 * Out of sample, a point is checked against the band its rule makes without the point's file: the own band from the
 * class's other files, the band over every class from every other file, and for a widened class the wider of the own
 * band and the floor. Which rule a class gets, and a widened class's floor k, are decided on the class's own
 * out-of-sample share (the steps that see every file).
 */
public final class ClassBands {

    /** Least out-of-sample share, percent, for a class to keep its own band (collsim's choice, the target). */
    public static final double MIN_OUT_OF_SAMPLE_PERCENT = 90;

    private static final PredictionBand NONE = new PredictionBand(0, 0);

    private ClassBands() {
    }

    /** Which rule set a class's shipped band. */
    public enum Rule {
        /** The class's own band holds out of sample. */
        OWN,
        /** Fewer than {@value ProfileBuilder#MIN_FILES} files (or no point): the band over every class. */
        EVERY_CLASS,
        /** The own band failed out of sample and was widened to the smallest floor that holds. */
        FLOOR,
        /** No floor holds; the band over every class is wider than the own band in a regime and widens it there. */
        WIDENED_TO_EVERY_CLASS,
        /**
         * No floor holds, and the own band is already at least as wide as the band over every class in both regimes:
         * it is shipped as it is, and fails the out-of-sample check (its files disagree more than any band collsim
         * widens to).
         */
        OWN_FAILS
    }

    /**
     * One class's shipped band.
     *
     * @param band        the band shipped with the class's choice
     * @param rule        which rule set it
     * @param ownInside   out-of-sample share of the own band alone, 0..1
     * @param outOfSample share of the class's points inside the shipped rule's band made without their file, 0..1
     * @param inSample    share of the class's points inside the shipped band (made with every file), 0..1
     * @param floor       a widened class's floor: the smallest upper reach, percent, that brings its out-of-sample
     *                    share to {@value #MIN_OUT_OF_SAMPLE_PERCENT} %; NaN when not widened or widened to the band
     *                    over every class
     * @param every       the band over every class (made from every file)
     * @param bySeries    per series of the class ({@link #series}), its points inside the shipped rule's band made
     *                    without its file, per regime ({@code outOfSample} is their share)
     */
    public record Entry(PredictionBand band, Rule rule, double ownInside, double outOfSample, double inSample,
            double floor, PredictionBand every, List<BandCoverage> bySeries) {

        /** Copies the list. */
        public Entry {
            bySeries = List.copyOf(bySeries);
        }

        /** @return true when the own band failed out of sample and the shipped band is wider in some regime */
        public boolean widened() {
            return rule == Rule.FLOOR || rule == Rule.WIDENED_TO_EVERY_CLASS;
        }

        /**
         * @return how the band was widened, or why a failing own band was not, in words ("" when the own band holds
         *         or the class takes the band over every class)
         */
        public String widening() {
            String failed = String.format(Locale.ROOT, "(own band %.0f %% out of sample, below %.0f %%) ",
                    100 * ownInside, MIN_OUT_OF_SAMPLE_PERCENT);
            return switch (rule) {
                case OWN, EVERY_CLASS -> "";
                case FLOOR -> "widened " + failed + "to the smallest floor that holds " + String.format(Locale.ROOT,
                        "%.0f %%: ", MIN_OUT_OF_SAMPLE_PERCENT) + PredictionBand.words(floor);
                case WIDENED_TO_EVERY_CLASS -> "widened " + failed + "to the band over every class ("
                        + every.regimes() + ") where that is wider";
                case OWN_FAILS -> "not widened " + failed.trim() + ": no floor up to the band over every class ("
                        + every.regimes() + ", narrower than the own band) holds, so the own band ships and fails the"
                        + " check";
            };
        }
    }

    /**
     * @param f   a class
     * @param all every class's series (the band over every class is made from them)
     * @return its shipped band and the shares it holds
     */
    public static Entry of(ProfileBuilder.ClassFit f, List<Series> all) {
        List<Series> s = series(List.of(f));
        int pts = Residuals.points(s);
        PredictionBand every = ProfileBuilder.bandOf(all);
        Function<String, PredictionBand> everyWithout = file -> ProfileBuilder.bandOf(all.stream()
                .filter(x -> !x.dataset().file().equals(file)).toList());
        Function<Series, PerformanceParameters> params = f.profile().isPresent() ? f::looParameters
                : x -> PerformanceParameters.DEFAULTS;
        Function<Series, PerformanceParameters> shipped = f.profile().isPresent()
                ? x -> f.profile().get().parameters() : params;
        if (pts == 0) {
            return new Entry(every, Rule.EVERY_CLASS, 0, 0, 0, Double.NaN, every, List.of());
        }
        if (f.files().size() < ProfileBuilder.MIN_FILES) {
            List<BandCoverage> by = Residuals.leaveOneFileOut(s, params, ProfileBuilder.BAND_PERCENTILE,
                    everyWithout, everyWithout);
            double out = BandCoverage.sum(by).share();
            return new Entry(every, Rule.EVERY_CLASS, out, out, Residuals.inside(s, shipped, every), Double.NaN,
                    every, by);
        }
        PredictionBand own = f.profile().isPresent() ? f.band().orElseThrow() : bareBand(f, every);
        Function<String, PredictionBand> emptyRegime = f.profile().isPresent() ? x -> NONE : everyWithout;
        List<BandCoverage> ownBy = Residuals.leaveOneFileOut(s, params, ProfileBuilder.BAND_PERCENTILE,
                emptyRegime, x -> NONE);
        double ownOut = BandCoverage.sum(ownBy).share();
        if (100 * ownOut >= MIN_OUT_OF_SAMPLE_PERCENT) {
            return new Entry(own, Rule.OWN, ownOut, ownOut, Residuals.inside(s, shipped, own), Double.NaN, every,
                    ownBy);
        }
        ToDoubleFunction<Double> outWith = k -> (double) Residuals.insideLeaveOneFileOut(s, params,
                ProfileBuilder.BAND_PERCENTILE, emptyRegime, x -> capped(k, every)) / pts;
        List<Double> ks = candidates(s, params, every);
        int lo = 0;
        int hi = ks.size();
        while (lo < hi) {   // the share grows with k: the first candidate that holds
            int mid = (lo + hi) >>> 1;
            if (100 * outWith.applyAsDouble(ks.get(mid)) >= MIN_OUT_OF_SAMPLE_PERCENT) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        if (lo < ks.size()) {
            double k = ks.get(lo);
            PredictionBand b = wider(own, capped(k, every));
            List<BandCoverage> by = Residuals.leaveOneFileOut(s, params, ProfileBuilder.BAND_PERCENTILE,
                    emptyRegime, x -> capped(k, every));
            return new Entry(b, Rule.FLOOR, ownOut, BandCoverage.sum(by).share(), Residuals.inside(s, shipped, b),
                    k, every, by);
        }
        PredictionBand wide = wider(own, every);
        List<BandCoverage> by = Residuals.leaveOneFileOut(s, params, ProfileBuilder.BAND_PERCENTILE,
                emptyRegime, everyWithout);
        double out = BandCoverage.sum(by).share();
        // the band over every class widens the own band only where it is wider: where the own band is wider in both
        // regimes nothing is widened (saying "widened to the band over every class" there named a narrower band)
        Rule rule = wide.equals(own) ? Rule.OWN_FAILS : Rule.WIDENED_TO_EVERY_CLASS;
        return new Entry(wide, rule, ownOut, out, Residuals.inside(s, shipped, wide), Double.NaN, every, by);
    }

    /** @return the floor k per regime, at most the band over every class */
    static PredictionBand capped(double k, PredictionBand every) {
        return new PredictionBand(Math.min(k, every.belowMiBPercent()), Math.min(k, every.atLeastMiBPercent()));
    }

    /**
     * @return the candidate floors, ascending: the class's own point residuals (upper reach, percent) up to the
     *         wider regime of the band over every class
     */
    static List<Double> candidates(List<Series> s, Function<Series, PerformanceParameters> params,
            PredictionBand every) {
        List<Double> r = new ArrayList<>();
        s.forEach(x -> Residuals.relativeToPredicted(x, params.apply(x), r, r));
        double cap = Math.max(every.belowMiBPercent(), every.atLeastMiBPercent());
        return r.stream().filter(x -> x <= cap).distinct().sorted().toList();
    }

    /** @return per regime the wider half-width of a and b */
    static PredictionBand wider(PredictionBand a, PredictionBand b) {
        return new PredictionBand(Math.max(a.belowMiBPercent(), b.belowMiBPercent()),
                Math.max(a.atLeastMiBPercent(), b.atLeastMiBPercent()));
    }

    /**
     * @param f     a class
     * @param every the bare band over every class
     * @return the bare model's own band for the class: its percentile (in a regime where it has no point,
     *         {@code every}'s); {@code every} for a class of fewer than {@value ProfileBuilder#MIN_FILES} files
     */
    static PredictionBand bareBand(ProfileBuilder.ClassFit f, PredictionBand every) {
        if (f.files().size() < ProfileBuilder.MIN_FILES) {
            return every;
        }
        return Residuals.band(series(List.of(f)), x -> PerformanceParameters.DEFAULTS,
                ProfileBuilder.BAND_PERCENTILE, every);
    }

    /** @return every series of the classes, in order */
    static List<Series> series(List<ProfileBuilder.ClassFit> fits) {
        List<Series> all = new ArrayList<>();
        fits.forEach(f -> f.scores().forEach(s -> all.add(s.series())));
        return all;
    }
}
