package dev.collsim.cli.validation;

import dev.collsim.cli.CalibrationOption;
import dev.collsim.cli.ClusterOption;
import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.validation.calibration.Calibration;
import dev.collsim.validation.calibration.CalibrationProfile;
import dev.collsim.validation.calibration.ProfileSelector;
import dev.collsim.validation.compare.ClusterGuess;
import dev.collsim.validation.compare.ClusterGuesser;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.compare.ComparisonText;
import dev.collsim.validation.compare.DatasetComparison;
import dev.collsim.validation.ingest.Dataset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code collsim compare --measured FILE... [-c CLUSTER] [--calibration PROFILE.yaml]}. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Line measured points up with collsim's predictions and report the error of time per point,"
                + " dataset and regime.",
            "Points are matched by collective, size, ranks and NCCL settings.",
            "Per point: measured and predicted time (us); err %% = (predicted - measured) / measured x 100 on time,"
                    + " + when collsim predicts slower than measured (pessimistic), - when faster; measured and"
                    + " predicted busbw (GB/s, nccl-tests' definition). Statistics are of |err %%|.",
            "Without -c the cluster is built from what the file reveals (GPU model, hosts) using the topology "
                    + "catalog, and every assumption is printed. A catalog -c (dgx-h100, dgx-h100x2) is sized to each"
                    + " run's host count, as calibrate does; a changed count is said on stderr."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "2:usage error", "3:invalid input file, or no table of the files could be compared"
                + " (each named with why)",
            "4:a median error above --max-median-error", "6:finished, but skipped files it could not read (each named on stderr with why)"})
