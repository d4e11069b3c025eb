package dev.collsim.cli.validation;

import dev.collsim.cli.CalibrationOption;
import dev.collsim.cli.ClusterOption;
import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.TypedOption;
import dev.collsim.cli.UserError;
import dev.collsim.io.InputException;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.SizeSweep;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PreparedCommunicator;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.validation.calibration.Calibration;
import dev.collsim.validation.calibration.CalibrationProfile;
import dev.collsim.validation.calibration.FitLadder;
import dev.collsim.validation.calibration.ProfileClass;
import dev.collsim.validation.calibration.ProfileSelector;
import dev.collsim.validation.calibration.Series;
import dev.collsim.validation.calibration.SeriesBuilder;
import dev.collsim.validation.compare.ClusterGuess;
import dev.collsim.validation.compare.ClusterGuesser;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.compare.HeaderNcclVersion;
import dev.collsim.validation.compare.HeaderNetworkClass;
import dev.collsim.validation.compare.PredictionBand;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.tune.Evidence;
import dev.collsim.validation.tune.TuneEnv;
import dev.collsim.validation.tune.TuneResult;
import dev.collsim.validation.tune.Tuner;
import dev.collsim.validation.tune.TuningBand;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code collsim tune [-c CLUSTER] [--calibration PROFILE|none|auto | -m FILE...] [-o DIR] [COLLECTIVE...]}. */
@Command(name = "tune", mixinStandardHelpOptions = true,
        description = {"Advise NCCL settings (a tuner plugin file, NCCL_ALGO/NCCL_PROTO) where collsim predicts"
                + " a faster choice than NCCL's.",
            "A change is advised only where collsim's fastest (algorithm, protocol, channels) beats NCCL's choice"
                + " by more than the model's band.",
            "Written: the configuration of NCCL's example tuner plugin (nccl_tuner.conf, covering every swept "
                + "size: the plugin runs unmatched calls on one channel), the NCCL_ALGO/NCCL_PROTO/"
                + "NCCL_MAX_NCHANNELS settings where one setting suffices "
                + "(nccl_env.sh) and a table (tune.txt). The band is the p90 of the calibration fit's residuals "
                + "(--calibration, or a fit of -m measurements); with neither (or --calibration auto), the band of the"
                + " cluster's class that the calibration line prints (below and at >= 1 MiB), else (and with "
                + "--calibration none) the default model's median error over the public datasets (collsim accuracy"
                + " prints it)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:advice written", "2:usage error", "3:invalid input file (with -m: no file could be read)",
            "6:advice written, but -m files that could not be read were skipped (each named on stderr with why)"})
