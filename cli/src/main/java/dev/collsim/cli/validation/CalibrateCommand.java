package dev.collsim.cli.validation;

import dev.collsim.cli.ClusterOption;
import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.io.InputException;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.io.ClusterSource;
import dev.collsim.validation.calibration.Calibration;
import dev.collsim.validation.calibration.CalibrationProfile;
import dev.collsim.validation.calibration.FitLadder;
import dev.collsim.validation.calibration.FitParameter;
import dev.collsim.validation.calibration.FittedValue;
import dev.collsim.validation.calibration.ProfileBuilder;
import dev.collsim.validation.calibration.ProfileSelector;
import dev.collsim.validation.calibration.Residuals;
import dev.collsim.validation.calibration.Series;
import dev.collsim.validation.calibration.SeriesBuilder;
import dev.collsim.validation.compare.ClusterGuess;
import dev.collsim.validation.compare.ClusterGuesser;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.compare.ErrorStats;
import dev.collsim.validation.compare.PredictionBand;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.PerfPoint;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.Model.CommandSpec;

/** {@code collsim calibrate --measured FILE... -c CLUSTER -o PROFILE.yaml}. */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = {"Fit collsim's performance parameters to measurements and write a YAML profile for"
                + " 'compare --calibration'.",
            "Robust weighted least squares (Huber's loss by reweighted Levenberg-Marquardt: a point far from the others"
                + " weighs less; docs/validation.md, 'How calibrate fits'), with standard errors, residuals and a"
                + " hold-out check; refuse fits that do "
                + "not converge or are ill-conditioned, end at a bound, leave a parameter undetermined (relative standard "
                + "error > 50%%), give an efficiency above 1, or miss the data by more than 20%% (median, all points or "
                + "hold-out); refuse data that mixes host counts under one -c. Without --fit, a refused fit of every "
                + "parameter falls back to fewer (see --fit), as collsim accuracy does."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:profile written", "2:usage error", "3:invalid input file, or files of different host counts under one -c", "4:fit refused: every parameter set tried was refused (reasons printed)",
            "6:finished, but skipped files it could not read (each named on stderr with why)"})
public final class CalibrateCommand implements Callable<Integer> {

    /** What calibrate does instead of taking collectives by name (for a collective given to -m). */
    private static final String ALL_COLLECTIVES = "calibrate fits every collective in the files";

    @Spec
    private CommandSpec spec;

    @Option(names = {"-m", "--measured"}, arity = "1..*", required = true, paramLabel = "FILE",
            description = "measurement files, FILE:LINE (the table of FILE starting at LINE) or folders (one"
                    + " hardware class)")
    private List<Path> measured;

    @Mixin
    private ClusterOption cluster;

    /** How a {@code calibrate -o} profile's band is made, written into the profile. */
    static final String BAND_RULE = "95th percentile (nearest rank) of this fit's residuals |ln(measured /"
            + " predicted)| over its points, per regime (below 1 MiB, at >= 1 MiB); band [predicted / factor,"
            + " predicted x factor], factor = 1 + percent / 100; a regime without a fitted point: the bare model's"
            + " band over every class";

    @Option(names = {"-o", "--output"}, paramLabel = "PROFILE.yaml", description = "profile to write")
    private Path output;

    @Option(names = "--profiles", paramLabel = "DIR", description = "instead of -o: fit one profile per cluster class"
            + " (GPU generation and host count, NVLink or network class) on the healthy datasets of -m, with "
            + "leave-one-out figures and bands, and write DIR/CLASS.yaml and DIR/INDEX.md (the shipped profiles: "
            + "--profiles configs/calibration/auto -m validation/src/test/resources/data)")
    private Path profiles;

