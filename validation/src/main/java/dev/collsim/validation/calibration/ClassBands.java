package dev.collsim.validation.calibration;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.compare.PredictionBand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The band shipped with each class's choice (its profile, or the bare model) and the share of the class's points it
 * holds, out of sample and in sample. Stateless.
 *
 * <p>The rule ({@link PooledBand}, per regime below 1 MiB and at 1 MiB and more, of residuals |ln(measured /
 * predicted)|, the band being [predicted x e^-r, predicted x e^r], see {@link PredictionBand}): the
 * {@value ProfileBuilder#BAND_PERCENTILE}th percentile of a mixture in which each of the class's K files weighs
 * 1 / (K + 1) and the unseen file the last 1 / (K + 1), filled with the files of every class. The residuals are the
 * leave-one-file-out predictions' for a class with a profile and the bare model's otherwise; the every-class share
 * is always the bare model's. The rule is the same for a class of one file (it weighs 1 / 2: one run says something
 * of the next on the same kind of machine, not everything); a cluster of a class with no file takes the band over
 * every class, the same rule with K = 0.
 *
 * <p>Out of sample, each file's points are checked against the band the rule makes without the file: without it
 * among the class's files and without it in the every-class share. No step of the rule looks at the checked file.
 * Until 2026-12-07 the band was the nearest-rank percentile of the class's points, widened, where it failed this check,
 * to the smallest floor that made it hold: the floor was chosen on the files it was then checked on (docs/accuracy.md,
 * "Bands").
 */
public final class ClassBands {

    /** The criterion's least share of points inside their band out of sample, percent (the target). */
    public static final double MIN_OUT_OF_SAMPLE_PERCENT = 90;

    /** Coverage the band is made for, 0..1 ({@value ProfileBuilder#BAND_PERCENTILE} %). */
    static final double LEVEL = ProfileBuilder.BAND_PERCENTILE / 100;

    private ClassBands() {
    }

    /**
     * One class's shipped band.
     *
     * @param band        the band shipped with the class's choice
     * @param outOfSample share of the class's points inside the band the rule makes without their file, 0..1
     * @param inSample    share of the class's points inside the shipped band (made with every file), 0..1
     * @param every       the band over every class (made from every file)
     * @param bySeries    per series of the class ({@link #series}), its points inside the band made without its
     *                    file, per regime ({@code outOfSample} is their share)
     */
    public record Entry(PredictionBand band, double outOfSample, double inSample, PredictionBand every,
            List<BandCoverage> bySeries) {

        /** Copies the list. */
        public Entry {
            bySeries = List.copyOf(bySeries);
        }
    }

    /**
     * @param f   a class
     * @param all every class's series (the every-class share is made from them)
     * @return its shipped band and the shares it holds
     */
    public static Entry of(ProfileBuilder.ClassFit f, List<Series> all) {
        List<Series> s = series(List.of(f));
        Map<String, PooledBand.FileResiduals> every = PooledBand.byFile(all, x -> PerformanceParameters.DEFAULTS);
        PredictionBand everyBand = PooledBand.of(Map.of(), every, LEVEL, null);
        if (Residuals.points(s) == 0) {
            return new Entry(everyBand, 0, 0, everyBand, List.of());
        }
        Function<Series, PerformanceParameters> params = f.profile().isPresent() ? f::looParameters
                : x -> PerformanceParameters.DEFAULTS;
        Function<Series, PerformanceParameters> shipped = f.profile().isPresent()
                ? x -> f.profile().get().parameters() : params;
        Map<String, PooledBand.FileResiduals> cls = PooledBand.byFile(s, params);
        PredictionBand band = PooledBand.of(cls, every, LEVEL, null);
        Map<String, PredictionBand> without = new HashMap<>();
        List<BandCoverage> by = new ArrayList<>();
        for (Series x : s) {
            by.add(BandCoverage.of(x, params.apply(x), without.computeIfAbsent(x.dataset().file(),
                    file -> PooledBand.of(cls, every, LEVEL, file))));
        }
        return new Entry(band, BandCoverage.sum(by).share(), Residuals.inside(s, shipped, band), everyBand, by);
    }

    /**
     * @param f   a class
     * @param all every class's series
     * @return the bare model's band for the class by the same rule (for a class with a profile, the band a user of
     *         {@code --calibration none} gets)
     */
    static PredictionBand bareBand(ProfileBuilder.ClassFit f, List<Series> all) {
        return PooledBand.of(PooledBand.byFile(series(List.of(f)), x -> PerformanceParameters.DEFAULTS),
                PooledBand.byFile(all, x -> PerformanceParameters.DEFAULTS), LEVEL, null);
    }

    /** @return the band over every class: the rule with no file of the class */
    static PredictionBand everyClass(List<Series> all) {
        return PooledBand.of(Map.of(), PooledBand.byFile(all, x -> PerformanceParameters.DEFAULTS), LEVEL, null);
    }

    /** @return every series of the classes, in order */
    static List<Series> series(List<ProfileBuilder.ClassFit> fits) {
        List<Series> all = new ArrayList<>();
        fits.forEach(f -> f.scores().forEach(s -> all.add(s.series())));
        return all;
    }
}
