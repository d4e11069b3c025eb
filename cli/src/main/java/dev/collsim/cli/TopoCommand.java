package dev.collsim.cli;

import picocli.CommandLine.Command;

/** {@code collsim topo}: describe a cluster the way NCCL sees it. */
@Command(name = "topo", mixinStandardHelpOptions = true, exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:internal error", "2:usage error (bad option or value)",
            "3:invalid or unreadable cluster (topo check: problems found)"},
        description = "Describe a cluster: summary, path matrix, checks, export.",
        subcommands = {TopoShowCommand.class, TopoPathsCommand.class, TopoCheckCommand.class,
            TopoExportCommand.class})
public final class TopoCommand {
}
