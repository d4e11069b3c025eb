package dev.collsim.cli;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterSource;
import dev.collsim.topology.io.MissingNvlinks;
import dev.collsim.topology.paths.Reachability;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code collsim topo check}: validates a cluster description (every input problem, with file, line, column and
 * field), then checks that NCCL could use it: every GPU pair of a host has a path, every GPU reaches a NIC when there
 * are several hosts, and every host reaches host 0. Exit code 3 when anything is wrong. As in every other command,
 * problems and warnings are diagnostics and go to stderr; the report of a successful check goes to stdout.
 */
@Command(name = "check", mixinStandardHelpOptions = true, exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the cluster is valid", "1:internal error", "2:usage error (bad option or value)",
            "3:problems found (every one is listed with file, line and column) or the cluster cannot be read"},
        description = "Validate a cluster description and its connectivity; exit 3 listing every problem.")
public final class TopoCheckCommand implements Callable<Integer> {

    @Mixin
    private ClusterOption cluster;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Topology t;
        try {
            t = cluster.load();
        } catch (InputException e) {
            err.println(e.getMessage());
            return ExitCodes.INPUT;
        }
        List<InputProblem> problems = check(t, cluster.value(), isFile());
        List<String> shape = warnings(t);
        shape.forEach(x -> err.println("collsim: warning: " + x));
        int w = t.warnings().size() + shape.size() + fabricWarnings();
        String warnings = w == 0 ? "" : String.format(Locale.ROOT, "; %d warning%s (on stderr)", w, w == 1 ? "" : "s");
        if (problems.isEmpty()) {
            out.printf(Locale.ROOT, "OK: %s: %d %s, %d GPUs; every GPU pair of a host has a path%s%s%n", t.name(),
                    t.hostCount(), t.hostCount() == 1 ? "host" : "hosts", t.gpus().size(),
                    t.hostCount() > 1 ? ", every host reaches host 0" : "", warnings);
            return ExitCodes.OK;
        }
        InputException.lines(problems).forEach(err::println);
        err.printf(Locale.ROOT, "%d problem%s in %s%s%n", problems.size(), problems.size() == 1 ? "" : "s",
                cluster.value(), warnings);
        return ExitCodes.INPUT;
    }

    /** @return true when {@code -c} named a file the user gave */
    private boolean isFile() {
        try {
            return cluster.source().origin() == ClusterSource.Origin.FILE;
        } catch (InputException e) {
            return false; // already loaded once: a source that reads the first time reads again
        }
    }

    /** @return what the cluster's shape leaves out (NVLinks) */
    private List<String> warnings(Topology t) {
        List<String> out = new ArrayList<>();
        MissingNvlinks.warning(t).ifPresent(out::add);
        return out;
    }

    /** @return how many fabric warnings {@link ClusterOption#source()} printed when it resolved the cluster */
    private int fabricWarnings() {
        try {
            return ClusterOption.fabricWarnings(cluster.source()).size();
        } catch (InputException e) {
            return 0; // already loaded once: a source that reads the first time reads again
        }
    }

    /**
     * The gaps NCCL could not join ({@link Reachability}) that the cluster's reader let through: the readers of YAML,
     * NCCL XML and InfraGraph files refuse theirs at the element they are about, so what is left comes from a
     * catalog or config cluster, or from {@code nvidia-smi topo -m} text, whose labels always give a route. None of
     * them has a line to name: the problem says so and why.
     *
     * @param t      the cluster
     * @param file   name to cite
     * @param isFile true when {@code file} is a file the user gave (else a catalog or config name)
     * @return connectivity problems, empty when none
     */
    static List<InputProblem> check(Topology t, String file, boolean isFile) {
        String why = isFile ? "no line of the file states it: what is missing is a route between the devices it lists"
                : file + " is built from collsim's catalog, not from lines of a file";
        return Reachability.of(t).stream().map(g -> new InputProblem(file, 0, 0, "host " + g.host(), g.message()
                + " (" + why + ")")).toList();
    }
}