public final class TuneCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ClusterOption cluster;

    @Parameters(paramLabel = "COLLECTIVE", arity = "0..*", description = "collectives to tune (allreduce, allgather,"
            + " reducescatter, broadcast, reduce; nccl-tests names also work); default: all five")
    private List<String> collectives;

    @Option(names = "--calibration", paramLabel = "PROFILE|none|auto", description = "a 'collsim calibrate' profile:"
            + " its parameters and the p90 of its fit residuals as the band; none: the bare model and its band; auto"
            + " (default without -m): the shipped profile of the cluster's class (configs/calibration/auto), else the"
            + " bare model")
    private Path calibration;

    @Option(names = {"-m", "--measured"}, arity = "1..*", paramLabel = "FILE", description = "measurement files, "
            + "FILE:LINE (one table) or folders: fit the model to them (as collsim calibrate), use the fit's residual"
            + " p90 as the band, and show their times as evidence")
    private List<Path> measured;

    @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", defaultValue = "8", description = "smallest size "
            + "(default ${DEFAULT-VALUE})")
    private String minBytes;

    @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", defaultValue = "8G", description = "largest size "
            + "(default ${DEFAULT-VALUE})")
    private String maxBytes;

    @Option(names = {"-f", "--stepfactor"}, paramLabel = "FACTOR", defaultValue = "2", description = "size factor "
            + "(default ${DEFAULT-VALUE})")
    private int stepFactor;

    @Option(names = "--ranks", split = ",", paramLabel = "N", description = "rank counts to tune (the first N GPUs "
            + "of the cluster each); default: every GPU (with -m and no -c: the measured ranks)")
    private List<Integer> ranks;

    @Option(names = "--nccl-version", paramLabel = "V", defaultValue = "2.30", description = "NCCL release modelled, "
            + "2.8 to 2.11 or 2.18 to 2.30 as 2.M or 2.M.P (default ${DEFAULT-VALUE})")
    private String ncclVersion;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", description = "folder to write nccl_tuner.conf, "
            + "nccl_env.sh and tune.txt to (written whole or not at all); default: print only")
    private Path output;

    @Override
    public Integer call() throws InputException, IOException {
        if (calibration != null && measured != null) {
            throw new UserError("give --calibration or -m, not both", ExitCodes.USAGE);
        }
        List<Collective> colls = collectives();
        SizeSweep sweep = UserError.usage(() -> SizeSweep.parse(minBytes, maxBytes, "1M", stepFactor,
                TypedOption.sweepFlags(spec)));
        NcclVersion version = UserError.usage(() -> NcclVersion.parse(ncclVersion));
        PrintWriter out = spec.commandLine().getOut();
        MeasuredFiles.Batch batch = measured == null ? new MeasuredFiles.Batch(List.of(), 0)
                : MeasuredFiles.readMeasured(measured, spec.commandLine().getErr(), "put the collectives before -m");
        List<Dataset> data = batch.datasets();
        version = measuredVersion(data, version, out);
        Placed placed = placed(data);
        hostsRefusal(data, placed.rankSets(), cluster.given() ? "-c " + cluster.value() : "the cluster the files show")
                .ifPresent(m -> {
                    throw new UserError(m, ExitCodes.USAGE);
                });
        // the class (and band) of the NCCL nodes the widest rank set spans: the sets are the first N GPUs each
        Model model = model(data, placed.topology(), placed.rankSets().stream().max(Comparator.comparingInt(List::size))
                .orElse(List.of()), out);
        out.println(model.line());
        rankNote(data, placed.rankSets(), placed.topology().gpus().size()).ifPresent(out::println);
        NcclPredictor predictor = new NcclPredictor(version, model.params());
        List<TuneOutput.Part> parts = new ArrayList<>();
        for (List<Gpu> r : placed.rankSets()) {
            PreparedCommunicator comm = prepare(predictor, placed.topology(), r, NcclSettings.DEFAULTS);
            TuneResult res = model(() -> Tuner.sweep(comm, model.params(), model.band(), colls, sweep.sizes(),
                    new Evidence(data)));
            TuneEnv env = model(() -> TuneEnv.of(res, s -> prepare(predictor, placed.topology(), r, s),
                    model.params()));
            parts.add(new TuneOutput.Part(res, env));
        }
        TuneOutput result = new TuneOutput(placed.topology().name(), model.label(), version.tables().text() + " model"
                + version.rulesNote(), parts);
        result.print(out);
        if (output != null) {
            result.write(output);
            out.println("wrote " + output.resolve(TuneOutput.CONFIG) + ", " + output.resolve(TuneOutput.ENV) + ", "
                    + output.resolve(TuneOutput.TABLE));
        }
        return batch.exitCode(ExitCodes.OK);
    }

    /**
     * The release the measurements ran, when {@code --nccl-version} was not given: what compare models each -m
     * dataset with ({@link HeaderNcclVersion}: the release the file states, the one current at its date, else the
     * default), so that the advice is for the NCCL the user runs; it was 2.30 whatever the files said. Files that
     * disagree keep the option's default, and a note names theirs.
     *
     * @return the release to model; the one given or the default when nothing else applies
     */
    private NcclVersion measuredVersion(List<Dataset> data, NcclVersion option, PrintWriter out) {
        if (data.isEmpty() || spec.commandLine().getParseResult().hasMatchedOption("--nccl-version")) {
            return option;
        }
        Set<NcclVersion> runs = new TreeSet<>();
        data.forEach(d -> runs.add(HeaderNcclVersion.modelled(d, Optional.empty())));
        if (runs.size() > 1) {
            out.println("note: the measurements are modelled with different NCCL releases (" + runs.stream()
                    .map(NcclVersion::range).collect(Collectors.joining(", ")) + "); tune models " + option.text()
                    + " (--nccl-version to choose)");
            return option;
        }
        out.println("note: " + HeaderNcclVersion.line(data.get(0), Optional.empty()) + ", as compare models the -m"
                + " measurements; --nccl-version to tune for another release");
        return runs.iterator().next();
    }

    /**
     * @param line what was used, as the one {@code calibration: ...} line every command prints
     *             ({@link CalibrationOption})
     */
    private record Model(PerformanceParameters params, TuningBand band, String label, String line) {
    }

    private record Placed(Topology topology, List<List<Gpu>> rankSets) {
    }

    private Model model(List<Dataset> data, Topology topo, List<Gpu> ranks, PrintWriter out) throws InputException {
        if (!CalibrationOption.none(calibration) && !CalibrationOption.auto(calibration)) {
            CalibrationOption.requireProfile(calibration, "--calibration");
            Calibration c = CalibrationProfile.read(calibration);
            CalibrationOption.warnClass(calibration, "--calibration", topo, spec.commandLine().getErr());
            return new Model(c.parameters(), band(c), "calibration profile " + calibration.getFileName(),
                    CalibrationOption.fileLine(calibration));
        }
        if (data.isEmpty()) {
            CalibrationOption.Resolved r = CalibrationOption.resolve(calibration, "--calibration", topo, ranks);
            // one band: the class band the calibration line prints, where there is one
            // --calibration none is the bare model: judged with its band on this cluster's class, as auto without a
            // shipped profile is
            Optional<PredictionBand> shown = CalibrationOption.none(calibration)
                    ? ProfileSelector.bare(ProfileClass.ofRanks(topo, ranks)).band() : r.band();
            Optional<TuningBand> printed = shown.filter(b -> b.belowMiBPercent() > 0 && b.atLeastMiBPercent() > 0)
                    .map(b -> TuningBand.ofClass(b, CalibrationOption.none(calibration) ? "the bare model's band on"
                            + " this cluster's class" : "the class band printed on the calibration line"));
            return r.shipped().map(c -> new Model(c.parameters(), printed.orElse(band(c)), "shipped calibration "
                    + "profile", r.line())).orElseGet(() -> new Model(PerformanceParameters.DEFAULTS,
                    printed.orElse(TuningBand.UNCALIBRATED), "default parameters", r.line()));
        }
        Comparer comparer = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null);
        List<Series> series = new ArrayList<>();
        for (Dataset d : data) {
            Optional<ClusterGuess> g = cluster.given()
                    ? Optional.of(DatasetCluster.place(cluster.source(), d, spec.commandLine().getErr()))
                    : Optional.empty();
            // the line compare -c prints for such a file: the fit uses -c's network, not the one the file shows
            g.flatMap(c -> HeaderNetworkClass.otherThanGiven(d, c, HeaderNetworkClass.FIT))
                    .ifPresent(l -> out.println("note: " + d.id() + ": " + l));
            SeriesBuilder.of(d, g, comparer, Comparer.leftOutPoints(d)).ifPresent(series::add);
        }
        Optional<Calibration> fit = series.isEmpty() ? Optional.empty()
                : FitLadder.everyParameter().fit(series, PerformanceParameters.DEFAULTS).accepted();
        if (fit.isEmpty()) {
            // the bare model then, judged with the band it has on this cluster's class (as without -m): a refused fit
            // says nothing about the model's error here, so it must not narrow the band
            CalibrationOption.Resolved bare = CalibrationOption.resolve(null, "--calibration", topo, ranks);
            Optional<TuningBand> classBand = bare.band().map(b -> TuningBand.ofClass(b, "the class band printed on"
                    + " the calibration line"));
            out.println("note: no accepted fit of the measurements (see collsim calibrate); default parameters and "
                    + (classBand.isPresent() ? "the bare model's class band are used" : "the uncalibrated band are used"));
            return new Model(PerformanceParameters.DEFAULTS, classBand.orElse(TuningBand.UNCALIBRATED),
                    "default parameters (fit refused)", bare.line());
        }
        String fitted = "fitted on " + fit.get().nPoints() + " measured points (" + String.join(", ",
                fit.get().fitted().stream().map(v -> v.name()).toList()) + ")";
        return new Model(fit.get().parameters(), band(fit.get()), fitted, "calibration: " + fitted + " (-m)");
    }

    private static TuningBand band(Calibration c) {
        return TuningBand.forCalibration(c);
    }

    private Placed placed(List<Dataset> data) throws InputException {
        Topology topo;
        List<Gpu> all;
        if (!cluster.given() && !data.isEmpty()) {
            cluster.requireClusterForNetwork("tune -m");
            ClusterGuess g = data.stream().map(ClusterGuesser::guess).flatMap(Optional::stream).findFirst()
                    .orElseThrow(() -> new UserError("no measurement file reveals its cluster ("
                            + ClusterGuesser.why(data.get(0)) + "); give -c", ExitCodes.INPUT));
            topo = g.topology();
            all = g.ranks();
        } else {
            topo = cluster.load();
            all = topo.gpus();
        }
        if (ranks == null) {
            return new Placed(topo, List.of(all));
        }
        List<List<Gpu>> sets = new ArrayList<>();
        for (int n : ranks) {
            if (n < 2 || n > topo.gpus().size()) {
                throw new UserError("--ranks must be in [2, " + topo.gpus().size() + "] (one rank gives NCCL no "
                        + "choice to make), got " + n, ExitCodes.USAGE);
            }
            sets.add(List.copyOf(topo.gpus().subList(0, n)));
        }
        return new Placed(topo, sets);
    }

    /**
     * The -m files' points are fitted whatever their rank count, but {@link Evidence} shows a measured time only at its
     * own rank count: advice for other rank counts (every GPU of -c by default) says so, and how to tune for theirs:
     * {@code --ranks N} where the cluster has N GPUs, else a cluster of the measured size ({@code --ranks} is at most
     * the cluster's GPUs).
     *
     * @param data        the -m datasets
     * @param rankSets    the rank sets advised for
     * @param clusterGpus the GPUs of the cluster advised for
     * @return a note when a rank count advised for is none of the measured ones; empty without -m
     */
    static Optional<String> rankNote(List<Dataset> data, List<List<Gpu>> rankSets, int clusterGpus) {
        List<Integer> measured = data.stream().map(Dataset::nRanks).distinct().sorted().toList();
        List<Integer> advised = rankSets.stream().map(List::size).distinct().toList();
        if (measured.isEmpty() || measured.containsAll(advised)) {
            return Optional.empty();
        }
        String m = counts(measured);
        List<Integer> fit = measured.stream().filter(n -> n <= clusterGpus).toList();
        List<Integer> beyond = measured.stream().filter(n -> n > clusterGpus).toList();
        String how = (fit.isEmpty() ? "" : "--ranks " + counts(fit) + " tunes for " + (beyond.isEmpty() ? "those"
                : counts(fit) + " ranks")) + (fit.isEmpty() || beyond.isEmpty() ? "" : "; ") + (beyond.isEmpty() ? ""
                : "the cluster has " + clusterGpus + " GPUs, fewer than " + counts(beyond) + ": a -c cluster of the"
                + " measured hosts tunes for " + (fit.isEmpty() ? "those" : counts(beyond) + " ranks"));
        return Optional.of("note: advice for " + counts(advised) + " ranks; the -m files measured " + m + " ranks: their"
                + " points are used for the fit, and shown as measured evidence only at " + m + " ranks (" + how + ")");
    }

    /**
     * The -m files' fit is refused for advice on another number of hosts: a fit of runs across hosts is of their
     * network (its step, hop latency and line-rate share), which a one-host cluster never uses, and a one-host fit
     * says nothing of the network; NCCL itself chooses per shape (its tuner plugin is told nNodes and nRanks, and NCCL's
     * example plugin keys its lines on both). So tune advises only for host counts some file measured (a file that
     * states no host count is not counted).
     *
     * @param data     the -m datasets
     * @param rankSets the rank sets advised for
     * @param cluster  the cluster advised for, in words
     * @return the refusal naming both shapes and what is allowed, empty when every advised host count was measured
     *         (always without -m)
     */
    static Optional<String> hostsRefusal(List<Dataset> data, List<List<Gpu>> rankSets, String cluster) {
        Set<Integer> measured = new TreeSet<>();
        data.stream().filter(d -> d.nHosts() > 0).forEach(d -> measured.add(d.nHosts()));
        if (measured.isEmpty()) {
            return Optional.empty();
        }
        for (List<Gpu> r : rankSets) {
            int hosts = (int) r.stream().mapToInt(Gpu::host).distinct().count();
            if (!measured.contains(hosts)) {
                String runs = data.stream().filter(d -> d.nHosts() > 0).map(d -> d.nRanks() + " ranks on " + d.nHosts()
                        + " host" + (d.nHosts() > 1 ? "s" : "")).distinct().collect(Collectors.joining(", "));
                int want = measured.iterator().next();
                return Optional.of("tune -m: the files measured " + runs + "; the advice would be for " + r.size()
                        + " ranks on " + hosts + " host" + (hosts > 1 ? "s" : "") + " of " + cluster + ": a fit of runs"
                        + " on " + counts(List.copyOf(measured)) + " host(s) does not hold on " + hosts + " (across hosts"
                        + " it is a fit of the network; NCCL tunes each shape apart); allowed: a cluster of the measured"
                        + " hosts (a catalog type as -c NAME:" + want + "), --ranks that span " + want + " host(s), or"
                        + " -m files measured on " + hosts + " host" + (hosts > 1 ? "s" : ""));
            }
        }
        return Optional.empty();
    }

    private static String counts(List<Integer> n) {
        return String.join(",", n.stream().map(String::valueOf).toList());
    }

    private List<Collective> collectives() {
        if (collectives == null || collectives.isEmpty()) {
            return Tuner.TUNABLE;
        }
        List<Collective> out = new ArrayList<>();
        for (String s : collectives) {
            Collective c = UserError.usage(() -> Collective.parse(s));
            if (!Tuner.TUNABLE.contains(c)) {
                throw new UserError(s + ": NCCL's example tuner plugin cannot name " + c.ncclName() + "; allowed: "
                        + "allreduce, allgather, reducescatter, broadcast, reduce", ExitCodes.USAGE);
            }
            if (!out.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }

    private static PreparedCommunicator prepare(NcclPredictor p, Topology t, List<Gpu> r,
            NcclSettings s) {
        return model(() -> p.prepare(t, r, s));
    }

    private static <T> T model(Supplier<T> f) {
        try {
            return f.get();
        } catch (InvalidRequestException e) {
            throw new UserError(e.getMessage(), ExitCodes.USAGE);
        }
    }
}
