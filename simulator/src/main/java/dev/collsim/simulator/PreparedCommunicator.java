package dev.collsim.simulator;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.AwsOfiNcclProto;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ScaleUp;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.channel.NetPluginLatency;
import dev.collsim.simulator.channel.RuntimeChannels;
import dev.collsim.simulator.perf.GdrNote;
import dev.collsim.simulator.perf.LibfabricEagerCopy;
import dev.collsim.simulator.perf.LibfabricReadRendezvous;
import dev.collsim.simulator.perf.LocalCopy;
import dev.collsim.simulator.perf.NetClassDefaults;
import dev.collsim.simulator.perf.NvlsLoop;
import dev.collsim.simulator.perf.P2pModel;
import dev.collsim.simulator.perf.PerfEstimate;
import dev.collsim.simulator.perf.PerformanceModel;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.perf.SocketStreams;
import dev.collsim.simulator.perf.StagedNetDuplex;
import dev.collsim.simulator.bound.FabricBound;
import dev.collsim.simulator.bound.LeafGroups;
import dev.collsim.simulator.bound.PhysicalBound;
import dev.collsim.simulator.tuning.AlgoChoice;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.simulator.tuning.GraphSet;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.TimeTable;
import dev.collsim.simulator.tuning.TuningConstants;
import dev.collsim.simulator.tuning.TuningInput;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The prediction pipeline of one communicator (a topology, its ranks in rank order, NCCL settings, an NCCL
 * release), prepared once: the channel search ({@link ChannelSearch}, NCCL 2.30.7 {@code src/graph/search.cc},
 * {@code connect.cc}), NCCL's cost table ({@link NcclTuningModel}, {@code src/graph/tuning.cc}) and so NCCL's
 * choice of algorithm, protocol and channels per size ({@link #call}). None of that depends on the
 * {@link PerformanceParameters}, so a prepared call can be re-timed for any parameters ({@link PreparedCall#predict})
 * at the cost of closed forms: this is how calibration fits and how comparisons, plans and reports time their
 * points, and {@link NcclPredictor#predict} is {@code prepare(r).call(r).predict(params)}, so every command gives
 * the same number for the same point.
 *
 * <p>The time of a call is collsim's performance model ({@link PerformanceModel}; point-to-point collectives {@link
 * P2pModel}; one rank: a local copy) with the physical bound of {@link PhysicalBound}, whose inter-node part (each NCCL
 * node's NICs) is applied inside the model, so no caller raises a prediction to a NIC floor of its own; no call is
 * faster than its bytes at the fabric's leaf uplinks ({@link FabricBound}; the ranks' {@link LeafGroups}, cut once
 * here), so every command times an oversubscribed fabric as such. Immutable and thread-safe.
 */
public final class PreparedCommunicator {

    private final NcclVersion version;
    private final NcclSettings settings;
    private final ChannelPlan plan;
    /**
     * The searched plan before {@link StagedNetDuplex}: the physical bound is what the links carry at their physical
     * speeds, and the staged share is a measured efficiency of the time, not a link speed.
     */
    private final ChannelPlan boundPlan;
    private final CostTable table;
    /** The table the time reads ({@link TimeTable}): {@code table} but the NVLS entries of the time's NVLS graph. */
    private final CostTable timeTable;
    /** One-rank copy rate over {@code localCopyGBps}: memory bandwidth over the H200's ({@link LocalCopy#scale}). */
    private final double copyScale;
    private final LeafGroups fabric; // the ranks' leaf groups; null: the fabric limits nothing (one group, one host)
    /** True when {@code settings} carry the NCCL_PROTO=simple aws-ofi-nccl sets ({@link AwsOfiNcclProto}). */
    private final boolean pluginSimple;

    private PreparedCommunicator(NcclVersion version, NcclSettings settings, ChannelPlan plan, ChannelPlan boundPlan,
            CostTable table, CostTable timeBase, double copyScale, LeafGroups fabric, boolean pluginSimple) {
        this.version = version;
        this.settings = settings;
        this.pluginSimple = pluginSimple;
        this.plan = plan;
        this.boundPlan = boundPlan;
        this.table = table;
        this.timeTable = TimeTable.of(timeBase, plan.nvlsTimeGraph().withLatencyInter(0));
        this.copyScale = copyScale;
        this.fabric = fabric;
    }

    /**
     * Runs the channel search and fills NCCL's cost table.
     *
     * @param topology the cluster
     * @param ranks    the GPUs in rank order, at least one
     * @param ncclEnv  NCCL_* settings, parsed once where the user gave them (null: NCCL defaults)
     * @param version  NCCL release modelled
     * @param runMinor the run's NCCL 2 minor release ({@code version.minor()} when it is not older than the entry):
     *                 a run older than the entry has its tuning's rules where collsim knows them
     *                 ({@link TuningConstants#forRun}), and before 2.12 NCCL's choice is made on graphs without the
     *                 net plugin's latency ({@code channel.NetPluginLatency#readBy}); the time never reads it (an
     *                 estimate for NCCL's choice, not the transport's time: the network class's own cost per crossing
     *                 stands for it, {@code perf.NetClassDefaults})
     * @return the prepared communicator
     * @throws InvalidRequestException when there are no ranks, or a rank is not a GPU of the topology
     */
    static PreparedCommunicator prepare(Topology topology, List<Gpu> ranks, NcclSettings ncclEnv,
            NcclVersion version, int runMinor) {
        if (ranks.isEmpty()) {
            throw new InvalidRequestException("a prediction needs at least one rank");
        }
        NcclSettings given = ncclEnv == null ? NcclSettings.DEFAULTS : ncclEnv;
        boolean pluginSimple = AwsOfiNcclProto.forcesSimple(topology, ranks, given, runMinor);
        NcclSettings s = AwsOfiNcclProto.apply(topology, ranks, given, runMinor);
        CommunicatorRanks.check(topology, ranks);
        // NCCL's choice on the graphs of the run's NVLink figure; the time on 2.18's, what the links move in every
        // release (docs/nccl-releases.md item 27)
        int nvlMinor = Math.min(runMinor, version.minor());
        int physical = Math.max(nvlMinor, NcclVersion.V2_18_5.minor());
        ChannelPlan unstaged = ChannelSearch.search(topology, ranks, s, version, physical);
        ChannelPlan plan = StagedNetDuplex.apply(unstaged, s);
        ChannelPlan searched = nvlMinor == physical ? plan : ChannelSearch.search(topology, ranks, s, version, nvlMinor);
        TuningConstants constants = TuningConstants.of(version).forRun(runMinor);
        boolean reported = plan.graphs().ring().latencyInter() > 0 || plan.graphs().tree().latencyInter() > 0;
        CostTable timeBase = NcclTuningModel.tune(input(plan, plan.graphs().withLatencyInter(0), s, constants));
        boolean withLatency = reported && NetPluginLatency.readBy(runMinor);
        CostTable choice = searched == plan && !withLatency ? timeBase : NcclTuningModel.tune(input(searched,
                withLatency ? searched.graphs() : searched.graphs().withLatencyInter(0), s, constants));
        return new PreparedCommunicator(version, s, plan, unstaged, choice, timeBase, LocalCopy.scale(ranks.get(0)),
                LeafGroups.limiting(topology, ranks).orElse(null), pluginSimple);
    }

    private static TuningInput input(ChannelPlan plan, GraphSet graphs, NcclSettings s, TuningConstants c) {
        return new TuningInput(graphs, plan.nRanks(), plan.nNodes(), plan.minSm(), plan.maxSm(), plan.cpu(),
                plan.nvlsSupport(), s.collnetEnable(), plan.hasNvSwitch(), plan.maxLocalRanks(),
                graphs.tree().pattern(), plan.runtimeChannels(), s, c);
    }

    /**
     * NCCL's choice for one call.
     *
     * @param c         the collective
     * @param sizeBytes nccl-tests size, bytes, >= 0
     * @param dataType  element type
     * @param op        reduction operator (null: sum)
     * @return the call, timed later for any parameters
     * @throws InvalidRequestException when NCCL would have no eligible algorithm and protocol under the settings
     */
    public PreparedCall call(Collective c, long sizeBytes, DataType dataType, RedOp op) {
        if (sizeBytes < 0) {
            throw new InvalidRequestException("sizeBytes must be >= 0, got " + sizeBytes);
        }
        RedOp o = op == null ? RedOp.SUM : op;
        long bytes = NcclPredictor.effectiveBytes(c, sizeBytes, dataType, plan.nRanks());
        AlgoChoice choice = null;
        if (c.hasNcclTuningModel()) {
            choice = table.select(c, bytes, dataType, o).orElseThrow(() -> new InvalidRequestException(
                    NoAlgorithmMessage.text(table, settings, c, bytes, dataType, o)));
        }
        return new PreparedCall(this, c, sizeBytes, dataType, o, bytes, choice);
    }

    /**
     * @param r a request on this communicator (its topology, ranks and settings are not compared)
     * @return {@code call(r.collective(), r.sizeBytes(), r.dataType(), r.op())}
     * @throws InvalidRequestException as {@link #call(Collective, long, DataType, RedOp)}
     */
    public PreparedCall call(PredictionRequest r) {
        return call(r.collective(), r.sizeBytes(), r.dataType(), r.op());
    }

    Prediction predict(PreparedCall call, PerformanceParameters pp) {
        Collective c = call.collective();
        double bound = Math.min(physicalBoundBusBw(c),
                SocketStreams.boundBusBw(plan, settings, pp, c));
        PerfEstimate e = withFabric(call, call.algorithm(), call.launch().apply(estimate(call, call.choice(), pp)));
        double algBw = e.timeUs() > 0 ? BusBandwidth.algBw(call.bytes(), e.timeUs()) : 0;
        double busBw = BusBandwidth.busBw(c, plan.nRanks(), algBw);
        double ncclUs = call.choice() == null ? -1 : call.choice().timeUs();
        return new Prediction(c, call.sizeBytes(), plan.nRanks(), call.algorithm(), call.protocol(), e.channels(),
                e.timeUs(), algBw, busBw, ncclUs, bound, e.bottleneck());
    }

    /**
     * @return the estimate of the call run as {@code a}, raised to its bytes' time at the leaf uplinks' limit ({@link
     *         LeafGroups#busBw}, the Ring form for Ring) when that is longer, the bottleneck then naming the uplinks
     */
    private PerfEstimate withFabric(PreparedCall call, Algorithm a, PerfEstimate e) {
        if (fabric == null) {
            return e;
        }
        double limit = fabric.busBw(call.collective(), settings, a == Algorithm.RING);
        double floor = fabric.floorUs(call.collective(), call.bytes(), limit);
        return floor > e.timeUs() ? new PerfEstimate(floor, e.channels(), e.latencyUs(), e.algBw(),
                fabric.describe(limit)) : e;
    }

    private PerfEstimate estimate(PreparedCall call, AlgoChoice choice, PerformanceParameters pp) {
        return estimate(call, choice, pp, 0);
    }

    private PerfEstimate estimate(PreparedCall call, AlgoChoice choice, PerformanceParameters pp, int channels) {
        if (choice == null) {
            return P2pModel.estimate(plan, settings, version, timeTable.input().constants().rules().runMinor(), pp,
                    call.collective(), call.bytes(),
                    plan.graphs().ring().typeIntra());
        }
        if (plan.nRanks() == 1) {
            return LocalCopy.estimate(pp, copyScale, call.bytes());
        }
        AlgoChoice timed = timeTable == table ? choice : timeTable.time(call.collective(), choice.algorithm(),
                choice.protocol(), call.bytes(), call.dataType(), call.op()).orElse(choice);
        return PerformanceModel.estimate(plan, settings, pp, timeTable, call.collective(), timed, call.bytes(),
                channels, copyScale);
    }

    /**
     * @return NCCL's NVLS/NVLSTree loop of the call on {@code channels} channels ({@link NvlsLoop#call}), empty
     *         for other algorithms, protocols and collectives
     */
    Optional<NvlsLoop.Call> nvlsLoop(PreparedCall call, PerformanceParameters pp, int channels) {
        if (call.choice() == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(NvlsLoop.call(call.algorithm(), call.protocol(), call.collective(), plan,
                timeTable, settings.buffSize(), channels, call.bytes(), pp.nvlsLoopUs(generation())));
    }

    Protocol protocol(PreparedCall call) {
        return call.choice() == null ? P2pModel.protocol(plan, settings, version, call.collective(), call.bytes(),
                plan.graphs().ring().typeIntra())
                : call.choice().protocol();
    }

    List<Candidate> candidates(PreparedCall call, PerformanceParameters pp, int channels) {
        if (call.choice() == null) {
            return List.of();
        }
        List<AlgoChoice> all = table.candidates(call.collective(), call.bytes(), call.dataType(), call.op());
        Optional<AlgoChoice> best = table.select(call.collective(), call.bytes(), call.dataType(), call.op());
        List<Candidate> out = new ArrayList<>();
        for (AlgoChoice a : all) {
            boolean chosen = best.isPresent() && best.get().algorithm() == a.algorithm()
                    && best.get().protocol() == a.protocol();
            out.add(new Candidate(a.algorithm(), a.protocol(), a.timeUs(),
                    withFabric(call, a.algorithm(), call.launch().apply(estimate(call, a, pp, channels))), chosen));
        }
        return out;
    }

    /**
     * @param pp the performance parameters of the prediction
     * @return the note that the network class between the nodes runs on another class's figures
     *         ({@link NetClassDefaults#borrowedNote}), the protocol aws-ofi-nccl sets ({@link AwsOfiNcclProto#note}),
     *         with what the socket and GDR settings do ({@link
     *         SocketStreams#note}, {@link GdrNote#note}) the libfabric eager copy ({@link LibfabricEagerCopy#note}) and
     *         read rendezvous ({@link LibfabricReadRendezvous#note}); empty on one node, or when the class has its own figures
     *         and no socket note applies
     */
    public Optional<String> networkNote(PerformanceParameters pp) {
        Optional<String> borrowed = plan.nNodes() < 2 ? Optional.empty()
                : NetClassDefaults.borrowedNote(plan.netClass(), pp.netProfile(plan.netClass()));
        List<String> parts = new ArrayList<>();
        borrowed.ifPresent(parts::add);
        if (pluginSimple) {
            parts.add(AwsOfiNcclProto.note());
        }
        SocketStreams.note(plan, settings).ifPresent(parts::add);
        LibfabricEagerCopy.note(plan, timeTable.input().constants().rules().runMinor()).ifPresent(parts::add);
        LibfabricReadRendezvous.note(plan, timeTable.input().constants().rules().runMinor()).ifPresent(parts::add);
        GdrNote.note(plan, settings).ifPresent(parts::add);
        return parts.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", parts));
    }

    /**
     * @param c the collective
     * @return the best busbw the links allow for it on this communicator with the algorithms NCCL_ALGO allows, GB/s
     *         ({@link PhysicalBound}, lowered to the leaf uplinks' {@link FabricBound}; infinity for one rank)
     */
    public double physicalBoundBusBw(Collective c) {
        return Math.min(PhysicalBound.busBw(boundPlan, c, settings.algo(), settings.collnetEnable()
                || settings.patEnable() == 1, !c.hasNcclTuningModel()
                || settings.proto().allows(c, Protocol.SIMPLE)), fabric == null ? Double.POSITIVE_INFINITY
                : fabric.busBw(c, settings, false));
    }

    /**
     * @param a an algorithm
     * @return the most channels a tuner plugin's channel count gives a call of it on this communicator
     *         ({@link RuntimeChannels#tunerCap}: comm.nChannels, or the NVLS channels for NVLS/NVLSTree)
     */
    public int tunerChannelCap(Algorithm a) {
        return RuntimeChannels.tunerCap(a, plan);
    }

    /** @return the NCCL release modelled */
    public NcclVersion version() {
        return version;
    }

    /** @return the parsed NCCL settings */
    public NcclSettings settings() {
        return settings;
    }

    /** @return ranks */
    public int nRanks() {
        return plan.nRanks();
    }

    /** @return NCCL nodes: hosts, or the hosts of one multi-node NVLink domain */
    public int nNodes() {
        return plan.nNodes();
    }

    /**
     * @param a an algorithm
     * @return whether a call of it on this communicator runs on NCCL's NVLS channels alone, which NCCL_MAX_NCHANNELS
     *         and NCCL_MIN_NCHANNELS do not reach ({@link RuntimeChannels#nvlsChannelsOnly})
     */
    public boolean nvlsChannelsOnly(Algorithm a) {
        return RuntimeChannels.nvlsChannelsOnly(a, plan.nNodes());
    }

    /** @return most ranks on one NCCL node */
    public int maxLocalRanks() {
        return plan.maxLocalRanks();
    }

    /** @return NCCL's GPU generation of the communicator (from its minimum compute capability) */
    public GpuGeneration generation() {
        return GpuGeneration.of(plan.minSm());
    }

    /**
     * @return the graphs and channel counts in words: {@code ring C x intra/inter GB/s (typeIntra/typeInter), tree
     *         ..., NVLS ...; runtime R, NVLS V, p2p P}
     */
    public String describeChannels() {
        return CommunicatorText.channels(plan);
    }

    /**
     * @return the hardware figures the model uses in words: the GPU's way out ({@link ScaleUp#describe}), NICs per
     *         node and the network class between nodes, sm, CPU kind
     */
    public String describeHardware() {
        return CommunicatorText.hardware(plan);
    }

    /** @return the channel plan (the simulator's own use and tests) */
    ChannelPlan plan() {
        return plan;
    }

    /** @return the channel plan the physical bound reads: {@link #plan} before {@link StagedNetDuplex} */
    ChannelPlan boundPlan() {
        return boundPlan;
    }
}
