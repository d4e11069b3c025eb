package dev.collsim.sweep;

import dev.collsim.sweep.out.TargetResult;
import dev.collsim.sweep.run.ShipJars;
import dev.collsim.sweep.run.SweepOptions;
import dev.collsim.sweep.run.SweepOutput;
import dev.collsim.sweep.run.SweepRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code collsim sweep SPEC.yaml}: a design-space sweep on Apache Spark (embedded local mode or a cluster). */
@Command(name = "collsim sweep", sortOptions = false, versionProvider = SweepCommand.Version.class,
        description = {"Time every design of a grid (hosts, host type, NICs, NIC speed, fabric, oversubscription,"
            + " NCCL settings, ...) on the spec's collectives and training plans, price it, and find the Pareto front"
            + " of cost against time and the cheapest design meeting each target.",
            "Runs on Apache Spark: embedded (local mode, nothing to install) or on a cluster with --master. A rerun"
            + " with the same output folder resumes: finished chunks are skipped."},
        footer = {"", "Output folder: points.csv, points.parquet, front.csv, targets.csv, index.html, chunks/.",
            "Exit codes: 0 ok, 2 usage, 3 bad input (file, line, column, field named)."})
public final class SweepCommand implements Callable<Integer> {

    /** System property the launcher sets to the file listing the jars a cluster's executors need. */
    public static final String SHIP_CLASSPATH = "collsim.sweep.shipClasspath";

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Option(names = {"-V", "--version"}, versionHelp = true, description = "print the version and exit")
    boolean version;

    @Parameters(index = "0", paramLabel = "SPEC.yaml", description = "the sweep spec (docs/sweep.md)")
    Path specFile;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", description = "output folder (default: SPEC-sweep in"
            + " the working directory, SPEC the spec's file name without .yaml)")
    Path output;

    @Option(names = "--master", paramLabel = "URL", description = "Spark master: spark://HOST:PORT, k8s://..., yarn;"
            + " default local[THREADS], embedded")
    String master;

    @Option(names = "--threads", paramLabel = "N", description = "local mode: worker threads (default: all cores)")
    Integer threads;

    @Option(names = "--chunk", paramLabel = "N", defaultValue = "200", description = "points per Spark task and per"
            + " resumable chunk (default ${DEFAULT-VALUE})")
    int chunk;

    @Option(names = "--conf", paramLabel = "KEY=VALUE", description = "a Spark setting, e.g. spark.executor.memory=2g")
    Map<String, String> conf = Map.of();

    @Option(names = "--no-progress", description = "no progress lines on standard error")
    boolean noProgress;

    @Option(names = "--benchmark", description = "compute every point and print the rate only (no output, no resume)")
    boolean benchmark;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (chunk < 1 || (threads != null && threads < 1)) {
            err.println("collsim sweep: --chunk and --threads must be >= 1");
            return 2;
        }
        String where = master != null ? master
                : "local[" + (threads != null ? threads : Runtime.getRuntime().availableProcessors()) + "]";
        Path dir = output != null ? output
                : Path.of(specFile.getFileName().toString().replaceFirst("\\.ya?ml$", "") + "-sweep");
        SweepRun.Result r = SweepRun.run(new SweepOptions(specFile, benchmark ? null : dir, where, chunk, jars(where),
                conf, !noProgress, benchmark), err);
        SweepOutput.summary(r).forEach(out::println);
        if (benchmark) {
            out.printf(Locale.ROOT, "benchmark: %.0f points/s (%d points, %.2f s, %s, %d cores)%n", r.rate(),
                    r.computed(), r.seconds(), where, Runtime.getRuntime().availableProcessors());
            return 0;
        }
        for (TargetResult t : TargetResult.of(r.space().targets(), r.rows(), r.space().axes())) {
            String every = t.backends().isEmpty() ? "" : " under every backend of the grid (" + t.backends()
                    + "; a design's figures are its slower backend's)";
            out.printf(Locale.ROOT, "target %s (%s): %s%n", t.target(), t.bounds(), t.point() < 0
                    ? "no design meets it" + every : String.format(Locale.ROOT, "cheapest %s, %.0f %s, %s (%d %s it%s)",
                    t.design(), t.cost(), r.space().cost().currency(), t.workload(), t.meeting(),
                    t.meeting() == 1 ? "design meets" : "designs meet", every));
        }
        out.println("wrote " + dir + "/ (points.csv, points.parquet, front.csv, targets.csv, index.html)");
        return 0;
    }

    /** @return the jars a cluster's executors need (this module's, then its libraries); none in local mode */
    private static List<String> jars(String master) throws IOException {
        String file = System.getProperty(SHIP_CLASSPATH);
        if (master.startsWith("local") || file == null) {
            return List.of();
        }
        List<String> entries = new ArrayList<>();
        try {
            entries.add(Path.of(SweepCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString());
        } catch (URISyntaxException e) {
            throw new IOException("cannot locate the collsim sweep classes: " + e.getMessage(), e);
        }
        entries.addAll(ShipJars.read(Path.of(file)));
        return ShipJars.of(entries, Files.createTempDirectory("collsim-sweep-jars-"));
    }

    /** collsim's version, as the cli's {@code --version} prints it, from the sweep jar's manifest ("dev" without). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = SweepCommand.class.getPackage().getImplementationVersion();
            return new String[] {"collsim " + (v == null ? "dev" : v)};
        }
    }
}
