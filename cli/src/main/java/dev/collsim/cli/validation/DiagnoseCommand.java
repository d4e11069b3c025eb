package dev.collsim.cli.validation;

import dev.collsim.cli.ClusterOption;
import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.topology.Gpu;
import dev.collsim.validation.compare.ClusterGuess;
import dev.collsim.validation.compare.ClusterGuesser;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.diagnose.ClusterNics;
import dev.collsim.validation.diagnose.Diagnoser;
import dev.collsim.validation.diagnose.DiagnosisText;
import dev.collsim.validation.diagnose.Finding;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.HeaderNics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code collsim diagnose FILE...} (or {@code -m FILE...}, as compare takes its files): why measured bandwidth falls
 * short of what the hardware allows.
 */
@Command(name = "diagnose", mixinStandardHelpOptions = true,
        description = {"Explain why measured collective bandwidth falls short of what the hardware allows.",
            "Reads nccl-tests output (any version, with or without NCCL_DEBUG=INFO lines), nccl-tests -J JSON or "
                    + "collsim run JSON, and cites the evidence line of every finding.",
            "With -c the bandwidth across hosts is judged against the compute NICs the run's GPUs reach on the"
                    + " cluster's first host (their count and speed); they win over a '#@ interconnect' header and"
                    + " the NCCL INFO log's NICs. Runs are placed on -c as compare places them: a catalog type"
                    + " takes the run's host count, a run with more ranks or hosts than another cluster has is a"
                    + " usage error, and a file of other GPUs is judged on -c's NICs with one 'assumed:' note."
                    + " Without -c, where the file states no NICs, a run across hosts is judged on the NICs of the"
                    + " cluster compare assumes for it (the system the file names or shows, else the catalog host"
                    + " type of its GPU model), with compare's 'assumed:' note."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done (also when a PROBLEM is found, unless --fail-on-problem)", "2:usage error", "3:invalid or missing input file",
            "4:at least one PROBLEM finding (with --fail-on-problem)", "6:finished, but skipped files it could not read (each named on stderr with why)"})
