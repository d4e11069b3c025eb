package dev.collsim.cli;

import dev.collsim.cli.flow.MergeCommand;
import dev.collsim.cli.predict.PredictCommand;
import dev.collsim.cli.report.PlanCommand;
import dev.collsim.cli.report.ReportCommand;
import dev.collsim.cli.report.WhatIfRun;
import dev.collsim.cli.validation.AccuracyCommand;
import dev.collsim.cli.validation.TuneCommand;
import dev.collsim.cli.validation.CalibrateCommand;
import dev.collsim.cli.validation.CompareCommand;
import dev.collsim.cli.validation.DiagnoseCommand;
import dev.collsim.io.InputException;
import dev.collsim.reports.whatif.BuiltinSpec;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The root command: {@code collsim <subcommand>}. With no subcommand it runs the built-in what-if report on the
 * default cluster into {@code ./collsim-report/} and prints its summary.
 */
@Command(name = "collsim", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Predicts, measures and explains GPU collective-communication performance.",
        subcommands = {TopoCommand.class, PredictCommand.class, RunCommand.class,
            DiagnoseCommand.class, CompareCommand.class,
            CalibrateCommand.class, AccuracyCommand.class, TuneCommand.class,
            PlanCommand.class, ReportCommand.class,
            MergeCommand.class, SweepLauncherCommand.class},
        footer = {"%nWith no subcommand: the built-in what-if report on the default cluster, written to"
            + " ./collsim-report/ (same as 'collsim report')."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:internal error (a bug; a stack trace is printed)",
            "2:usage error", "3:invalid input file (every problem is listed)",
            "4:check failed (#wrong > 0, or error above tolerance)", "5:no GPU, or NCCL/CUDA failure",
            "6:a batch command skipped files it could not read (each named on stderr)"})
public final class CollsimCommand implements Callable<Integer> {

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--calibration", paramLabel = "FILE|none|auto", description = "with no subcommand: "
            + CalibrationOption.REPORT_DESCRIPTION)
    private Path calibration;

    /** Runs the built-in what-if report (the main job). */
    @Override
    public Integer call() throws InputException {
        return mainJob(spec.commandLine().getOut(), spec.commandLine().getErr(), calibration);
    }

    /**
     * The built-in what-if report on the default cluster into {@code ./collsim-report/}, its summary on {@code out}
     * (what {@code collsim} with no arguments runs; {@link Main} calls it without parsing a command line).
     *
     * @param out         standard output
     * @param err         standard error (the variants' fabric warnings)
     * @param calibration the {@code --calibration} value, null when not given ({@link CalibrationOption})
     * @return {@link ExitCodes#OK}
     * @throws InputException when the calibration file is invalid (never for the built-in spec itself)
     * @throws UserError      when the report folder cannot be written (exit {@link ExitCodes#USAGE})
     */
    static int mainJob(PrintWriter out, PrintWriter err, Path calibration) throws InputException {
        try {
            WhatIfRun.run(BuiltinSpec.read(), BuiltinSpec.text(), Path.of(WhatIfRun.DEFAULT_OUTPUT), out, err,
                    WhatIfRun.terminal(), calibration);
            return ExitCodes.OK;
        } catch (UncheckedIOException e) {
            throw new UserError(e.getMessage(), ExitCodes.USAGE);
        }
    }
}
