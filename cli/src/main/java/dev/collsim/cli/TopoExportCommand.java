package dev.collsim.cli;

import dev.collsim.io.InputException;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.AtomicFiles;
import dev.collsim.topology.io.export.InfraGraphWriter;
import dev.collsim.topology.io.export.NcclTopoXmlWriter;
import dev.collsim.topology.io.export.TopologyExporters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code collsim topo export}: writes the cluster as DOT, GraphML or NCCL topology XML, to standard output or, with
 * {@code -o}, to a file written atomically (nothing half-written on failure).
 */
@Command(name = "export", mixinStandardHelpOptions = true, exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:internal error", "2:usage error (bad option or value)",
            "3:invalid or unreadable cluster, or -o FILE cannot be written"},
        description = "Export a cluster as dot, graphml, nccl-xml or infragraph (to stdout, or -o FILE written"
                + " atomically).")
public final class TopoExportCommand implements Callable<Integer> {

    /** The export formats, as typed on the command line. */
    static final String FORMATS = "dot, graphml, nccl-xml, infragraph";

    @Mixin
    private ClusterOption cluster;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "dot",
            description = "One of: " + FORMATS + ". Default: ${DEFAULT-VALUE}.")
    private String format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Output file (default: standard output).")
    private Path output;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws InputException {
        String f = format.toLowerCase(Locale.ROOT);
        if (!f.equals("dot") && !f.equals("graphml") && !f.equals("nccl-xml") && !f.equals("infragraph")) {
            throw new UserError("--format '" + format + "' is unknown; allowed: " + FORMATS, ExitCodes.USAGE);
        }
        Topology t = cluster.load();
        String text = switch (f) {
            case "dot" -> TopologyExporters.dot(t);
            case "graphml" -> TopologyExporters.graphml(t);
            case "infragraph" -> infragraph(t);
            default -> ncclXml(t);
        };
        if (output == null) {
            spec.commandLine().getOut().print(text);
            return ExitCodes.OK;
        }
        try {
            AtomicFiles.write(output, text);
        } catch (IOException e) {
            throw new UserError("cannot write " + output + ": " + e.getMessage(), ExitCodes.INPUT);
        }
        spec.commandLine().getErr().println("wrote " + output);
        return ExitCodes.OK;
    }

    /**
     * The cluster as NCCL topology XML ({@code NCCL_TOPO_FILE} format), written by
     * {@link dev.collsim.topology.io.export.NcclTopoXmlWriter}: reading it back gives the same GPUs, NICs and NCCL paths.
     *
     * @param t the cluster
     * @return the XML text
     */
    static String ncclXml(Topology t) {
        return new NcclTopoXmlWriter().write(t);
    }

    /** The cluster as InfraGraph YAML ({@link InfraGraphWriter}); a cluster it cannot express is a user error. */
    private static String infragraph(Topology t) {
        try {
            return new InfraGraphWriter().write(t);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage(), ExitCodes.INPUT);
        }
    }
}
