package dev.collsim.cli;

import picocli.CommandLine.Command;

/** {@code collsim topo}: describe a cluster the way NCCL sees it. */
@Command(name = "topo", mixinStandardHelpOptions = true,
        description = "Describe a cluster: summary, path matrix, checks, export.",
        subcommands = {TopoShowCommand.class, TopoPathsCommand.class, TopoCheckCommand.class,
            TopoExportCommand.class})
public final class TopoCommand {
}
