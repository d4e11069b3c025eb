package dev.collsim.simulator;

import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.P2pModel;
import dev.collsim.simulator.perf.PerfEstimate;
import dev.collsim.simulator.perf.PerformanceModel;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.perf.PhysicalBound;
import dev.collsim.simulator.tuning.AlgoChoice;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.TuningConstants;
import dev.collsim.simulator.tuning.TuningInput;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The simulator facade: channel search ({@link ChannelSearch}), NCCL's tuning model and choice
 * ({@link NcclTuningModel}), and collsim's prediction of the real time ({@link PerformanceModel},
 * {@link P2pModel}), with the physical bound ({@link PhysicalBound}). Each {@link Prediction} carries both NCCL's
 * own estimate ({@code ncclEstimateUs}, what {@code ncclGroupSimulateEnd} would report; -1 for point-to-point)
 * and collsim's predicted time.
 *
 * <p>The channel plan and cost table of a (topology, ranks, NCCL settings) are computed once and cached (the
 * topology is compared by identity), so a size sweep costs one search plus closed forms per size. For large rank
 * lists, build the requests of a sweep from one immutable list ({@code List.copyOf}) so that each request shares
 * it and the cache lookup compares by identity instead of element by element. This class is
 * thread-safe; predictions are pure functions of the request.
 */
public final class NcclPredictor implements CollectivePredictor {

    private static final int CACHE_LIMIT = 64;

    private final NcclVersion version;
    private final PerformanceParameters params;
    private final Map<Key, Context> cache = new ConcurrentHashMap<>();

    /** A predictor for the newest NCCL release with the default performance parameters. */
    public NcclPredictor() {
        this(NcclVersion.DEFAULT, PerformanceParameters.DEFAULTS);
    }

    /**
     * @param version NCCL release whose constants and speed arrays to use
     * @param params  performance parameters (defaults or a calibration)
     */
    public NcclPredictor(NcclVersion version, PerformanceParameters params) {
        this.version = Objects.requireNonNull(version, "version");
        this.params = Objects.requireNonNull(params, "params");
    }

    /** @return the NCCL release modelled */
    public NcclVersion version() {
        return version;
    }

    /** @return the performance parameters in use */
    public PerformanceParameters parameters() {
        return params;
    }

