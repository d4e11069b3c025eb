package dev.collsim.validation.diagnose;

import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.GpuModel;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.HeaderNics;
import dev.collsim.validation.ingest.NetworkLog;
import dev.collsim.validation.ingest.PerfPoint;
import dev.collsim.validation.ingest.RunEnv;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Runs every check over the datasets of one file. Immutable and thread-safe.
 */
public final class Diagnoser {

    private static final List<Check> CHECKS = List.of(new DataConsistencyCheck(), new BoundCheck(),
            new TransportCheck(), new ChannelCheck(), new ProtocolCheck(), new PcieCheck(), new PlacementCheck(),
            new IterationSpreadCheck(),
            new RunsDisagreeCheck(), new SweepShapeCheck(), new ReaderWarningCheck());

    private final Function<Dataset, Optional<GpuModel>> clusterGpu;

    /** A diagnoser that takes each run's GPU from its file only (its device lines or header). */
    public Diagnoser() {
        this(d -> Optional.empty());
    }

    /**
     * @param clusterGpu the GPU of the cluster the user named ({@code -c}) for a dataset, used only where the file
     *                   names no GPU the database knows: a table cut from its log (no {@code #  Rank ... device}
     *                   lines) is then judged against that GPU's bound, as compare predicts it on that cluster
     */
    public Diagnoser(Function<Dataset, Optional<GpuModel>> clusterGpu) {
        this.clusterGpu = clusterGpu;
    }

    /**
     * One dataset's diagnosis.
     *
     * @param dataset  the dataset
     * @param gpu      the GPU figures used, if the model was recognised
     * @param nic      the network figures used, if the header states them
     * @param findings findings, most severe first
     */
    public record Diagnosis(Dataset dataset, Optional<GpuModel> gpu, Optional<HeaderNics> nic, List<Finding> findings) {
        /** Copies. */
        public Diagnosis {
            findings = List.copyOf(findings);
        }
    }

    /**
     * @param datasets the datasets of one file (as read)
     * @param lines    the file's lines (empty for JSON)
     * @return one diagnosis per dataset, in order
     */
    public List<Diagnosis> diagnose(List<Dataset> datasets, List<String> lines) {
        return diagnose(datasets, lines, (d, perHost) -> Optional.empty());
    }

    /**
     * @param datasets the datasets of one file (as read)
     * @param lines    the file's lines (empty for JSON)
     * @param given    the NICs per host of a cluster the user named, for a dataset and its GPUs per host (0: unknown;
     *                 {@link ClusterNics#of}); when present they win over the file's {@code #@ interconnect} header
     *                 and its NCCL INFO lines: the user said what the file ran on
     * @return one diagnosis per dataset, in order
     */
    public List<Diagnosis> diagnose(List<Dataset> datasets, List<String> lines,
            BiFunction<Dataset, Integer, Optional<HeaderNics>> given) {
        return diagnose(datasets, lines, given, (d, perHost) -> Optional.empty());
    }

    /**
     * @param datasets the datasets of one file (as read)
     * @param lines    the file's lines (empty for JSON)
     * @param given    as {@link #diagnose(List, List, BiFunction)}
     * @param shown    the NICs per host of the catalog system the file names or shows (its hardware line, or a
     *                 provider's own network and its GPU), used only when neither the cluster given, the
     *                 {@code #@ interconnect} header nor the NCCL INFO lines state them
     * @return one diagnosis per dataset, in order
     */
    public List<Diagnosis> diagnose(List<Dataset> datasets, List<String> lines,
            BiFunction<Dataset, Integer, Optional<HeaderNics>> given,
            BiFunction<Dataset, Integer, Optional<HeaderNics>> shown) {
        return diagnose(datasets, datasets, lines, given, shown);
    }

