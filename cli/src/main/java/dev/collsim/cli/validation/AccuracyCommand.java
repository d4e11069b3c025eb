package dev.collsim.cli.validation;

import dev.collsim.cli.ExitCodes;
import dev.collsim.io.InputException;
import dev.collsim.validation.calibration.AccuracyRunner;
import dev.collsim.validation.calibration.AccuracySummary;
import dev.collsim.validation.calibration.AccuracyText;
import dev.collsim.validation.calibration.BandCoverageText;
import dev.collsim.validation.calibration.ProfileBuilder;
import dev.collsim.validation.calibration.ProfileFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code collsim accuracy DIR}: the accuracy table over every dataset of a folder. */
@Command(name = "accuracy", mixinStandardHelpOptions = true, exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "2:usage error", "3:no file could be read", "6:finished, but skipped files it could not read (each named on stderr with why)"},
        description = {"Print one markdown table of the model's error on every dataset of the given files or folders,"
                + " uncalibrated and calibrated.",
            "Compares every dataset with the default model and with a calibration fitted on the other datasets of its hardware class (leave-one-out; runs diagnose "
                + "finds a PROBLEM in are never used for fitting), and print one markdown table of the median "
                + "error of time at sizes of 1 MiB and more (its last two columns: the points below 1 MiB and their "
                + "uncalibrated median error, with the signed median in brackets, + where the model is slow). Every median leaves out "
                + "the one-off hiccups diagnose finds from the measured times alone, named under the table, as compare's "
                + "statistics do, so a dataset's uncalibrated cells are its 'compare --calibration none' medians. The calibration is calibrate's (without --fit): "
                + "every parameter, then its fallback sets, each judged by its acceptance rules; the table shows "
                + "the accepted set and why the others were refused. Under the table: the healthy datasets' figures with the bare "
                + "model, and (not with --calibration none) the same figures with the shipped profile choice, each "
                + "dataset of a class that ships a profile predicted by that profile refitted without the dataset's file.",
            "Then the shipped-profile table (as 'calibrate --profiles' writes INDEX.md): per cluster class the bare "
                + "model, the class profile refitted without the scored file (leave-one-out) and in-sample, its "
                + "leave-one-out rule, its band, and the share of points inside the band of the choice compare makes, "
                + "out of sample (each file against the band made without it) and in sample; then that out-of-sample share per class, regime and dataset."})
public final class AccuracyCommand implements Callable<Integer> {

    /** How {@link ProfileFiles#index} opens configs/calibration/auto/INDEX.md: true only of the shipped data. */
    private static final String INDEX_HEAD = "# Shipped calibration profiles\n\nWritten by `" + ProfileFiles.COMMAND
            + "` (do not edit; re-run it after a model change).";
    /** What the table is for the files given: what {@code calibrate --profiles} would fit from them. */
    static final String HEAD = "## Calibration profiles per cluster class (the auto choice), fitted on the files given"
            + "\n\nWhat `collsim calibrate --profiles DIR -m FILES...` would write from these files (the shipped"
            + " profiles, configs/calibration/auto, are this table for validation/src/test/resources/data).";

    @Spec
    private CommandSpec spec;

    @Option(names = "--calibration", paramLabel = "leave-one-out|none", defaultValue = "leave-one-out",
            description = "leave-one-out (default): the calibrated columns and the profile table as described above;"
                    + " none: the bare model's columns only (calibrated cells '-', no profile table), about a tenth"
                    + " of the time")
    private String calibration;

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "data folders or files (e.g. validation/src/test/resources/data)")
    private List<Path> inputs;

    @Override
    public Integer call() throws InputException {
        if (!calibration.equals("leave-one-out") && !calibration.equals("none")) {
            throw new ParameterException(spec.commandLine(), "--calibration: found '" + calibration
                    + "'; allowed: leave-one-out, none");
        }
        boolean fit = calibration.equals("leave-one-out");
        MeasuredFiles.Batch batch = MeasuredFiles.readSkipping(inputs, spec.commandLine().getErr());
        AccuracyRunner runner = fit ? new AccuracyRunner(Optional.empty())
                : new AccuracyRunner(Optional.empty()).bareOnly();
        var rows = runner.run(batch.datasets());
        spec.commandLine().getOut().print(AccuracyText.render(rows, runner.withoutRows(batch.datasets(), rows),
                folders(inputs)));
        if (fit) {
            List<ProfileBuilder.ClassFit> fits = new ProfileBuilder(Optional.empty()).build(batch.datasets());
            spec.commandLine().getOut().print(AccuracySummary.withChoice(rows, fits).render());
            spec.commandLine().getOut().println();
            spec.commandLine().getOut().print(ProfileFiles.index(fits).replace(INDEX_HEAD, HEAD));
            spec.commandLine().getOut().println();
            spec.commandLine().getOut().print(BandCoverageText.table(fits));
        }
        return batch.exitCode(ExitCodes.OK);
    }

    /**
     * @param inputs the folders and files given
     * @return the folders the datasets' base names are in, as given (a file's parent, or {@code .}), distinct, joined
     *         by {@code ", "}
     */
    static String folders(List<Path> inputs) {
        return inputs.stream().map(p -> Files.isDirectory(p) ? p : p.getParent() == null ? Path.of(".")
                : p.getParent()).map(Path::toString).distinct()
                .collect(Collectors.joining(", "));
    }
}
