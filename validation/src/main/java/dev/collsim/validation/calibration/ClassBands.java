package dev.collsim.validation.calibration;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.compare.PredictionBand;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The band shipped with each class's choice (its profile, or the bare model) and the share of the class's points it
 * holds, out of sample and in sample. Stateless.
 *
 * <p>The rule (collsim's; the {@value ProfileBuilder#BAND_PERCENTILE}th percentile, nearest rank, per regime below
 * 1 MiB and at 1 MiB and more, of residuals |predicted - measured| / predicted):
 * <ul>
 *   <li>the class's own band: with a profile, the percentile of its leave-one-file-out residuals
 *       ({@link ProfileBuilder.ClassFit#band()}); without one, of the bare model's residuals on the class, in a regime
 *       the class has no point in the band over every class; a class of fewer than {@value ProfileBuilder#MIN_FILES}
 *       files has no own band and takes the band over every class;</li>
 *   <li>the own band is shipped only when it holds out of sample: at least {@value #MIN_OUT_OF_SAMPLE_PERCENT} % of
 *       the class's points lie inside the band the same rule makes without their file
 *       ({@link Residuals#insideLeaveOneFileOut}). Otherwise (a class whose few files disagree) the shipped band is,
 *       per regime, the wider of the own band and the band over every class.</li>
 * </ul>
 * Out of sample, a point is always checked against the band its rule makes without the point's file: the own band
 * from the class's other files, the band over every class from every other file, and the wider of the two for a
 * widened class. Which of the two rules a class gets is decided on the class's own out-of-sample share (the one step
 * that sees every file).
 */
public final class ClassBands {

    /** Least out-of-sample share, percent, for a class to keep its own band (collsim's choice, the target). */
    public static final double MIN_OUT_OF_SAMPLE_PERCENT = 90;

    private static final PredictionBand NONE = new PredictionBand(0, 0);

    private ClassBands() {
    }

    /**
     * One class's shipped band.
     *
     * @param band        the band shipped with the class's choice
     * @param widened     true when the own band failed out of sample and was widened to the band over every class
     * @param ownInside   out-of-sample share of the own band alone, 0..1
     * @param outOfSample share of the class's points inside the shipped rule's band made without their file, 0..1
     * @param inSample    share of the class's points inside the shipped band (made with every file), 0..1
     */
    public record Entry(PredictionBand band, boolean widened, double ownInside, double outOfSample, double inSample) {
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
            return new Entry(every, false, 0, 0, 0);
        }
        if (f.files().size() < ProfileBuilder.MIN_FILES) {
            double out = (double) Residuals.insideLeaveOneFileOut(s, params, ProfileBuilder.BAND_PERCENTILE,
                    everyWithout, everyWithout) / pts;
            return new Entry(every, false, out, out, Residuals.inside(s, shipped, every));
        }
        PredictionBand own = f.profile().isPresent() ? f.band().orElseThrow() : bareBand(f, every);
        Function<String, PredictionBand> emptyRegime = f.profile().isPresent() ? x -> NONE : everyWithout;
        double ownOut = (double) Residuals.insideLeaveOneFileOut(s, params, ProfileBuilder.BAND_PERCENTILE,
                emptyRegime, x -> NONE) / pts;
        if (100 * ownOut >= MIN_OUT_OF_SAMPLE_PERCENT) {
            return new Entry(own, false, ownOut, ownOut, Residuals.inside(s, shipped, own));
        }
        PredictionBand wide = wider(own, every);
        double out = (double) Residuals.insideLeaveOneFileOut(s, params, ProfileBuilder.BAND_PERCENTILE,
                emptyRegime, everyWithout) / pts;
        return new Entry(wide, true, ownOut, out, Residuals.inside(s, shipped, wide));
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
