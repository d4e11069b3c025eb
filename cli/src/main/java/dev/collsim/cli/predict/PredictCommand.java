package dev.collsim.cli.predict;

import dev.collsim.cli.CalibrationOption;
import dev.collsim.cli.ClusterOption;
import dev.collsim.cli.EnvOption;
import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.TypedOption;
import dev.collsim.cli.UserError;
import dev.collsim.cli.flow.FlowOptions;
import dev.collsim.io.InputException;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.SizeSweep;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.nccl.env.NcclVariable;
import dev.collsim.simulator.Hierarchy;
import dev.collsim.simulator.HostLaunch;
import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.PreparedCommunicator;
import dev.collsim.simulator.bound.PhysicalBound;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.calibration.ProfileClass;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.MissingNvlinks;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code collsim predict}: predicts a collective over an nccl-tests size sweep, printing for every size the
 * algorithm, protocol and channels NCCL would use, NCCL's own time estimate, collsim's predicted time with algbw
 * and busbw (nccl-tests definitions), and the physical bound. User errors (bad sizes, unknown NCCL variable,
 * nothing eligible) exit with code 2 and one line naming the problem.
 */
@Command(name = "predict", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Predict a collective over a size sweep the way NCCL would run it.",
            "Prints an nccl-tests-shaped table: size, count, type, redop, root, time, algbw, busbw (collsim's"
                + " prediction), then NCCL's algorithm, protocol and channels, NCCL's own estimate (nccl_est, us; -1"
                + " where NCCL has none) and the best busbw the hardware allows (bound).",
            "A pasted nccl-tests line works, with its mpirun, srun or torchrun prefix too: ranks = --nprocs x -t x"
                + " -g (one process, as without mpirun; without any of them every GPU of the cluster), -c N is the"
                + " data check, -n x -m the timed calls (the first call's launch skew under -g G is spread over them),"
                + " other timing flags are named and ignored."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:internal error", "2:usage error (bad option, NCCL variable or sweep)",
            "3:invalid input file (-c, --perf-params)"})
public final class PredictCommand implements Callable<Integer> {