    /**
     * Some tables of a file (those a {@code FILE:LINE} chose): each is judged with every other run of the file as its
     * siblings, so it gets the findings it gets when the whole file is diagnosed (runs that disagree among them).
     *
     * @param chosen   the datasets to diagnose, some of {@code datasets} (compared by identity)
     * @param datasets the datasets of one file (as read)
     * @param lines    the file's lines (empty for JSON)
     * @param given    as {@link #diagnose(List, List, BiFunction)}, asked for the chosen datasets only
     * @param shown    as {@link #diagnose(List, List, BiFunction, BiFunction)}, asked for the chosen datasets only
     * @return one diagnosis per chosen dataset, in order
     */
    public List<Diagnosis> diagnose(List<Dataset> chosen, List<Dataset> datasets, List<String> lines,
            BiFunction<Dataset, Integer, Optional<HeaderNics>> given,
            BiFunction<Dataset, Integer, Optional<HeaderNics>> shown) {
        List<Diagnosis> out = new ArrayList<>();
        for (Dataset d : chosen) {
            List<Dataset> siblings = datasets.stream().filter(o -> o != d).toList();
            Optional<GpuModel> gpu = GpuModels.find(d.gpuModel()).or(() -> GpuModels.find(d.header().text("hardware")))
                    .or(() -> clusterGpu.apply(d));
            Optional<HeaderNics> nic = given.apply(d, gpusPerHost(d)).or(() -> HeaderNics.parse(RunEnv.textForRun(
                    d.header().text("interconnect"), d.label()), d.header().line("interconnect"), gpusPerHost(d)))
                    .or(() -> logNics(d)).or(() -> shown.apply(d, gpusPerHost(d)));
            Subject s = new Subject(d, siblings, lines, gpu, nic);
            List<Finding> f = new ArrayList<>();
            for (Check c : CHECKS) {
                f.addAll(c.run(s));
            }
            f.sort((a, b) -> a.severity().compareTo(b.severity()));
            out.add(new Diagnosis(d, gpu, nic, f));
        }
        return out;
    }

    /**
     * The NICs per host of a run across hosts whose NCCL INFO lines list the devices NCCL used with their speed
     * ({@code NET/IB: [0] mlx5_0:uverbs0:1/IB ... speed=400000}, NCCL 2.30 src/transport/net_ib/init.cc; socket
     * interfaces' {@code with speed}), when no {@code #@ interconnect} line states them; every listed device must
     * share one speed ({@link NetworkLog#nicGbits}).
     *
     * @return the count and speed the log shows, empty when it does not show both or the run is on one host
     */
    static Optional<HeaderNics> logNics(Dataset d) {
        NetworkLog net = d.log().net();
        OptionalDouble gbits = net.nicGbits();
        if (d.nHosts() < 2 || net.usedDevices().isEmpty() || net.ofiNics() > 0 || gbits.isEmpty()) {
            return Optional.empty();
        }
        int n = net.usedDevices().size();
        return Optional.of(new HeaderNics(n, gbits.getAsDouble(), net.usedDevices().get(0).line(), String.format(
                Locale.ROOT, "%dx %.0f Gb/s (the NCCL INFO log's devices)", n, gbits.getAsDouble())));
    }

    /**
     * The single points of a sweep that diagnose calls one-off hiccups ({@link Finding.Kind#OUTLIER} of the sweep
     * shape check: a time more than 1.6x both neighbours, or the two halves of one size more than 2x apart), for
     * compare to mark. Looks at the dataset alone (no file lines: the evidence's text is empty).
     *
     * @param d a dataset
     * @return its OUTLIER findings, each with the point's line as its first evidence; empty when none
     */
    public static List<Finding> hiccups(Dataset d) {
        Subject s = new Subject(d, List.of(), List.of(), Optional.empty(), Optional.empty());
        return new SweepShapeCheck().run(s).stream().filter(f -> f.kind() == Finding.Kind.OUTLIER).toList();
    }

    /**
     * @param d a dataset
     * @return the points of {@link #hiccups}, in the same order: the points themselves, since a line does not tell
     *         points apart in every format (nccl-tests writes its whole JSON on one line)
     */
    public static List<PerfPoint> hiccupPoints(Dataset d) {
        Subject s = new Subject(d, List.of(), List.of(), Optional.empty(), Optional.empty());
        List<PerfPoint> out = new ArrayList<>();
        new SweepShapeCheck().run(s, out);
        return List.copyOf(out);
    }

    /** @return GPUs per host from the rank lines, else from the header's nodes_x_gpus, else 0 (unknown) */
    private static int gpusPerHost(Dataset d) {
        if (d.nHosts() > 0) {
            return d.gpusPerHost();
        }
        return d.header().hasSeveralShapes() ? 0 : d.header().nodesXGpus().map(x -> x[1]).orElse(0);
    }
}