public final class CompareCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = {"-m", "--measured"}, arity = "1..*", required = true, paramLabel = "FILE",
            description = "measurement files (nccl-tests text, -J JSON, collsim run JSON), FILE:LINE for the"
                    + " table of FILE starting at LINE (as the headings name it), or folders")
    private List<Path> measured;

    @Mixin
    private ClusterOption cluster;

    @Option(names = "--calibration", paramLabel = "PROFILE.yaml|none|auto",
            description = "calibration profile from 'collsim calibrate' (predictions then carry its band: the 95%% band"
                    + " of its fit, or of its leave-one-out residuals for a shipped one), or none for "
                    + "the bare model; auto (default): the shipped profile of each run's cluster class "
                    + "(configs/calibration/auto), named on the first lines")
    private Path calibration;

    @Option(names = "--nccl-version", paramLabel = "VERSION", completionCandidates = Versions.class,
            description = "NCCL release to model every file with: ${COMPLETION-CANDIDATES} or any release 2.8 to"
                    + " 2.11 or 2.18 to 2.30 as 2.M.P (default: the release each"
                    + " file states, as the nearest one collsim carries that is not newer; "
                    + "a file that states none: the newest)")
    private String ncclVersion;

    @Option(names = "--summary", description = "print only the statistics, not every point")
    private boolean summary;

    @Option(names = "--max-median-error", paramLabel = "PERCENT",
            description = "exit with 4 when a dataset's median error at >= 1 MiB exceeds this")
    private Double maxMedian;

    @Override
    public Integer call() throws InputException {
        cluster.requireClusterForNetwork("compare");
        Optional<NcclVersion> v;
        try {
            v = ncclVersion == null ? Optional.empty() : Optional.of(NcclVersion.parse(ncclVersion));
        } catch (IllegalArgumentException e) {
            throw new UserError("--nccl-version: " + e.getMessage(), ExitCodes.USAGE);
        }
        boolean bare = CalibrationOption.none(calibration);
        Comparer fixed = null;
        Set<String> lines = new LinkedHashSet<>();
        if (bare) {
            lines.add(CalibrationOption.NONE_LINE);
        } else if (!CalibrationOption.auto(calibration)) {
            CalibrationOption.requireProfile(calibration, "--calibration");
            CalibrationProfile.Loaded l = CalibrationProfile.load(calibration);
            Calibration cal = l.calibration();
            fixed = l.band().map(b -> Comparer.withBand(v, cal.parameters(), b, l.shipped() ? AutoProfile.PROFILE_BAND
                    : AutoProfile.FIT_BAND))
                    .orElseGet(() -> new Comparer(v, cal.parameters(), cal::sigmaUs));
            lines.add(CalibrationOption.fileLine(calibration) + " (fitted on " + cal.sources().size()
                    + " dataset(s), " + cal.nPoints() + " points)");
        }
        Map<String, Comparer> auto = new HashMap<>();
        List<DatasetComparison> out = new ArrayList<>();
        MeasuredFiles.Batch batch = MeasuredFiles.readMeasured(measured, spec.commandLine().getErr(),
                "compare reads every collective in the files");
        List<Path> files = new ArrayList<>();
        for (Dataset d : batch.datasets()) {
            files.add(batch.reads().stream().filter(r -> r.datasets().stream().anyMatch(x -> x == d)).findFirst()
                    .orElseThrow().file());
            Optional<ClusterGuess> c = cluster.given()
                    ? Optional.of(DatasetCluster.place(cluster.source(), d, spec.commandLine().getErr()))
                    : Optional.empty();
            Comparer comparer = fixed;
            if (comparer == null) {
                Optional<ClusterGuess> g = c.isPresent() ? c : ClusterGuesser.guess(d);
                ProfileSelector.Choice choice = g.map(x -> ProfileSelector.select(x.topology())).orElse(null);
                comparer = choice == null ? auto.computeIfAbsent("", k -> new Comparer(v,
                        PerformanceParameters.DEFAULTS, null)) : bare ? auto.computeIfAbsent(choice.profileClass()
                        .key(), k -> AutoProfile.bare(v, choice)) : auto.computeIfAbsent(choice.profileClass().key(),
                        k -> AutoProfile.comparer(v, choice));
                if (choice != null && !bare) {
                    lines.add(choice.line());
                }
            }
            out.add(comparer.compare(d, c));
        }
        lines.forEach(spec.commandLine().getOut()::println);
        if (!lines.isEmpty()) {
            spec.commandLine().getOut().println();
        }
        spec.commandLine().getOut().print(ComparisonText.render(out, !summary));
        spec.commandLine().getOut().flush();
        refuseNothingCompared(out, files);
        if (maxMedian != null && out.stream().anyMatch(c -> c.atLeast1MiB().n() > 0 && c.atLeast1MiB().median() > maxMedian)) {
            return ExitCodes.CHECK_FAILED;
        }
        return batch.exitCode(ExitCodes.OK);
    }

    /**
     * A compare that predicted no point answers nothing: each table is named with why it was not compared, and the
     * command fails (exit 3, the files' fault) instead of exiting 0 with no figure.
     *
     * @param out   the comparisons
     * @param files the file of each, as the user gave it (a folder's file under the folder)
     * @throws InputException when no table was compared, one problem per table at its line
     */
    static void refuseNothingCompared(List<DatasetComparison> out, List<Path> files) throws InputException {
        if (out.stream().anyMatch(DatasetComparison::compared)) {
            return;
        }
        if (out.isEmpty()) {
            throw new UserError("compare: the files hold no table to compare", ExitCodes.INPUT);
        }
        List<InputProblem> problems = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            problems.add(new InputProblem(files.get(i).toString(), out.get(i).dataset().line(), 0, "compare",
                    "nothing compared: " + out.get(i).reason() + "; allowed: a table with sizes > 0 and times, of a"
                    + " cluster the file shows (GPU model, hosts) or -c names"));
        }
        throw new InputException(problems);
    }

    /** The NCCL releases collsim models, as {@code --nccl-version} accepts them (2.28, 2.30, ...). */
    static final class Versions implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(NcclVersion.values())
                    .map(v -> v.text().substring(0, v.text().lastIndexOf('.'))).iterator();
        }
    }
}
