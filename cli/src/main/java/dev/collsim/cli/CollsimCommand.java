package dev.collsim.cli;

import picocli.CommandLine.Command;

/** The root command: {@code collsim <subcommand>}. */
@Command(name = "collsim", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Predicts, measures and explains GPU collective-communication performance.",
        subcommands = {TopoCommand.class, dev.collsim.cli.predict.PredictCommand.class,
            dev.collsim.cli.flow.MergeCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:internal error (a bug; a stack trace is printed)",
            "2:usage error", "3:invalid input file (every problem is listed)",
            "4:check failed (#wrong > 0, or error above tolerance)", "5:no GPU, or NCCL/CUDA failure"})
public final class CollsimCommand {
}