    @Option(names = "--fit", split = ",", paramLabel = "PARAM", converter = FitName.class,
            description = {"parameters to fit, exactly these: ${COMPLETION-CANDIDATES} (any case), or the names"
                + " calibrate prints and profiles use (launchOverheadUs, bwEfficiencySimple, ...)",
                "default: every parameter the data constrains but NVLS_BW_SCALE, BW_EFFICIENCY_NET and"
                + " SOCKET_STREAM_GBPS; when that fit is "
                + "refused, the "
                + "fallbacks "
                + "LAUNCH_OVERHEAD_US,LATENCY_SCALE,BW_EFFICIENCY_SIMPLE then LAUNCH_OVERHEAD_US,LATENCY_SCALE then "
                + "BW_EFFICIENCY_SIMPLE, first accepted wins (the fits collsim accuracy uses)",
                "NET_STEP_US is InfiniBand's network step (default 10 us per send of NCCL's proxy): fit it on runs"
                + " between hosts over InfiniBand; RoCE, EFA, TCPX, TCPXO, socket and Slingshot runs keep their class's"
                + " own step (docs/predict.md, network classes), so it moves none of their points"})
    private EnumSet<FitParameter> fit;

    /**
     * Reads a {@code --fit} name: the enum's ({@code LAUNCH_OVERHEAD_US}, any case) or the field name calibrate prints
     * beside each fitted value and a profile's YAML uses ({@code launchOverheadUs}, {@link FitParameter#field}).
     */
    static final class FitName implements ITypeConverter<FitParameter> {
        @Override
        public FitParameter convert(String value) {
            for (FitParameter p : FitParameter.values()) {
                if (p.name().equalsIgnoreCase(value) || p.field().equalsIgnoreCase(value)) {
                    return p;
                }
            }
            throw new TypeConversionException("'" + value + "' is not a parameter calibrate fits; allowed: "
                    + Arrays.stream(FitParameter.values()).map(p -> p.name() + " (" + p.field() + ")")
                            .collect(Collectors.joining(", ")));
        }
    }

