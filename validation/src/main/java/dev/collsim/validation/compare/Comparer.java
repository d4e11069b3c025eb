package dev.collsim.validation.compare;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.simulator.HostLaunch;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PreparedCall;
import dev.collsim.simulator.PreparedCommunicator;
import dev.collsim.simulator.bound.PhysicalBound;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.validation.diagnose.Diagnoser;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.DatasetKind;
import dev.collsim.validation.ingest.NcclLog;
import dev.collsim.validation.ingest.Note;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Compares datasets with collsim's predictions. Every point is timed through the simulator's facade: one
 * {@link PreparedCommunicator} per dataset (channel plan, NCCL's cost table and choices) and one {@link PreparedCall}
 * per size, so a compared point has exactly the time {@code collsim predict} prints for it. Every point carries a
 * band: a shipped profile's band (from its leave-one-out residuals) or a calibration's 95 % band when one is given,
 * else the uncalibrated model's typical error ({@link PredictionBand#UNCALIBRATED}). Each dataset is modelled with the
 * NCCL release its file states, or the one the user gave ({@link HeaderNcclVersion}), and without the net plugin's
 * latency under NCCL before 2.12. Stateless apart from its settings and the predictors' caches; thread-safe.
 */
public final class Comparer {

    private final Optional<NcclVersion> given;
    private final Map<NcclVersion, NcclPredictor> predictors = new EnumMap<>(NcclVersion.class);
    private final PerformanceParameters params;
    private final ToDoubleFunction<PreparedCall> bandSigmaUs;
    private final PredictionBand band;
    private final String bandSource;

    /**
     * @param given       NCCL release to model every dataset with (the user's {@code --nccl-version}), or empty for
     *                    each dataset's own ({@link HeaderNcclVersion})
     * @param params      performance parameters (defaults or a calibration)
     * @param bandSigmaUs standard deviation of the predicted time of a point, microseconds; null for no band
     */
    public Comparer(Optional<NcclVersion> given, PerformanceParameters params,
            ToDoubleFunction<PreparedCall> bandSigmaUs) {
        this(given, params, bandSigmaUs, null, "");
    }

    private Comparer(Optional<NcclVersion> given, PerformanceParameters params,
            ToDoubleFunction<PreparedCall> bandSigmaUs, PredictionBand band, String bandSource) {
        this.given = given;
        for (NcclVersion v : NcclVersion.values()) {
            predictors.put(v, new NcclPredictor(v, params));
        }
        this.params = params;
        this.bandSigmaUs = bandSigmaUs;
        this.band = band;
        this.bandSource = bandSource;
    }

    /**
     * @param given   NCCL release to model every dataset with, or empty for each dataset's own
     * @param params  performance parameters of a shipped profile
     * @param band    the band of these parameters (relative half-widths per size regime, from the fit's or bare residuals)
     * @param source  where the band comes from, in words, for the comparison's text
     * @return a comparer whose points carry that band
     */
    public static Comparer withBand(Optional<NcclVersion> given, PerformanceParameters params, PredictionBand band,
            String source) {
        return new Comparer(given, params, null, band, source);
    }

    /**
     * @param d a dataset
     * @return the NCCL release its points are modelled with: the given one, else its file's ({@link HeaderNcclVersion})
     */
    public NcclVersion modelled(Dataset d) {
        return HeaderNcclVersion.modelled(d, given);
    }

    /**
     * @param d       the dataset
     * @param cluster the cluster to use, or empty to build it from the dataset
     * @return the comparison (never null; not comparable with a reason when it cannot be made)
     */
    public DatasetComparison compare(Dataset d, Optional<ClusterGuess> cluster) {
        if (d.kind() == DatasetKind.SUMMARY || d.kind() == DatasetKind.FOOTER_ONLY) {
            return DatasetComparison.notComparable(d, "no per-size times (" + d.kind() + ")");
        }
        Optional<ClusterGuess> c = cluster.isPresent() ? cluster : ClusterGuesser.guess(d);
        if (c.isEmpty()) {
            return DatasetComparison.notComparable(d, ClusterGuesser.why(d));
        }
        List<PerfPoint> pts = usable(d);
        if (pts.isEmpty()) {
            return DatasetComparison.notComparable(d, "no point with size > 0 and a time");
        }
        NcclSettings env;
        Map<String, String> settings = new LinkedHashMap<>(d.env());
        List<String> settingNotes = RunSettings.modelSettings(d, c.get(), cluster.isEmpty(), settings);
        try {
            env = NcclSettings.modelled(settings);
        } catch (IllegalArgumentException e) {
            return DatasetComparison.notComparable(d, "the file's NCCL settings contradict each other: "
                    + e.getMessage());
        }
        ClusterGuess used;
        List<PreparedCall> pm;
        try {
            List<String> assumptions = new ArrayList<>(c.get().assumptions());
            assumptions.add(settingNotes.get(0));
            DatasetLaunch.assumption(d).ifPresent(assumptions::add);
            cluster.flatMap(g -> otherGpu(d, g)).ifPresent(assumptions::add);
            cluster.flatMap(g -> HeaderNetworkClass.otherThanGiven(d, g, HeaderNetworkClass.ERRORS))
                    .ifPresent(assumptions::add);
            d.notes().stream().map(Note::text).filter(t -> t.startsWith(Note.NAMES_NO_COLLECTIVE)
                    || t.startsWith(Note.CLAIM_CONTRADICTED) || t.startsWith(Note.CPU_TIME))
                    .forEach(assumptions::add);
            settingNotes.subList(1, settingNotes.size()).forEach(assumptions::add);
            assumptions.add(HeaderNcclVersion.line(d, given));
            HeaderNcclVersion.pluginLatencyLine(d, given, c.get().topology()).ifPresent(assumptions::add);
            assumptions.removeIf(String::isEmpty);
            d.env().keySet().stream().filter(k -> k.startsWith("NCCL_") && !env.asMap().containsKey(k)
                    && settings.containsKey(k)).sorted()
                    .forEach(k -> RunSettings.ignored(k, cluster.isEmpty()).ifPresent(assumptions::add));
            used = new ClusterGuess(c.get().topology(), c.get().ranks(), c.get().source(), assumptions);
            pm = model(d, used, env, pts);
        } catch (InvalidRequestException e) {
            return DatasetComparison.notComparable(d, "prediction failed: " + e.getMessage());
        }
        return build(d, used, pts, pm);
    }

    /**
     * @param d the dataset
     * @param c the cluster the user gave
     * @return a line when the file's ranks name a GPU model other than the cluster's (an H100 log compared on
     *         {@code -c dgx-a100x4}): the errors are then of that cluster, not of the GPUs measured; also when the
     *         cluster's GPUs have no model (a machine file read without {@code --gpu-model}: an sm assumed)
     */
    static Optional<String> otherGpu(Dataset d, ClusterGuess c) {
        return otherGpu(d, c, "the errors below are of that cluster, not of the GPUs measured");
    }

    /**
     * The one rule of every command given a cluster with {@code -c} for a measured file (compare, calibrate, tune,
     * diagnose): a file of another GPU model than the cluster's is not refused; the cluster is assumed, and this line
     * says so.
     *
     * @param d           the dataset
     * @param c           the dataset's ranks on the cluster the user gave
     * @param consequence what the command's figures then are, after the colon
     * @return the line, empty when the GPU models agree or either is unknown to the hardware database
     */
    public static Optional<String> otherGpu(Dataset d, ClusterGuess c, String consequence) {
        Optional<GpuModel> measured = GpuModels.find(d.gpuModel());
        String sku = c.ranks().isEmpty() ? null : c.ranks().get(0).model();
        Optional<GpuModel> given = GpuModels.find(sku);
        if (measured.isPresent() && given.isEmpty() && !c.ranks().isEmpty()) {
            return Optional.of("the given cluster's GPUs have no model (sm " + c.ranks().get(0).sm() + " assumed),"
                    + " although the file's ranks ran on " + d.gpuModel() + " (" + measured.get().name() + ", sm "
                    + measured.get().sm() + "): add --gpu-model '" + measured.get().name() + "' to model them");
        }
        if (measured.isEmpty() || given.isEmpty() || measured.get().name().equals(given.get().name())) {
            return Optional.empty();
        }
        return Optional.of("the given cluster's GPUs (" + sku + "), although the file's ranks ran on " + d.gpuModel()
                + " (" + measured.get().name() + "): " + consequence);
    }

    /**
     * The simulator's prepared calls of a dataset's points on a cluster (for comparison and calibration).
     *
     * @param d   the dataset (collective, data type; float when unknown)
     * @param c   the cluster and ranks
     * @param env NCCL settings the model applies
     * @param pts the points, in order
     * @return one prepared call per point, all on one communicator, each timed as one iteration of the file's
     *         benchmark ({@link DatasetLaunch})
     * @throws InvalidRequestException on an invalid setting or when NCCL would have no algorithm
     */
    public List<PreparedCall> model(Dataset d, ClusterGuess c, NcclSettings env, List<PerfPoint> pts) {
        DataType type = d.dataType() == null ? DataType.FLOAT : d.dataType();
        PreparedCommunicator comm = predictors.get(modelled(d)).prepare(c.topology(), c.ranks(), env,
                HeaderNcclVersion.runMinor(d, given));
        HostLaunch launch = DatasetLaunch.of(d);
        List<PreparedCall> calls = new ArrayList<>();
        for (PerfPoint p : pts) {
            calls.add(comm.call(d.collective(), p.sizeBytes(), type, RedOp.SUM).drivenBy(launch));
        }
        return List.copyOf(calls);
    }

    /**
     * @param d a dataset
     * @return what {@link #usable} leaves out at size 0 and why ({@code 2 rows of size 0 (...)}), empty when none
     */
    public static Optional<String> zeroRows(Dataset d) {
        long empty = d.points().stream().filter(p -> p.sizeBytes() == 0).count();
        if (empty == 0) {
            return Optional.empty();
        }
        boolean p2p = switch (d.collective()) {
            case ALL_TO_ALL, SEND_RECV, GATHER, SCATTER -> true;
            default -> false;
        };
        return Optional.of(empty + (empty == 1 ? " row" : " rows") + " of size 0 (" + (p2p
                ? "0-byte sends and receives are not modelled"
                : "NCCL discards an empty collective, src/enqueue.cc; nccl-tests then times only its own timer") + ")");
    }

    /** @return the points that can be compared: size > 0 and a measured time > 0 */
    public static List<PerfPoint> usable(Dataset d) {
        return d.points().stream().filter(p -> p.sizeBytes() > 0 && p.primary().hasTime() && p.primary().timeUs() > 0)
                .toList();
    }

    /**
     * The usable points ({@link #usable}) that no error figure counts: the one-off hiccups diagnose finds
     * ({@link Diagnoser#hiccups}: a time more than 1.6x both neighbours, or the two halves of one size more than 2x
     * apart). The rule reads the measured times alone, never a prediction, so leaving these points out cannot favour
     * the model; compare's statistics, the accuracy table and calibrate's fits leave out exactly these.
     *
     * @param d a dataset
     * @return those points, by size; empty when none
     */
    public static List<PerfPoint> leftOut(Dataset d) {
        List<PerfPoint> hiccups = Diagnoser.hiccupPoints(d);
        return usable(d).stream().filter(hiccups::contains).sorted(Comparator.comparingLong(PerfPoint::sizeBytes))
                .toList();
    }

    /** @return {@link #leftOut}'s points as a set (points, not lines: all of nccl-tests' JSON is one line) */
    public static Set<PerfPoint> leftOutPoints(Dataset d) {
        return Set.copyOf(leftOut(d));
    }

    /**
     * @param sizes sizes of the points left out ({@link #leftOut}), bytes
     * @return how many and which, as compare and accuracy print it ({@code 1 hiccup left out (16384 B)}); empty when
     *         none
     */
    public static String leftOutText(List<Long> sizes) {
        return sizes.isEmpty() ? "" : sizes.size() + (sizes.size() == 1 ? " hiccup" : " hiccups") + " left out ("
                + sizes.stream().map(b -> b + " B").collect(Collectors.joining(", ")) + ")";
    }

    private DatasetComparison build(Dataset d, ClusterGuess c, List<PerfPoint> pts, List<PreparedCall> pm) {
        List<PointComparison> out = new ArrayList<>();
        Map<Regime, List<Double>> byRegime = new EnumMap<>(Regime.class);
        List<Double> all = new ArrayList<>();
        List<Double> big = new ArrayList<>();
        List<Double> small = new ArrayList<>();
        Set<PerfPoint> leftOut = leftOutPoints(d);
        Set<Integer> leftOutIndices = new HashSet<>();
        int checked = 0;
        int matched = 0;
        for (int i = 0; i < pts.size(); i++) {
            PerfPoint p = pts.get(i);
            double measured = p.primary().timeUs();
            PreparedCall call = pm.get(i);
            double predicted = call.timeUs(params);
            double sigma = bandSigmaUs == null ? 0 : bandSigmaUs.applyAsDouble(call);
            PredictionBand rel = band == null ? PredictionBand.UNCALIBRATED : band;
            double low = bandSigmaUs == null ? rel.low(predicted, p.sizeBytes())
                    : Math.max(0, predicted - 2 * sigma);
            double high = bandSigmaUs == null ? rel.high(predicted, p.sizeBytes())
                    : predicted + 2 * sigma;
            double signed = (predicted - measured) / measured * 100;
            double ape = Math.abs(signed);
            String algo = call.algorithm() == null ? "p2p" : call.algorithm().ncclName();
            Optional<NcclLog.AlgoChoice> logged = loggedChoice(d, p.sizeBytes());
            PointComparison pc = new PointComparison(p.sizeBytes(), measured, predicted,
                    low, high, ape, signed,
                    BusBandwidth.busBw(d.collective(), d.nRanks(), p.sizeBytes(), measured),
                    BusBandwidth.busBw(d.collective(), d.nRanks(), p.sizeBytes(), predicted), Regime.of(p.sizeBytes()), algo,
                    call.protocol().ncclName(), logged.map(NcclLog.AlgoChoice::algorithm).orElse(""),
                    logged.map(NcclLog.AlgoChoice::protocol).orElse(""), p.line());
            if (logged.isPresent()) {
                checked++;
                matched += pc.choiceMismatch() ? 0 : 1;
            }
            out.add(pc);
            if (leftOut.contains(p)) {
                leftOutIndices.add(out.size() - 1);
                continue;
            }
            all.add(ape);
            byRegime.computeIfAbsent(pc.regime(), r -> new ArrayList<>()).add(ape);
            (p.sizeBytes() >= Regime.ONE_MIB ? big : small).add(ape);
        }
        Map<Regime, ErrorStats> stats = new EnumMap<>(Regime.class);
        byRegime.forEach((r, l) -> stats.put(r, ErrorStats.of(l)));
        Optional<String> net = pm.get(0).communicator().networkNote(params);
        ClusterGuess cluster = net.isEmpty() ? c : new ClusterGuess(c.topology(), c.ranks(), c.source(),
                Stream.concat(c.assumptions().stream(), net.stream()).toList());
        return new DatasetComparison(d, cluster, "", out, leftOutIndices, ErrorStats.of(all), stats, ErrorStats.of(big),
                ErrorStats.of(small), pm.get(0).communicator().physicalBoundBusBw(d.collective()),
                PhysicalBound.algorithmsNote(d.collective(), pm.get(0).communicator().settings().algo()).orElse(""),
                checked, matched,
                bandSigmaUs != null ? "the calibration's 95 % band" : band != null ? band.describeAs(bandSource)
                : PredictionBand.UNCALIBRATED.describe());
    }

    /**
     * NCCL's logged choice at a size (NCCL_DEBUG_SUBSYS=TUNING): the first line of the dataset's collective (or of no
     * named function, as older NCCL prints) with exactly these bytes.
     */
    private static Optional<NcclLog.AlgoChoice> loggedChoice(Dataset d, long bytes) {
        return d.log().choices().stream().filter(a -> a.bytes() == bytes && (a.function().isEmpty()
                || a.function().equalsIgnoreCase(d.collective().ncclName()))).findFirst();
    }
}
