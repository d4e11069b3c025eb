package dev.collsim.simulator;

import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.perf.NetClassDefaults;
import dev.collsim.simulator.perf.NvlsLoop;
import dev.collsim.simulator.perf.P2pModel;
import dev.collsim.simulator.perf.PerformanceModel;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.bound.LeafGroups;
import dev.collsim.simulator.bound.PhysicalBound;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * <p>The channel plan and cost table of a (topology, ranks, NCCL settings) are computed once, as a
 * {@link PreparedCommunicator}, and cached (the topology is compared by identity), so a size sweep costs one search
 * plus closed forms per size; {@link #predict} is {@code prepare(r).call(r).predict(parameters())}, the one
 * prediction pipeline every command uses. For large rank
 * lists, build the requests of a sweep from one immutable list ({@code List.copyOf}) so that each request shares
 * it and the cache lookup compares by identity instead of element by element. This class is
 * thread-safe; predictions are pure functions of the request.
 */
public final class NcclPredictor implements CollectivePredictor {

    private static final int CACHE_LIMIT = 64;

    private final NcclVersion version;
    private final PerformanceParameters params;
    private final Map<Key, PreparedCommunicator> cache = new ConcurrentHashMap<>();

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
    @Override
    public NcclVersion version() {
        return version;
    }

    /** @return the performance parameters in use */
    public PerformanceParameters parameters() {
        return params;
    }

    /**
     * @param t a topology
     * @return the note that its network class runs on another class's figures under these parameters
     *         ({@link NetClassDefaults#borrowedNote}); empty on one host or when the class has its own figures
     */
    public Optional<String> networkNote(Topology t) {
        return t.hostCount() < 2 ? Optional.empty()
                : NetClassDefaults.borrowedNote(t.networkClass(), params.netProfile(t.networkClass()));
    }

    /** @return the note of the request's prepared communicator under these parameters */
    @Override
    public Optional<String> networkNote(PredictionRequest r) {
        return prepare(r).networkNote(params);
    }

    private record Key(Topology topology, List<?> ranks, NcclSettings env, int runMinor) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.topology == topology && (k.ranks == ranks || k.ranks.equals(ranks))
                    && k.env.equals(env) && k.runMinor == runMinor;
        }

        @Override
        public int hashCode() {
            // cheap on 100k-rank lists: size and ends only (equal lists agree on them)
            int h = ranks.isEmpty() ? 0 : ranks.get(0).hashCode() * 31 + ranks.get(ranks.size() - 1).hashCode();
            return System.identityHashCode(topology) * 31 + ranks.size() * 17 + h + env.hashCode();
        }
    }

    /**
     * The prepared communicator of a request: channel plan, NCCL's cost table and choices, computed once per
     * (topology identity, ranks, NCCL settings) and cached.
     *
     * @param r the request (its collective and size are ignored)
     * @return the communicator, to be re-timed for any {@link PerformanceParameters}
     * @throws InvalidRequestException on an invalid NCCL setting
     */
    public PreparedCommunicator prepare(PredictionRequest r) {
        return prepare(r.topology(), r.ranks(), r.ncclSettings());
    }

    /**
     * @param topology the cluster
     * @param ranks    the GPUs in rank order (share one immutable list across a sweep: the cache compares it by
     *                 identity first)
     * @param ncclEnv  NCCL_* settings, parsed once where the user gave them
     * @return the prepared communicator (cached)
     * @throws InvalidRequestException when there are no ranks
     */
    public PreparedCommunicator prepare(Topology topology, List<Gpu> ranks, NcclSettings ncclEnv) {
        return prepare(topology, ranks, ncclEnv, version.minor());
    }

    /**
     * @param topology      the cluster
     * @param ranks         the GPUs in rank order (compared by identity first, as above)
     * @param ncclEnv       NCCL_* settings
     * @param runMinor      the run's NCCL 2 minor release, e.g. 8 for 2.8.4 (this predictor's own when the run is
     *                      not older): a run older than the entry has its own tuning rules where collsim knows them
     *                      ({@code tuning.TuningConstants#forRun}); before 2.12 NCCL's choice is made without the net
     *                      plugin's latency ({@code channel.NetPluginLatency#readBy}), the time keeps it
     * @return the prepared communicator (cached)
     * @throws InvalidRequestException when there are no ranks
     */
    public PreparedCommunicator prepare(Topology topology, List<Gpu> ranks, NcclSettings ncclEnv,
            int runMinor) {
        Key k = new Key(topology, ranks, ncclEnv, runMinor);
        PreparedCommunicator c = cache.get(k);
        if (c != null) {
            return c;
        }
        c = PreparedCommunicator.prepare(topology, ranks, ncclEnv, version, runMinor);
        if (cache.size() >= CACHE_LIMIT) {
            cache.clear();
        }
        cache.put(k, c);
        return c;
    }

    /**
     * Bytes NCCL selects on and nccl-tests divides by time: element size x count, with count x nRanks for the
     * collectives whose nccl-tests size is the gathered total (nccl-tests 2.19.6 {@code src/*.cu}).
     *
     * @param r the request
     * @return bytes
     */
    public static long effectiveBytes(PredictionRequest r) {
        return effectiveBytes(r.collective(), r.sizeBytes(), r.dataType(), r.nRanks());
    }

    /**
     * @param c         collective
     * @param sizeBytes nccl-tests size, bytes
     * @param dataType  element type
     * @param nRanks    ranks
     * @return bytes NCCL selects on, as {@link #effectiveBytes(PredictionRequest)}
     */
    public static long effectiveBytes(Collective c, long sizeBytes, DataType dataType, int nRanks) {
        int elt = dataType.size();
        return CollGeometry.ofSize(c, sizeBytes, elt, nRanks).sizeBytes(elt);
    }

    /**
     * {@inheritDoc}
     *
     * @throws InvalidRequestException on an invalid NCCL setting or when no algorithm is eligible
     */
    @Override
    public Prediction predict(PredictionRequest r) {
        return prepare(r).call(r).predict(params);
    }

    /** @return NCCL's NVLS/NVLSTree loop of the call on the prediction's channels ({@link PreparedCall#nvlsLoop}) */
    @Override
    public Optional<NvlsLoop.Call> nvlsLoop(PredictionRequest r, Prediction p) {
        return prepare(r).call(r).nvlsLoop(params, p.nChannels());
    }

    /** @return the physical bound, every algorithm allowed ({@link PhysicalBound#busBw(ChannelPlan, Collective)}) */
    @Override
    public double anyScheduleBoundBusBw(PredictionRequest r) {
        return PhysicalBound.busBw(prepare(r).boundPlan(), r.collective());
    }

    /**
     * Every eligible (algorithm, protocol) for the point, in NCCL's scan order, with NCCL's time and collsim's
     * prediction; empty for point-to-point collectives.
     *
     * @param r the request
     * @return candidates, NCCL's choice marked
     * @throws InvalidRequestException on an invalid NCCL setting or when no algorithm is eligible
     */
    public List<Candidate> candidates(PredictionRequest r) {
        return prepare(r).call(r).candidates(params);
    }

    /**
     * Predicts a hierarchical composition (see {@link Hierarchy}) from the same model: each phase is predicted on
     * its sub-communicator (first node's GPUs; one GPU per node) and the times add up. The inter-node phase's
     * bandwidth is limited to its share of the node's NICs (q rails run at once), and the whole call is never faster
     * than its bytes at the fabric's leaf uplinks ({@link LeafGroups}, as {@link #predict}); the bound includes them.
     *
     * @param r the request (an AllReduce on more than one node)
     * @param h the composition
     * @return the prediction; algorithm/protocol are those of the inter-node phase, the bottleneck lists phases
     * @throws InvalidRequestException for another collective or a single node, or as {@link #predict}
     */
    public Prediction predictHierarchical(PredictionRequest r, Hierarchy h) {
        if (r.collective() != Collective.ALL_REDUCE) {
            throw new InvalidRequestException(h.text() + " composes an AllReduce; got " + r.collective().ncclName());
        }
        ChannelPlan plan = prepare(r).plan();
        if (plan.nNodes() < 2) {
            throw new InvalidRequestException(h.text() + " needs ranks on more than one node; got one node");
        }
        Map<Integer, List<Gpu>> byHost = new LinkedHashMap<>();
        for (Gpu g : r.ranks()) {
            byHost.computeIfAbsent(g.host(), k -> new ArrayList<>()).add(g);
        }
        List<Gpu> intra = byHost.values().iterator().next();
        List<Gpu> inter = byHost.values().stream().map(l -> l.get(0)).toList();
        int q = intra.size();
        long bytes = effectiveBytes(r);
        Prediction rs = predict(sub(r, intra, Collective.REDUCE_SCATTER, bytes));
        Prediction ag = predict(sub(r, intra, Collective.ALL_GATHER, bytes));
        PredictionRequest interReq = sub(r, inter, Collective.ALL_REDUCE, Math.max(1, bytes / q));
        Prediction ar = predict(interReq);
        int m = inter.size();
        // the q rails share each node's NICs: the inter-node AllReduce gets N/q per node
        double capAlgBw = PhysicalBound.interBusBw(Collective.ALL_REDUCE, m, m, plan.nodeNetBw() / q)
                / BusBandwidth.factor(Collective.ALL_REDUCE, m);
        double arTime = Math.max(ar.timeUs(), BusBandwidth.timeUs(interReq.sizeBytes(), capAlgBw) + params.launchOverheadUs());
        double time = rs.timeUs() + arTime + ag.timeUs();
        String how = String.format(Locale.ROOT, "%s = ReduceScatter %.1f us (%s/%s) + AllReduce %.1f us (%s/%s, %d"
                + " nodes) + AllGather %.1f us (%s/%s)", h.text(), rs.timeUs(), name(rs), rs.protocol().ncclName(),
                arTime, name(ar), ar.protocol().ncclName(), m, ag.timeUs(), name(ag), ag.protocol().ncclName());
        // the q rails' inter-node phases cross the leaf uplinks at once: the whole call's bytes at the fabric's limit
        Optional<LeafGroups> cut = LeafGroups.limiting(r.topology(), r.ranks());
        double limit = cut.map(g -> g.busBw(Collective.ALL_REDUCE, r.ncclSettings(), false))
                .orElse(Double.POSITIVE_INFINITY);
        double floor = cut.map(g -> g.floorUs(Collective.ALL_REDUCE, bytes, limit)).orElse(0.0);
        if (floor > time) {
            time = floor;
            how += "; raised to " + cut.get().describe(limit);
        }
        double algBw = BusBandwidth.algBw(bytes, time);
        double ncclUs = rs.ncclEstimateUs() + ar.ncclEstimateUs() + ag.ncclEstimateUs();
        return new Prediction(r.collective(), r.sizeBytes(), r.nRanks(), ar.algorithm(), ar.protocol(),
                ar.nChannels(), time, algBw, BusBandwidth.busBw(r.collective(), r.nRanks(), algBw), ncclUs,
                Math.min(PhysicalBound.busBw(plan, r.collective()), limit), how);
    }

    private static String name(Prediction p) {
        return p.algorithm() == null ? "p2p" : p.algorithm().ncclName();
    }

    private static PredictionRequest sub(PredictionRequest r, List<Gpu> ranks, Collective c, long bytes) {
        return new PredictionRequest(r.topology(), ranks, c, bytes, r.dataType(), r.op(), r.ncclSettings());
    }
}