public final class DiagnoseCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "measurement files, FILE:LINE (the table of"
            + " FILE starting at LINE) or folders")
    private List<Path> files = new ArrayList<>();

    /** The same files named as compare, calibrate and tune name them ({@code -m FILE...}), so either form works. */
    @Option(names = {"-m", "--measured"}, arity = "1..*", paramLabel = "FILE",
            description = "measurement files or folders, as compare -m takes them (the same as FILE...)")
    private List<Path> measured = new ArrayList<>();

    @Mixin
    private ClusterOption cluster;

    @Option(names = "--fail-on-problem", description = "exit with 4 when a PROBLEM is found (default: ${DEFAULT-VALUE})")
    private boolean failOnProblem;

    @Override
    public Integer call() throws InputException {
        List<Diagnoser.Diagnosis> all = new ArrayList<>();
        if (cluster.networkGiven()) {
            throw new UserError("--network changes nothing in 'diagnose': its bound across hosts is the NICs' line"
                    + " rate, whatever the transport; leave it out", ExitCodes.USAGE);
        }
        List<Path> given = new ArrayList<>(measured);
        given.addAll(files);
        if (given.isEmpty()) {
            throw new UserError("diagnose: no measurement file given; allowed: FILE... or -m FILE... (files or"
                    + " folders of nccl-tests output or JSON)", ExitCodes.USAGE);
        }
        MeasuredFiles.Batch batch = MeasuredFiles.readSkipping(given, spec.commandLine().getErr());
        Map<Dataset, Placed> placed = clusterFor(batch);
        Map<Dataset, Placed> byJudged = new IdentityHashMap<>();
        if (placed != null) {
            placed.values().forEach(p -> byJudged.put(p.dataset(), p));
        }
        Diagnoser d = new Diagnoser(ds -> byJudged.containsKey(ds) ? byJudged.get(ds).gpu() : Optional.empty());
        for (MeasuredFiles.Read r : batch.reads()) {
            List<Dataset> chosen = placed == null ? r.datasets() : r.datasets().stream().map(x -> judged(placed, x))
                    .toList();
            List<Dataset> whole = placed == null ? r.whole() : r.whole().stream().map(x -> judged(placed, x)).toList();
            all.addAll(d.diagnose(chosen, whole, MeasuredFiles.lines(r.file()), (ds, perHost) ->
                    byJudged.containsKey(ds) ? byJudged.get(ds).nics() : Optional.empty(),
                    (ds, perHost) -> placed != null ? Optional.empty() : shownSystemNics(ds, perHost)));
        }
        spec.commandLine().getOut().print(DiagnosisText.render(all));
        boolean problem = all.stream().flatMap(x -> x.findings().stream())
                .anyMatch(x -> x.severity() == Finding.Severity.PROBLEM);
        return batch.exitCode(failOnProblem && problem ? ExitCodes.CHECK_FAILED : ExitCodes.OK);
    }

    /**
     * A dataset as {@code -c} places it, and the NICs its GPUs reach there.
     *
     * @param dataset the dataset judged: the file's, or with the host count of the cluster's hosts its ranks span
     *                when the file states none ({@link Dataset#withHosts})
     * @param nics    the NICs per host of the cluster, empty where its GPUs reach none
     * @param gpu     the GPU of the cluster, for a run whose file names none
     */
    private record Placed(Dataset dataset, Optional<HeaderNics> nics, Optional<GpuModel> gpu) {
    }

    private static Dataset judged(Map<Dataset, Placed> placed, Dataset d) {
        Placed p = placed.get(d);
        return p == null ? d : p.dataset();
    }

    /**
     * Without {@code -c}: the NICs of the cluster compare models the run on ({@link ClusterGuesser#guess}, one home
     * for the guess: the catalog system the file names or shows, e.g. a plain EFA log of H100s is a p5.48xlarge run,
     * else the catalog host type of its GPU model, e.g. a plain H100 log is a DGX H100 run). Where the cluster was
     * taken from the GPU model alone, the text carries compare's {@code assumed:} line naming the host type.
     *
     * @return those NICs, empty on one host or when compare guesses no cluster
     */
    static Optional<HeaderNics> shownSystemNics(Dataset ds, int perHost) {
        if (ds.nHosts() < 2) {
            return Optional.empty();
        }
        return ClusterGuesser.guess(ds).flatMap(g -> {
            Optional<String> system = ClusterGuesser.system(ds).map(Map.Entry::getValue);
            String assumed = system.isPresent() ? "" : g.assumptions().stream().filter(a -> a.startsWith("host type "))
                    .findFirst().orElse("");
            return ClusterNics.ofCluster(g.topology(), system.orElse(g.source()), perHost).map(n -> n.assuming(assumed));
        });
    }

    /**
     * With {@code -c}: each dataset placed on the cluster as compare, calibrate and tune place it ({@link
     * DatasetCluster#place}: a catalog type takes the run's host count; a run with more ranks or hosts than a loaded
     * cluster has is a usage error, exit 2), and the NICs its GPUs reach on the first host ({@link ClusterNics#of}).
     * A run of another GPU model is not refused (the same rule as compare, {@link Comparer#otherGpu}): the NICs'
     * text carries the {@code assumed:} line, since only -c's NICs are judged by and the GPU figures stay the run's.
     *
     * A file that states no host count (no rank lines, no {@code nodes_x_gpus} header) is judged on the hosts of
     * the cluster its ranks span there (16 ranks on {@code dgx-h100:2}: 2 hosts of 8), and the NICs' text says so;
     * without this it would be judged as one host, on the NVLink figure.
     *
     * @return per dataset (by identity) the dataset judged and its NICs, null without {@code -c}
     * @throws InputException (exit 3) when a dataset spans hosts and the GPUs it uses on the cluster's hosts reach no
     *                        compute NIC
     */
    private Map<Dataset, Placed> clusterFor(MeasuredFiles.Batch batch) throws InputException {
        if (!cluster.given()) {
            return null;
        }
        String name = cluster.value();
        Map<Dataset, Placed> out = new IdentityHashMap<>();
        List<InputProblem> problems = new ArrayList<>();
        for (Dataset file : batch.datasets()) {
            ClusterGuess g = DatasetCluster.place(cluster.source(), file, spec.commandLine().getErr());
            int spanned = (int) g.ranks().stream().mapToInt(Gpu::host).distinct().count();
            boolean hostsOfCluster = file.nHosts() == 0 && spanned > 1;
            Dataset ds = hostsOfCluster ? file.withHosts(spanned) : file;
            String hostsNote = hostsOfCluster ? "judged on " + spanned + " hosts of " + ds.gpusPerHost() + " GPUs,"
                    + " the hosts its " + ds.nRanks() + " ranks span on -c " + name + " (the file states no host count)"
                    : "";
            Optional<HeaderNics> nics = ClusterNics.of(g.topology(), name, ds.gpusPerHost());
            if (ds.nHosts() > 1 && nics.isEmpty()) {
                problems.add(new InputProblem(ds.file(), ds.line(), 0, "-c/--cluster", "the run spans " + ds.nHosts()
                        + " hosts, but its GPUs on cluster " + name + " reach no compute NIC; allowed: a cluster whose"
                        + " hosts have NICs (a catalog type, NAME:N)"));
            }
            Optional<String> gpu = Comparer.otherGpu(ds, g, "the NICs judged by are that cluster's, the GPU figures"
                    + " the run's");
            out.put(file, new Placed(ds, nics.map(n -> n.assuming(hostsNote).assuming(gpu.orElse(""))),
                    g.topology().gpus().stream().findFirst().flatMap(x -> GpuModels.find(x.model()))));
        }
        if (!problems.isEmpty()) {
            throw new InputException(problems);
        }
        return out;
    }
}