    @Override
    public Integer call() throws InputException {
        if ((output == null) == (profiles == null)) {
            throw new UserError("give exactly one of -o PROFILE.yaml and --profiles DIR", ExitCodes.USAGE);
        }
        if (profiles != null) {
            return writeProfiles();
        }
        cluster.requireClusterForNetwork("calibrate");
        Comparer comparer = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null);
        List<Series> series = new ArrayList<>();
        PrintWriter out = spec.commandLine().getOut();
        List<String> shapes = new ArrayList<>();
        MeasuredFiles.Batch batch = MeasuredFiles.readMeasured(measured, spec.commandLine().getErr(), ALL_COLLECTIVES);
        for (Dataset d : batch.datasets()) {
            Optional<ClusterGuess> c = cluster.given()
                    ? Optional.of(DatasetCluster.place(cluster.source(), d, spec.commandLine().getErr()))
                    : Optional.empty();
            if (c.isPresent() && d.nHosts() > 0 && SeriesBuilder.of(d, c, comparer).isPresent()) {
                long used = c.get().ranks().stream().mapToInt(g -> g.host()).distinct().count();
                if (used != d.nHosts()) {
                    shapes.add(String.format(Locale.ROOT, "%s ran on %d host(s) x %d GPUs; -c %s places its %d ranks "
                            + "on %d host(s): calibrate it separately with a %d-host cluster (e.g. -c %s)", d.id(),
                            d.nHosts(), d.gpusPerHost(), cluster.value(), d.nRanks(), used, d.nHosts(),
                            hostCount(cluster.source(), d.nHosts())));
                }
            }
            Optional<Series> s = fitted(d, c, comparer, out);
            if (s.isPresent()) {
                series.add(s.get());
                Comparer.zeroRows(d).ifPresent(z -> out.println("left out of " + d.id() + ": " + z));
            } else {
                out.println("skipped " + d.id() + ": " + (c.isEmpty() && ClusterGuesser.guess(d).isEmpty()
                        ? ClusterGuesser.why(d) : "no per-size times"));
            }
        }
        if (!shapes.isEmpty()) {
            throw new UserError("the measurements mix cluster shapes that one -c cannot describe:\n  "
                    + String.join("\n  ", shapes), ExitCodes.INPUT);
        }
        if (series.isEmpty()) {
            throw new UserError("nothing to fit: no dataset with per-size times on a known cluster", ExitCodes.INPUT);
        }
        FitLadder ladder = fit == null ? FitLadder.everyParameter() : FitLadder.of(fit, false);
        FitLadder.Outcome outcome = ladder.fit(series, PerformanceParameters.DEFAULTS);
        Optional<Calibration> accepted = outcome.accepted();
        for (int i = 0; i < outcome.attempts().size(); i++) {
            FitLadder.Attempt a = outcome.attempts().get(i);
            if (ladder.steps().size() > 1) {
                out.printf(Locale.ROOT, "fit %d of up to %d (%s):%n", i + 1, ladder.steps().size(), a.label());
            }
            a.calibration().ifPresent(c -> print(out, series.size(), c));
            verdict(a).forEach(v -> out.println("  " + v));
        }
        if (accepted.isEmpty()) {
            spec.commandLine().getErr().println("collsim: every fit tried was refused (the reasons are on stdout):"
                    + " nothing written to " + output);
            return ExitCodes.CHECK_FAILED;
        }
        Calibration cal = accepted.get();
        if (outcome.fellBack()) {
            out.println("accepted fallback " + outcome.attempts().get(outcome.attempts().size() - 1).label()
                    + " (fitted parameters: " + String.join(", ", cal.fitted().stream().map(FittedValue::name)
                    .toList()) + "); refused before it: " + String.join("; ", outcome.refused().stream()
                    .map(FitLadder.Attempt::reasons).toList()));
        }
        PredictionBand band = band(series, cal, out);
        Residuals.oneSided(series, cal.parameters())
                .forEach(w -> spec.commandLine().getErr().println("collsim: warning: " + w));
        try {
            CalibrationProfile.writeWithCommand(cal, "collsim " + String.join(" ",
                    spec.commandLine().getParseResult().originalArgs()), band, BAND_RULE, output);
        } catch (IOException e) {
            throw new UserError("cannot write " + output + ": " + e.getMessage(), ExitCodes.INPUT);
        }
        out.println("wrote " + output);
        return batch.exitCode(ExitCodes.OK);
    }

    /**
     * The dataset's points to fit: without the one-off hiccups diagnose finds ({@link Comparer#leftOut}; compare's
     * statistics and the accuracy table leave out the same points), which a fit would otherwise chase and its band
     * take in; says which were left out.
     */
    private static Optional<Series> fitted(Dataset d, Optional<ClusterGuess> c, Comparer comparer, PrintWriter out) {
        List<PerfPoint> left = Comparer.leftOut(d);
        Optional<Series> s = SeriesBuilder.of(d, c, comparer, Set.copyOf(left));
        if (s.isPresent() && !left.isEmpty()) {
            out.println("left out of " + d.id() + ": " + left.size() + " point(s) diagnose calls one-off hiccups ("
                    + left.stream().map(p -> p.sizeBytes() + " B" + (p.line() > 0 ? " at line " + p.line() : ""))
                            .collect(Collectors.joining(", ")) + ")");
        }
        return s;
    }

    /**
     * The band of a {@code -o} profile ({@link #BAND_RULE}): per regime, the 95th percentile of the accepted fit's
     * own residuals |ln(measured / predicted)|; a regime the data has no point in takes the bare model's band over
     * every class. Prints it with the fitted points inside it.
     */
    private static PredictionBand band(List<Series> series, Calibration cal, PrintWriter out) {
        PredictionBand empty = ProfileSelector.bareBandOverEveryClass().orElseThrow(() -> new IllegalStateException(
                "shipped bare-model bands missing"));
        // as the profile stores it (2 decimals), so the count below is what compare finds reading the profile back
        PredictionBand band = Residuals.band(series, s -> cal.parameters(), ProfileBuilder.BAND_PERCENTILE, empty)
                .asStored();
        int n = Residuals.points(series);
        long inside = Math.round(Residuals.inside(series, s -> cal.parameters(), band) * n);
        List<Double> small = new ArrayList<>();
        List<Double> large = new ArrayList<>();
        series.forEach(s -> Residuals.relativeToPredicted(s, cal.parameters(), small, large));
        String none = small.isEmpty() ? "below 1 MiB" : large.isEmpty() ? "at >= 1 MiB" : "";
        out.println("band (95th percentile of this fit's residuals, per regime): " + band.regimes() + band.wideNote()
                + "; " + inside + " of " + n + " fitted points inside" + (none.isEmpty() ? "" : "; no point " + none
                + " was fitted: the band there is the bare model's over every class"));
        return band;
    }

    /** @return the exit code of {@code --profiles DIR}: every class's profile, bands and index written */
    private int writeProfiles() throws InputException {
        if (cluster.given() || cluster.networkGiven() || fit != null) {
            throw new UserError("--profiles guesses each dataset's cluster and fits calibrate's default sets: "
                    + "leave out -c, --network and --fit", ExitCodes.USAGE);
        }
        MeasuredFiles.Batch batch = MeasuredFiles.readMeasured(measured, spec.commandLine().getErr(), ALL_COLLECTIVES);
        ProfilesWriter.run(batch.datasets(), profiles, spec.commandLine().getOut());
        return batch.exitCode(ExitCodes.OK);
    }

    /**
     * The verdict printed on stdout right after an attempt's values, so that output piped on its own never shows
     * refused numbers without saying so: "verdict: accepted", or one "verdict: refused: WHY" per reason, in
     * {@code FitAcceptance}'s words.
     *
     * @param a one fit of the ladder
     * @return the verdict lines, without indent
     */
    static List<String> verdict(FitLadder.Attempt a) {
        return a.accepted() ? List.of("verdict: accepted")
                : a.refusals().stream().map(r -> "verdict: refused: " + r.message()).toList();
    }

    private static void print(PrintWriter out, int datasets, Calibration cal) {
        // each Levenberg-Marquardt step evaluates the residuals and their Jacobian by central differences:
        // 1 + 2 x (fitted parameters) passes of the model over every point (Problem.column)
        out.printf(Locale.ROOT, "fitted on %d dataset(s), %d points, %d Levenberg-Marquardt steps (%d passes of the"
                + " model over the points)%n", datasets, cal.nPoints(), cal.evaluations(),
                cal.evaluations() * (1 + 2 * cal.fitted().size()));
        for (FittedValue v : cal.fitted()) {
            out.printf(Locale.ROOT, "  %-22s %12.5g +- %-10.3g %-8s (start %g)%s%n", v.name(), v.value(), v.sigma(),
                    FitParameter.ofField(v.name()).unit(), v.initial(), v.atBound() ? "  at its bound" : "");
        }
        cal.notes().forEach(n -> out.println("  note: " + n));
        out.println("  residuals (% of time): " + stats(cal.residuals()));
        out.println("  hold-out (fit on even-indexed sizes, test on odd): train " + stats(cal.holdTrain())
                + "; test " + stats(cal.holdTest()));
    }

    /** @return the {@code -c} value for {@code hosts} hosts of its catalog host type, else a placeholder */
    private static String hostCount(ClusterSource source, int hosts) {
        return DatasetCluster.catalogType(source).map(t -> t.name() + ":" + hosts)
                .orElse("a cluster file with " + hosts + " host(s)");
    }

    private static String stats(ErrorStats s) {
        return s.n() == 0 ? "-" : String.format(Locale.ROOT, "n=%d median %.2f p90 %.2f max %.2f", s.n(), s.median(),
                s.p90(), s.max());
    }
}