    private record Key(Topology topology, List<?> ranks, Map<String, String> env) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.topology == topology && (k.ranks == ranks || k.ranks.equals(ranks))
                    && k.env.equals(env);
        }

        @Override
        public int hashCode() {
            // cheap on 100k-rank lists: size and ends only (equal lists agree on them)
            int h = ranks.isEmpty() ? 0 : ranks.get(0).hashCode() * 31 + ranks.get(ranks.size() - 1).hashCode();
            return System.identityHashCode(topology) * 31 + ranks.size() * 17 + h + env.hashCode();
        }
    }

    /** The channel plan and NCCL cost table of one communicator. */
    private record Context(NcclSettings settings, ChannelPlan plan, CostTable table) {
    }

    private Context context(PredictionRequest r) {
        Key k = new Key(r.topology(), r.ranks(), r.ncclEnv());
        Context c = cache.get(k);
        if (c != null) {
            return c;
        }
        NcclSettings s = NcclSettings.parse(r.ncclEnv());
        ChannelPlan plan = ChannelSearch.search(r.topology(), r.ranks(), s, version);
        TuningInput in = new TuningInput(plan.graphs(), plan.nRanks(), plan.nNodes(), plan.minSm(), plan.maxSm(),
                plan.cpu(), plan.nvlsSupport(), s.collnetEnable(), plan.hasNvSwitch(), plan.maxLocalRanks(),
                plan.graphs().tree().pattern(), plan.runtimeChannels(), s, TuningConstants.of(version));
        c = new Context(s, plan, NcclTuningModel.tune(in));
        if (cache.size() >= CACHE_LIMIT) {
            cache.clear();
        }
        cache.put(k, c);
        return c;
    }

    /**
     * The channel plan for a request's communicator.
     *
     * @param r the request (its size and collective are ignored)
     * @return the plan
     * @throws IllegalArgumentException on an invalid NCCL setting
     */
    public ChannelPlan plan(PredictionRequest r) {
        return context(r).plan();
    }

    /**
     * Bytes NCCL selects on and nccl-tests divides by time: element size x count, with count x nRanks for the
     * collectives whose nccl-tests size is the gathered total (nccl-tests 2.19.6 {@code src/*.cu}).
     *
     * @param r the request
     * @return bytes
     */
    public static long effectiveBytes(PredictionRequest r) {
        int elt = r.dataType().size();
        return CollGeometry.ofSize(r.collective(), r.sizeBytes(), elt, r.nRanks()).sizeBytes(elt);
    }

    @Override
    public Prediction predict(PredictionRequest r) {
        Context ctx = context(r);
        ChannelPlan plan = ctx.plan();
        Collective c = r.collective();
        long bytes = effectiveBytes(r);
        double bound = PhysicalBound.busBw(plan, c);
        if (!c.hasNcclTuningModel()) {
            PerfEstimate e = P2pModel.estimate(plan, params, c, bytes, plan.graphs().ring().typeIntra());
            return prediction(r, bytes, null, P2pModel.protocol(plan, c, bytes), e, -1, bound);
        }
        AlgoChoice choice = select(ctx, r, bytes);
        PerfEstimate e = estimate(ctx, c, choice, bytes);
        return prediction(r, bytes, choice.algorithm(), choice.protocol(), e, choice.timeUs(), bound);
    }

    private AlgoChoice select(Context ctx, PredictionRequest r, long bytes) {
        Optional<AlgoChoice> choice = ctx.table().select(r.collective(), bytes, r.dataType(), r.op());
        return choice.orElseThrow(() -> new IllegalArgumentException("No algorithm/protocol available for "
                + r.collective().ncclName() + " on " + r.nRanks() + " ranks with " + ctx.settings()
                + "; NCCL would fail the same way. Allowed algorithms for it: "
                + (r.collective() == Collective.ALL_REDUCE ? "Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree"
                : r.collective() == Collective.BROADCAST || r.collective() == Collective.REDUCE ? "Ring"
                : "Ring, CollNetDirect, NVLS, PAT")));
    }

    private PerfEstimate estimate(Context ctx, Collective c, AlgoChoice choice, long bytes) {
        if (ctx.plan().nRanks() == 1) {
            double t = params.launchOverheadUs() + bytes / (1000.0 * params.localCopyGBps());
            return new PerfEstimate(t, 1, params.launchOverheadUs(), params.localCopyGBps(), "one rank: local copy");
        }
        return PerformanceModel.estimate(ctx.plan(), ctx.settings(), params, ctx.table(), c, choice, bytes);
    }

    private static Prediction prediction(PredictionRequest r, long bytes, dev.collsim.nccl.Algorithm a,
            dev.collsim.nccl.Protocol p, PerfEstimate e, double ncclUs, double bound) {
        double algBw = BusBandwidth.algBw(bytes, e.timeUs());
        double busBw = BusBandwidth.busBw(r.collective(), r.nRanks(), algBw);
        return new Prediction(r.collective(), r.sizeBytes(), r.nRanks(), a, p, e.channels(), e.timeUs(), algBw,
                busBw, ncclUs, bound, e.bottleneck());
    }

    /**
     * Every eligible (algorithm, protocol) for the point, in NCCL's scan order, with NCCL's time and collsim's
     * prediction; empty for point-to-point collectives.
     *
     * @param r the request
     * @return candidates, NCCL's choice marked
     * @throws IllegalArgumentException on an invalid NCCL setting
     */
    public List<Candidate> candidates(PredictionRequest r) {
        Context ctx = context(r);
        if (!r.collective().hasNcclTuningModel()) {
            return List.of();
        }
        long bytes = effectiveBytes(r);
        List<AlgoChoice> all = ctx.table().candidates(r.collective(), bytes, r.dataType(), r.op());
        Optional<AlgoChoice> best = ctx.table().select(r.collective(), bytes, r.dataType(), r.op());
        List<Candidate> out = new ArrayList<>();
        for (AlgoChoice a : all) {
            boolean chosen = best.isPresent() && best.get().algorithm() == a.algorithm()
                    && best.get().protocol() == a.protocol();
            out.add(new Candidate(a.algorithm(), a.protocol(), a.timeUs(), estimate(ctx, r.collective(), a, bytes),
                    chosen));
        }
        return out;
    }

    /**
     * Predicts a hierarchical composition (see {@link Hierarchy}) from the same model: each phase is predicted on
     * its sub-communicator (first node's GPUs; one GPU per node) and the times add up. The inter-node phase's
     * bandwidth is limited to its share of the node's NICs (q rails run at once).
     *
     * @param r the request (an AllReduce on more than one node)
     * @param h the composition
     * @return the prediction; algorithm/protocol are those of the inter-node phase, the bottleneck lists phases
     * @throws IllegalArgumentException for another collective or a single node
     */
    public Prediction predictHierarchical(PredictionRequest r, Hierarchy h) {
        if (r.collective() != Collective.ALL_REDUCE) {
            throw new IllegalArgumentException(h.text() + " composes an AllReduce; got " + r.collective().ncclName());
        }
        ChannelPlan plan = context(r).plan();
        if (plan.nNodes() < 2) {
            throw new IllegalArgumentException(h.text() + " needs ranks on more than one node; got one node");
        }
        Map<Integer, List<dev.collsim.topology.Gpu>> byHost = new java.util.LinkedHashMap<>();
        for (dev.collsim.topology.Gpu g : r.ranks()) {
            byHost.computeIfAbsent(g.host(), k -> new ArrayList<>()).add(g);
        }
        List<dev.collsim.topology.Gpu> intra = byHost.values().iterator().next();
        List<dev.collsim.topology.Gpu> inter = byHost.values().stream().map(l -> l.get(0)).toList();
        int q = intra.size();
        long bytes = effectiveBytes(r);
        Prediction rs = predict(sub(r, intra, Collective.REDUCE_SCATTER, bytes));
        Prediction ag = predict(sub(r, intra, Collective.ALL_GATHER, bytes));
        PredictionRequest interReq = sub(r, inter, Collective.ALL_REDUCE, Math.max(1, bytes / q));
        Prediction ar = predict(interReq);
        int m = inter.size();
        double shareBusBw = plan.nodeNicBw() / q;
        double capAlgBw = shareBusBw * m / (2.0 * (m - 1));
        double arTime = Math.max(ar.timeUs(), interReq.sizeBytes() / (1000.0 * capAlgBw) + params.launchOverheadUs());
        double time = rs.timeUs() + arTime + ag.timeUs();
        double algBw = BusBandwidth.algBw(bytes, time);
        String how = String.format(Locale.ROOT, "%s = ReduceScatter %.1f us (%s/%s) + AllReduce %.1f us (%s/%s, %d"
                + " nodes) + AllGather %.1f us (%s/%s)", h.text(), rs.timeUs(), name(rs), rs.protocol().ncclName(),
                arTime, name(ar), ar.protocol().ncclName(), m, ag.timeUs(), name(ag), ag.protocol().ncclName());
        double ncclUs = rs.ncclEstimateUs() + ar.ncclEstimateUs() + ag.ncclEstimateUs();
        return new Prediction(r.collective(), r.sizeBytes(), r.nRanks(), ar.algorithm(), ar.protocol(),
                ar.nChannels(), time, algBw, BusBandwidth.busBw(r.collective(), r.nRanks(), algBw), ncclUs,
                PhysicalBound.busBw(plan, r.collective()), how);
    }

    private static String name(Prediction p) {
        return p.algorithm() == null ? "p2p" : p.algorithm().ncclName();
    }

    private static PredictionRequest sub(PredictionRequest r, List<dev.collsim.topology.Gpu> ranks, Collective c,
            long bytes) {
        return new PredictionRequest(r.topology(), ranks, c, bytes, r.dataType(), r.op(), r.ncclEnv());
    }
}
