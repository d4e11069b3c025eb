package dev.collsim.validation.calibration;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.validation.compare.ClusterGuesser;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.compare.Regime;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.RunHealth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Fits the shipped network-class profiles: groups the healthy datasets by {@link ProfileClass} (their guessed
 * cluster), fits each class with at least {@value #MIN_FILES} files on all of them ({@link FitLadder#everyParameter()};
 * for a class of several hosts over a network {@link FitLadder#network()}, which fits the network efficiency in the
 * Simple efficiency's place so one-host traffic keeps the bare model's bandwidth; each judged by
 * {@link FitAcceptance}), and scores every dataset three ways: the bare model, the class profile refitted
 * without the dataset's file (leave-one-file-out: the other datasets of a file are runs on the same machine, so
 * leaving out one of them alone would leak), and the profile itself (in-sample). The band
 * shipped with a class is {@link ClassBands}' ({@value #BAND_PERCENTILE} %, the leave-one-out residuals
 * |ln(measured / predicted)| with each file weighing the same, {@link PooledBand}). The rule that the leave-one-out error stay within
 * {@value #LOO_GAP_POINTS} points of the in-sample error is reported per class ({@link ClassFit#looGap()}), not
 * enforced. Healthy: diagnose finds no PROBLEM and the header does not say
 * {@code health: problem} ({@link AccuracySummary#healthy}); the one-off hiccups diagnose finds from the measured
 * times alone ({@link Comparer#leftOut}) are left out of every fit, score and band, as in accuracy and compare. A profile is shipped only when a fit is accepted without
 * each file in turn (otherwise the profile stands on that file, and the file's leave-one-out score would be the bare
 * model's, not the profile's) and its leave-one-out median of dataset medians is below the bare model's both over
 * every size (the fit is made on every size) and at 1 MiB and more (the accuracy table's headline figure): a fit
 * that does not help on files it did not see is not shipped (collsim's rule, on top of {@link FitAcceptance}). Deterministic; stateless apart from the
 * model.
 */
public final class ProfileBuilder {

    /** Fewest distinct files a class needs for a profile: a fit on one file is refused (collsim's rule). */
    public static final int MIN_FILES = 2;
    /** Percentile of the leave-one-out residuals that sets a profile's band (collsim's choice: 90-95 asked). */
    public static final double BAND_PERCENTILE = 95;
    /** Largest leave-one-out minus in-sample error (>= 1 MiB, percentage points) the rule allows. */
    public static final double LOO_GAP_POINTS = 2;

    private final Comparer defaults;
    private final Function<ProfileClass, FitLadder> ladders;

    /**
     * @param given NCCL release to model every dataset with, or empty for the one each file states (with the model's
     *              default parameters as the bare model)
     */
    public ProfileBuilder(Optional<NcclVersion> given) {
        this(given, ProfileBuilder::ladder);
    }

    /**
     * @param given   as {@link #ProfileBuilder(Optional)}
     * @param ladders the fit ladder of each class (a study of other parameter sets; the shipped profiles use
     *                {@link #ladder})
     */
    ProfileBuilder(Optional<NcclVersion> given, Function<ProfileClass, FitLadder> ladders) {
        this.defaults = new Comparer(given, PerformanceParameters.DEFAULTS, null);
        this.ladders = ladders;
    }

    /**
     * @param c a class
     * @return the ladder its profile is fitted with: {@link FitLadder#network()} for a class of several hosts over a
     *         network, else {@link FitLadder#everyParameter()}
     */
    public static FitLadder ladder(ProfileClass c) {
        return c.network() ? FitLadder.network() : FitLadder.everyParameter();
    }

    /**
     * One dataset's scores (median absolute percentage error of time at sizes of 1 MiB and more, percent).
     *
     * @param series   the dataset's points and model
     * @param bare     with the default parameters
     * @param loo      with the class profile refitted without the dataset's file (the bare value when that fit was
     *                 refused or impossible)
     * @param inSample with the class profile (NaN when the class has none)
     * @param looNote  how the leave-one-out value was made
     * @param all      the same three figures over every size (bare, leave-one-out, in-sample), percent
     * @param looParameters the parameters of the leave-one-out value (the defaults when there is no fit)
     */
    public record Score(Series series, double bare, double loo, double inSample, String looNote, double[] all,
            PerformanceParameters looParameters) {

        /** Copies. */
        public Score {
            all = all.clone();
        }

        /** @return bare model's median error over every size, percent */
        public double bareAll() {
            return all[0];
        }

        /** @return leave-one-out median error over every size, percent (NaN: no profile) */
        public double looAll() {
            return all[1];
        }

        /** @return in-sample median error over every size, percent (NaN: no profile) */
        public double inSampleAll() {
            return all[2];
        }

        /**
         * @return median error below 1 MiB with {@link #looParameters} (the leave-one-out profile's, the defaults
         *         without a fit), percent (NaN: no size below 1 MiB)
         */
        public double looBelowMiB() {
            return Residuals.medianBelow(series, looParameters, Regime.ONE_MIB);
        }
    }

    /**
     * One class.
     *
     * @param profileClass the class
     * @param scores       its healthy datasets, by file and line
     * @param fit          the fit on all of them, empty when the class has too few files
     * @param why          why there is no profile, empty when there is one
     */
    public record ClassFit(ProfileClass profileClass, List<Score> scores, Optional<FitLadder.Outcome> fit,
            String why) {

        /** @return the calibration shipped for the class, empty when none (see {@link #why}) */
        public Optional<Calibration> profile() {
            return why.isEmpty() ? fit.flatMap(FitLadder.Outcome::accepted) : Optional.empty();
        }

        /**
         * @return the leave-one-out rule figure: the leave-one-out minus the in-sample median of dataset
         *         medians at >= 1 MiB, percentage points (NaN without a fit); the rule holds at or below
         *         {@value ProfileBuilder#LOO_GAP_POINTS}
         */
        public double looGap() {
            return ProfileFiles.medianOf(this, Score::loo) - ProfileFiles.medianOf(this, Score::inSample);
        }

        /**
         * @param s one of the class's series
         * @return the parameters its leave-one-out prediction uses (the defaults without a fit)
         */
        public PerformanceParameters looParameters(Series s) {
            return scores.stream().filter(x -> x.series() == s).findFirst().map(Score::looParameters)
                    .orElse(PerformanceParameters.DEFAULTS);
        }

        /** @return the distinct files of the class, in order */
        public List<String> files() {
            Set<String> f = new LinkedHashSet<>();
            scores.forEach(s -> f.add(s.series().dataset().file()));
            return List.copyOf(f);
        }
    }

    /**
     * @param datasets the datasets (unhealthy ones and those no model can time are left out)
     * @return one entry per class, by key
     */
    public List<ClassFit> build(List<Dataset> datasets) {
        Set<Dataset> problems = AccuracyRunner.problemDatasets(datasets);
        Map<String, List<Series>> byClass = new TreeMap<>();
        Map<String, ProfileClass> classes = new TreeMap<>();
        for (Dataset d : datasets) {
            if (problems.contains(d) || RunHealth.problem(d.header().text("health"), d.label())) {
                continue;
            }
            var guess = ClusterGuesser.guess(d);
            // the series as compare (no -c) and accuracy build it: on the guessed cluster, with the settings rules of
            // a guessed cluster (RunSettings.modelSettings), so that the profile is fitted and scored as it is applied
            var s = SeriesBuilder.of(d, Optional.empty(), defaults, Comparer.leftOutPoints(d));
            if (guess.isEmpty() || s.isEmpty()) {
                continue;
            }
            ProfileClass c = ProfileClass.of(guess.get().topology(), d.label() + " " + d.header().text("interconnect")
                    + " " + d.header().text("hardware"));
            classes.putIfAbsent(c.key(), c);
            byClass.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(s.get());
        }
        List<ClassFit> out = new ArrayList<>();
        byClass.forEach((k, list) -> {
            list.sort(Comparator.comparing((Series s) -> s.dataset().file()).thenComparingInt(s -> s.dataset().line()));
            out.add(fitClass(classes.get(k), list));
        });
        return out;
    }

    private ClassFit fitClass(ProfileClass c, List<Series> all) {
        long files = all.stream().map(s -> s.dataset().file()).distinct().count();
        PerformanceParameters base = PerformanceParameters.DEFAULTS;
        if (files < MIN_FILES) {
            return new ClassFit(c, all.stream().map(s -> new Score(s, Residuals.median(s, base), Double.NaN,
                    Double.NaN, "-", new double[] {Residuals.median(s, base, 0), Double.NaN, Double.NaN}, base)).toList(), Optional.empty(), files
                    + " healthy file(s): a profile needs " + MIN_FILES + "; the bare model is used");
        }
        FitLadder ladder = ladders.apply(c);
        FitLadder.Outcome full = ladder.fit(all, base);
        if (full.accepted().isEmpty()) {
            return new ClassFit(c, all.stream().map(s -> new Score(s, Residuals.median(s, base), Double.NaN,
                    Double.NaN, "-", new double[] {Residuals.median(s, base, 0), Double.NaN, Double.NaN}, base)).toList(), Optional.of(full),
                    "every fit refused: " + full.refused().stream().map(FitLadder.Attempt::reasons).toList());
        }
        PerformanceParameters in = full.accepted().get().parameters();
        List<Score> scores = new ArrayList<>();
        Map<Series, PerformanceParameters> looParams = new IdentityHashMap<>();
        List<String> unstable = new ArrayList<>();
        for (String file : all.stream().map(s -> s.dataset().file()).distinct().toList()) {
            List<Series> others = all.stream().filter(s -> !s.dataset().file().equals(file)).toList();
            FitLadder.Outcome o = ladder.fit(others, base);
            PerformanceParameters p = o.accepted().map(Calibration::parameters).orElse(base);
            String note = o.accepted().map(x -> "refitted on " + others.size() + " dataset(s) of other files")
                    .orElse("every fit on the other files refused: bare model");
            if (o.accepted().isEmpty()) {
                unstable.add(file);
            }
            all.stream().filter(s -> s.dataset().file().equals(file)).forEach(s -> {
                looParams.put(s, p);
                scores.add(new Score(s, Residuals.median(s, base), Residuals.median(s, p), Residuals.median(s, in),
                        note, new double[] {Residuals.median(s, base, 0), Residuals.median(s, p, 0),
                            Residuals.median(s, in, 0)}, p));
            });
        }
        ClassFit fit = new ClassFit(c, scores, Optional.of(full), "");
        double loo = ProfileFiles.medianOf(fit, Score::looAll);
        double bare = ProfileFiles.medianOf(fit, Score::bareAll);
        double looBig = ProfileFiles.medianOf(fit, Score::loo);
        double bareBig = ProfileFiles.medianOf(fit, Score::bare);
        if (!unstable.isEmpty()) {
            // the shipped fit would stand on that file alone: without it no fit is accepted, so the file's
            // leave-one-out score is the bare model's and says nothing about the profile that would be applied to it
            return new ClassFit(c, scores, Optional.of(full), "every fit without "
                    + String.join(", ", unstable) + " is refused: the profile stands on that file, so it is not"
                    + " shipped and the bare model is used");
        }
        if (!(loo < bare && looBig < bareBig)) {
            return new ClassFit(c, scores, Optional.of(full), String.format(
                    Locale.ROOT, "leave-one-out %.1f %% (every size) / %.1f %% (>= 1 MiB) vs bare %.1f %% / %.1f %%:"
                    + " the fit does not predict files it did not see better than the bare model, which is used", loo, looBig,
                    bare, bareBig));
        }
        return fit;
    }
}