    /** Output formats. */
    public enum Format {
        /** nccl-tests-shaped table. */ text,
        /** Comma separated values with a header line. */ csv,
        /** One JSON document. */ json
    }

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "COLLECTIVE", description = "all_reduce, all_gather, reduce_scatter,"
            + " broadcast, reduce, alltoall, sendrecv, gather, scatter (NCCL or nccl-tests spelling, e.g. allreduce,"
            + " AllReduce, all_reduce_perf)")
    private String collective;

    @Mixin
    private ClusterOption cluster;

    @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", defaultValue = SizeSweep.DEFAULT_MIN,
            description = "first size in bytes; K, M, G = 2^10, 2^20, 2^30 (default: ${DEFAULT-VALUE})")
    private String minBytes;

    @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", defaultValue = SizeSweep.DEFAULT_MAX,
            description = "last size in bytes (default: ${DEFAULT-VALUE})")
    private String maxBytes;

    @Option(names = {"-f", "--stepfactor"}, paramLabel = "FACTOR", defaultValue = SizeSweep.DEFAULT_FACTOR,
            description = "multiply the size by FACTOR each step; 1 = use -i (default: ${DEFAULT-VALUE})")
    private int stepFactor;

    @Option(names = {"-i", "--stepbytes"}, paramLabel = "SIZE", defaultValue = SizeSweep.DEFAULT_STEP,
            description = "add SIZE each step when -f is 1 (default: ${DEFAULT-VALUE})")
    private String stepBytes;

    @Option(names = {"-d", "--datatype"}, paramLabel = "TYPE", defaultValue = "float",
            description = "element type: int8, uint8, int32, uint32, int64, uint64, half, float, double,"
                    + " bfloat16, f8e4m3, f8e5m2, or all: one sweep per type, as nccl-tests (default: ${DEFAULT-VALUE})")
    private String dataType;

    @Option(names = {"-o", "--op"}, paramLabel = "OP", defaultValue = "sum",
            description = "reduction: sum, prod, max, min, avg, or all: one sweep per op (reductions only)"
                    + " (default: ${DEFAULT-VALUE})")
    private String op;

    @Option(names = {"-r", "--root"}, paramLabel = "ROOT", defaultValue = "0",
            description = "root rank of rooted collectives, or all: one sweep per root, as nccl-tests; the prediction"
                    + " is the same for every root (default: ${DEFAULT-VALUE})")
    private String root;

    @Mixin
    private NcclTestsRanks rankOptions = new NcclTestsRanks();

    @Option(names = "--nccl-version", paramLabel = "V", defaultValue = "2.30",
            description = "NCCL release whose model to use, 2.8 to 2.11 or 2.18 to 2.30 as 2.M or 2.M.P: 2.28"
                    + " (2.28.9) and 2.30 (2.30.7) are modelled in full, 2.29 takes 2.28.9, a release of 2.18-2.27"
                    + " 2.28.9's tables under its range's tuning rules, of 2.8-2.11 its own tuning tables and rules"
                    + " (default: ${DEFAULT-VALUE})")
    private String ncclVersion;

    @Option(names = "--env", paramLabel = "NCCL_X=V", mapFallbackValue = EnvOption.NO_VALUE,
            description = "an NCCL variable as you would export it; repeatable. Known: NCCL_ALGO, NCCL_PROTO,"
                    + " NCCL_MIN/MAX_NCHANNELS, NCCL_MIN/MAX_CTAS, NCCL_NTHREADS, NCCL_LL128_NTHREADS,"
                    + " NCCL_BUFFSIZE, NCCL_LL_BUFFSIZE, NCCL_LL128_BUFFSIZE, NCCL_NVLS_ENABLE, NCCL_NVLS_NCHANNELS,"
                    + " NCCL_NVLS_CHUNKSIZE, NCCL_NVLSTREE_MAX_CHUNKSIZE,"
                    + " NCCL_P2P_LEVEL, NCCL_P2P_DISABLE, NCCL_P2P_READ_ENABLE, NCCL_NET_GDR_LEVEL, NCCL_CROSS_NIC, NCCL_PXN_DISABLE,"
                    + " NCCL_PAT_ENABLE, NCCL_COLLNET_ENABLE, NCCL_COLLNET_NODE_THRESHOLD, NCCL_NET_OVERHEAD,"
                    + " NCCL_LL128_C2C, NCCL_NVB_DISABLE, NCCL_MIN/MAX_P2P_NCHANNELS, NCCL_SOCKET_NTHREADS,"
                    + " NCCL_NSOCKS_PERTHREAD, NCCL_WORK_FIFO_BYTES, NCCL_DEBUG(_SUBSYS)."
                    + " The caller's own environment is never read.")
    private Map<String, String> env = new LinkedHashMap<>();

    @Option(names = "--algo", paramLabel = "LIST", description = "NCCL_ALGO value ([func:]list;func:list, ^ to"
            + " exclude, e.g. Ring, ^NVLS, allreduce:tree), or a hierarchical composition: "
            + "hier:rs-ar-ag (intra-node ReduceScatter + inter-node AllReduce + intra-node AllGather)")
    private String algo;

    @Option(names = "--proto", paramLabel = "LIST", description = "NCCL_PROTO value, e.g. Simple, ^LL128, LL,LL128")
    private String proto;

    @Option(names = "--all-algorithms", description = "also list every eligible (algorithm, protocol) with NCCL's"
            + " and collsim's time; * marks NCCL's choice")
    private boolean allAlgorithms;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}); csv and json name"
                    + " their units as the text table does: time_us and nccl_estimate_us in us, alg_bw, bus_bw and"
                    + " physical_bound_bus_bw in GB/s (1e9 B/s, nccl-tests' -J names)")
    private Format format;

    /** Backends: NCCL's model with collsim's corrections, or the schedule timed on the fabric (flow helper). */
    public enum Backend {
        /** collsim's analytical prediction (NCCL model, channels, pipeline). */ analytical,
        /** Contention-aware flow simulation of the schedule on the fabric. */ flow,
        /** The same schedule and routes, each transfer alone on the fabric (no contention). */ links
    }

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "analytical", description = "how to time:"
            + " ${COMPLETION-CANDIDATES}; flow simulates the schedule on the fabric with max-min fair link sharing"
            + " (see the README section on the flow backend) (default: ${DEFAULT-VALUE})")
    private Backend backend;

    @CommandLine.Mixin
    private FlowOptions flowOptions = new FlowOptions();

    @CommandLine.Mixin
    private NcclTestsTimingFlags ncclTestsFlags = new NcclTestsTimingFlags();

    private List<String> ncclTestsNote = List.of();

    @Option(names = {"--perf-params", "--calibration"}, paramLabel = "FILE", description = "performance"
            + " parameters: JSON or YAML with the field names of PerformanceParameters, or a 'collsim calibrate'"
            + " profile, or none for the bare model (the documented defaults); --params is the former name, kept"
            + " (plan's --params is the model size); auto (default): the shipped profile of the cluster's class"
            + " (configs/calibration/auto), else the defaults")
    private Path params;

    /** True when the last performance-parameters option given was {@code --params}, for messages naming it. */
    private boolean formerName;

    /**
     * {@code --params FILE}, the former name of {@code --perf-params}, still read; hidden, so the synopsis and the
     * option list name {@code --perf-params} as the README does (picocli's synopsis shows an option's shortest name).
     *
     * @param file as {@code --perf-params}
     */
    @Option(names = "--params", paramLabel = "FILE", hidden = true)
    private void formerParams(Path file) {
        params = file;
        formerName = true;
    }

    /** What {@link #parameters} chose, for the header. */
    private String paramsLine = "defaults (PerformanceParameters.DEFAULTS)";

    /** The profile or file {@link #parameters} applied, null for the bare model (the flow header names it). */
    private String paramsSource;

    @Override
    public Integer call() throws IOException, InputException {
        ncclTestsFlags.refuseUnmodelled();
        int timedCalls = ncclTestsFlags.timedCalls();
        boolean checkFlag = cluster.dropNcclTestsCheck();
        checkBackendOptions();
        Collective c = UserError.usage(() -> Collective.parse(collective));
        PredictGroups groups = PredictGroups.parse(c, dataType, op, root);
        SizeSweep sweep = UserError.usage(() -> SizeSweep.parse(minBytes, maxBytes, stepBytes, stepFactor,
                TypedOption.sweepFlags(spec)));
        NcclSettings nccl = ncclSettings();
        nccl.passedOverWarning().ifPresent(w -> spec.commandLine().getErr().println("collsim: warning: " + w));
        ShellNcclEnv.note(System.getenv(), nccl.asMap()).ifPresent(spec.commandLine().getErr()::println);
        Hierarchy hier = algo != null && Hierarchy.isHierarchical(algo) ? UserError.usage(() -> Hierarchy.parse(algo))
                : null;
        Topology topo = backend == Backend.analytical ? flowOptions.fabricTopology(cluster.source(), cluster.load())
                : cluster.load();
        List<Gpu> rankList = rankOptions.place(topo);
        groups.checkRoot(rankList.size());
        boolean launchModelled = hier == null && backend == Backend.analytical;
        List<String> notes = new ArrayList<>(ncclTestsFlags.note(checkFlag, launchModelled));
        Map<DataType, List<Long>> sizes = new LinkedHashMap<>();
        for (PredictGroups.Group g : groups.groups(rankList.size())) {
            sizes.computeIfAbsent(g.type(), t -> backend == Backend.analytical ? EmptyCollective.noted(c, t,
                    sweep.sizes(), rankList.size(), notes) : EmptyCollective.runnable(c, t, sweep.sizes(), rankList.size(), notes));
        }
        HostLaunch launch = rankOptions.launch(ncclTestsFlags.cudaGraph(), timedCalls)
                .withBlocking(ncclTestsFlags.blocking());
        notes.addAll(ncclTestsFlags.launchNotes(launch, launchModelled));
        ncclTestsNote = notes;
        NcclPredictor predictor = new NcclPredictor(UserError.usage(() -> NcclVersion.parse(ncclVersion)), parameters(topo, rankList));
        if (backend != Backend.analytical) {
            return new PredictFlowRun(flowOptions, backend, cluster, rankOptions, ncclTestsNote, format,
                    spec.commandLine().getOut(), paramsSource).run(c, groups, sizes, topo, rankList, nccl, predictor);
        }
        List<PredictRow> rows = new ArrayList<>();
        for (PredictGroups.Group g : groups.groups(rankList.size())) {
            for (long s : sizes.get(g.type())) {
                if (EmptyCollective.empty(c, g.type(), s, rankList.size())) {
                    rows.add(g.row(EmptyCollective.prediction(c, s, rankList.size(),
                            predictor.parameters().launchOverheadUs()), rankList.size(), List.of(), Double.NaN));
                    continue;
                }
                PredictionRequest r = new PredictionRequest(topo, rankList, c, s, g.type(), g.op(), nccl);
                Prediction p = model(() -> hier != null ? predictor.predictHierarchical(r, hier)
                        : predictor.prepare(r).call(r).drivenBy(launch).predict(predictor.parameters()));
                rows.add(g.row(p, rankList.size(), allAlgorithms && hier == null ? model(() -> predictor.prepare(r)
                        .call(r).drivenBy(launch).candidates(predictor.parameters())) : List.of(), Double.NaN));
            }
        }
        PreparedCommunicator comm = model(() -> predictor.prepare(topo, rankList, nccl));
        List<String> header = header(c, topo, rankList, nccl, predictor, comm, sweep, groups, rows);
        cluster.systemLine().ifPresent(line -> header.add(3, line));
        PrintWriter out = spec.commandLine().getOut();
        PredictWriter w = new PredictWriter(out);
        switch (format) {
            case csv -> w.csv(rows, allAlgorithms);
            case json -> w.json(header, nccl, rows, allAlgorithms);
            default -> w.text(header, rows, allAlgorithms, PhysicalBound.algorithmsNote(c, nccl.algo()));
        }
        out.flush();
        return ExitCodes.OK;
    }

    /**
     * Runs the simulator: a request it refuses ({@link InvalidRequestException}: a bad NCCL setting, nothing
     * eligible) stays a usage error; any other IllegalArgumentException from inside the model is a bug (exit 1).
     */
    private static <T> T model(Supplier<T> work) {
        try {
            return work.get();
        } catch (InvalidRequestException e) {
            throw new UserError(e.getMessage(), ExitCodes.USAGE);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("simulator error (a bug in collsim, not in the input): " + e.getMessage(),
                    e);
        }
    }

    /**
     * The flow options ({@link FlowOptions}) but the fabric's shape ({@link FlowOptions#reshapesFabric}, which every
     * backend uses) only mean something to the flow and links backends; ignored silently otherwise, so refused.
     *
     * @throws UserError (usage) naming the first such option and the backend it needs
     */
    private void checkBackendOptions() {
        try {
            flowOptions.checkValues();
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage(), ExitCodes.USAGE);
        }
        CommandLine.ParseResult pr = spec.commandLine().getParseResult();
        for (CommandLine.Model.OptionSpec opt : spec.mixins().get("flowOptions").options()) {
            if (!pr.hasMatchedOption(opt)) {
                continue;
            }
            boolean flowOnly = opt.longestName().equals("--job") || opt.longestName().equals("--completion-window")
                    || opt.longestName().equals("--step-samples");
            if (backend == Backend.analytical && !FlowOptions.reshapesFabric(opt.longestName())
                    || flowOnly && backend != Backend.flow) {
                throw new UserError(opt.longestName() + " needs --backend flow" + (flowOnly ? "" : " or --backend links")
                        + "; the " + backend + " backend does not use it", ExitCodes.USAGE);
            }
        }
    }

    /** @return "; not modelled, left out: A, B" for the --env names {@link NcclSettings#parse} passed over, or "" */
    private String leftOut(NcclSettings nccl) {
        List<String> names = (env == null ? Map.<String, String>of() : env).keySet().stream()
                .filter(k -> !nccl.asMap().containsKey(k)).sorted().toList();
        return names.isEmpty() ? "" : "; not modelled, left out: " + String.join(", ", names);
    }

    /** @return the --env, --algo and --proto settings, parsed once; every request of the command carries them */
    private NcclSettings ncclSettings() {
        Map<String, String> m = new HashMap<>(EnvOption.requireValues(env));
        if (algo != null && !Hierarchy.isHierarchical(algo)) {
            if (m.containsKey("NCCL_ALGO")) {
                throw new UserError("--algo and --env NCCL_ALGO both given; use one", ExitCodes.USAGE);
            }
            m.put("NCCL_ALGO", algo);
        }
        if (proto != null) {
            if (m.containsKey("NCCL_PROTO")) {
                throw new UserError("--proto and --env NCCL_PROTO both given; use one", ExitCodes.USAGE);
            }
            m.put("NCCL_PROTO", proto);
        }
        return UserError.usage(() -> NcclSettings.parse(m));
    }

    /** The parameters of {@code --perf-params}; {@code auto} takes the class of the NCCL nodes the ranks span. */
    private PerformanceParameters parameters(Topology topo, List<Gpu> rankList) throws InputException {
        CalibrationOption.Resolved r = CalibrationOption.resolve(params, formerName ? "--params"
                : TypedOption.of(spec, "--perf-params"), topo,
                rankList, spec.commandLine().getErr());
        paramsLine = r.label();
        paramsSource = r.parameters().equals(PerformanceParameters.DEFAULTS) ? null
                : CalibrationOption.auto(params) ? "configs/calibration/auto/" + ProfileClass.ofRanks(topo, rankList).key() + ".yaml"
                : params.toString();
        return r.parameters();
    }

    /**
     * @return one note when NCCL_MAX_NCHANNELS or NCCL_MIN_NCHANNELS is set and a row chose an algorithm whose
     *         channels they do not reach ({@link PreparedCommunicator#nvlsChannelsOnly}), naming it and its channels
     */
    static Optional<String> nchannelsNote(List<PredictRow> rows, NcclSettings nccl, PreparedCommunicator comm) {
        List<String> set = new ArrayList<>();
        for (NcclVariable v : List.of(NcclVariable.NCCL_MIN_NCHANNELS, NcclVariable.NCCL_MAX_NCHANNELS)) {
            if (nccl.isSet(v)) {
                set.add(v.name() + "=" + nccl.asMap().get(v.name()));
            }
        }
        return set.isEmpty() ? Optional.empty() : rows.stream().map(PredictRow::prediction)
                .filter(p -> comm.nvlsChannelsOnly(p.algorithm())).findFirst()
                .map(p -> "note: " + String.join(" and ", set) + " does not apply to " + p.algorithm().ncclName()
                        + ": it runs on the NVLS channels (" + p.nChannels() + "), which only NCCL_NVLS_NCHANNELS,"
                        + " NCCL_MAX_CTAS and NCCL_MIN_CTAS set (NCCL 2.30.7 src/enqueue.cc, src/transport/nvls.cc)");
    }

    private List<String> header(Collective c, Topology topo, List<Gpu> rankList, NcclSettings nccl,
            NcclPredictor predictor, PreparedCommunicator comm, SizeSweep sweep, PredictGroups groups,
            List<PredictRow> rows) {
        List<String> h = new ArrayList<>();
        h.add("collsim predict: " + c.testName() + "_perf, predicted with the NCCL "
                + predictor.version().tables().text() + " model (nothing was run)" + predictor.version().rulesNote());
        h.add(String.format(Locale.ROOT, "nGpus %d minBytes %d maxBytes %d step: %s datatype %s op %s root %s",
                rankList.size(), sweep.minBytes(), sweep.maxBytes(),
                sweep.stepFactor() > 1 ? sweep.stepFactor() + "(factor)" : sweep.stepBytes() + "(bytes)",
                groups.typeText(), groups.opText(), groups.rootText()));
        h.add("Cluster: " + topo.name() + " (" + cluster.sizeText(topo) + "); " + rankList.size() + " ranks on " + comm.nNodes() + " NCCL node(s), "
                + RanksPerNode.text(rankList, comm.nNodes(), comm.maxLocalRanks()));
        h.add(rankOptions.describe(rankList, c.testName(), cluster.ofTrays()));
        MissingNvlinks.warning(topo).ifPresent(w -> h.add("warning: " + w));
        h.addAll(ncclTestsNote);
        h.add("NCCL env: " + (nccl.isDefault() ? "(defaults)" : nccl.asMap().toString())
                + leftOut(nccl)
                + (algo != null && Hierarchy.isHierarchical(algo) ? "; composition " + algo : ""));
        nchannelsNote(rows, nccl, comm).ifPresent(h::add);
        h.add("Channels: " + comm.describeChannels());
        h.add("Hardware: " + comm.describeHardware());
        h.add("Performance parameters: " + paramsLine);
        comm.networkNote(predictor.parameters()).ifPresent(n -> h.add("Network: " + n));
        return h;
    }
}
