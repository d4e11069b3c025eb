package dev.collsim.simulator;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.bound.FabricBound;
import dev.collsim.simulator.network.FlowNetwork;
import dev.collsim.simulator.network.Job;
import dev.collsim.simulator.network.LinkUsage;
import dev.collsim.simulator.network.Multipath;
import dev.collsim.simulator.network.NetworkBackend;
import dev.collsim.simulator.network.NetworkModel;
import dev.collsim.simulator.network.RoutingOptions;
import dev.collsim.simulator.network.Timing;
import dev.collsim.simulator.schedule.ScheduleAlgorithms;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.IdentityHashMap;

/**
 * Times NCCL's choice on the fabric: a chooser (normally {@link NcclPredictor}) picks the algorithm, protocol and
 * channel count as NCCL would; {@link FlowChoice} (the same code as {@code collsim predict --backend flow},
 * {@link FlowSweep}) turns that into a schedule, which runs alone on the request's topology in the
 * contention-aware {@link FlowNetwork} (max-min fair link sharing, ECMP or spray routing). So fabric
 * oversubscription, ECMP collisions and rails crossing, which the analytical model does not see, change the time.
 *
 * <p>The flow time has no protocol, launch or pipeline overhead (a step is its bytes over the max-min fair share
 * plus route latency): where nothing is shared it is the links' bound, below the chooser's time. Two ways to use it:
 * <ul>
 * <li>{@link Mode#FLOW}: the flow time alone.</li>
 * <li>{@link Mode#SLOWER}: the larger of the chooser's time and the flow time, a roofline of two limits: what NCCL's
 * protocols and overheads allow on an ideal fabric (the chooser), and what the fabric's links allow when the
 * schedule's flows share them (the flow backend). Where the fabric does not limit, this equals the chooser's
 * prediction exactly; on an oversubscribed fabric it is the fabric's time.</li>
 * </ul>
 * The returned {@link Prediction} keeps the chooser's algorithm, protocol, channels and NCCL estimate; its physical
 * bound is the chooser's, lowered to what the fabric's leaf uplinks allow ({@link FabricBound}); the bottleneck says which limit won and names the busiest links. Points no schedule covers ({@link
 * #covers}: one rank, Broadcast, Reduce, SendRecv, Gather, Scatter) get the chooser's prediction unchanged, its
 * bottleneck prefixed with {@code analytical (no flow schedule ...)}.
 *
 * <p>NCCL_PXN_DISABLE=1 in the request's settings turns PXN off in routing, as it does in NCCL. Indexed fabrics
 * are cached per (topology identity, PXN) for the predictor's lifetime. This class is thread-safe when the chooser is.
 */
public final class FlowPredictor implements CollectivePredictor {

    /** How the flow time becomes the prediction's time. */
    public enum Mode {
        /** The flow backend's time alone. */
        FLOW,
        /** The larger of the chooser's time and the flow backend's time. */
        SLOWER
    }

    private final CollectivePredictor chooser;
    private final Mode mode;
    private final Multipath multipath;
    private final long seed;
    private final NetworkBackend backend = new FlowNetwork();
    private final Map<Topology, NetworkModel[]> models = new IdentityHashMap<>();

    /**
     * @param chooser   picks algorithm, protocol and channels (and times what no schedule covers)
     * @param mode      flow time alone, or the slower of chooser and flow
     * @param multipath ECMP hashing or ideal spraying over equal-cost paths between NICs
     * @param seed      seed of the ECMP hash
     */
    public FlowPredictor(CollectivePredictor chooser, Mode mode, Multipath multipath, long seed) {
        this.chooser = Objects.requireNonNull(chooser, "chooser");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.multipath = Objects.requireNonNull(multipath, "multipath");
        this.seed = seed;
    }

    /**
     * @param collective the collective
     * @param algorithm  the algorithm NCCL runs (null for point-to-point)
     * @param nRanks     ranks
     * @return true when the flow backend times this point (a schedule exists and at least two ranks take part)
     */
    public static boolean covers(Collective collective, Algorithm algorithm, int nRanks) {
        return nRanks >= 2 && ScheduleAlgorithms.forNccl(algorithm, collective).isPresent();
    }

    /**
     * @throws IllegalArgumentException as the chooser does (bad NCCL setting, nothing eligible), or when no working
     *                                  path joins two ranks of the request's topology
     */
    @Override
    public Prediction predict(PredictionRequest r) {
        return predictConcurrent(r, List.of(r.ranks()));
    }

    /** @return the chooser's release: the flow schedules follow its rules */
    @Override
    public NcclVersion version() {
        return chooser.version();
    }

    /** @return the chooser's note: the flow backend times the same network class and transport */
    @Override
    public Optional<String> networkNote(PredictionRequest r) {
        return chooser.networkNote(r);
    }

    /**
     * Times every group at once on the fabric (one flow-backend job per group, all starting together, each with the
     * schedule of NCCL's choice for the first group); the time is the slowest group's.
     *
     * @throws IllegalArgumentException as {@link #predict}, or when the first group is not the request's ranks or
     *                                  a GPU is in two groups
     */
    @Override
    public Prediction predictConcurrent(PredictionRequest r, List<List<Gpu>> groups) {
        if (groups.isEmpty() || !groups.get(0).equals(r.ranks())) {
            throw new IllegalArgumentException("the first group must be the request's ranks");
        }
        Prediction choice = chooser.predict(r);
        List<FlowChoice> plans = new ArrayList<>();
        for (List<Gpu> g : groups) {
            Optional<FlowChoice> f = r.nRanks() < 2 ? Optional.empty()
                    : FlowChoice.decide(r.collective(), choice, FlowChoice.Override.NONE, g, false,
                            chooser.version(), chooser.nvlsLoop(r, choice),
                            ChannelNics.of(r.topology(), g, r.ncclSettings(), chooser.version(), 0));
            if (f.isEmpty()) {
                return withBottleneck(withFabricBound(choice, r), "analytical (no flow schedule for "
                        + (r.nRanks() < 2 ? "one rank" : r.collective().ncclName()) + "): " + choice.bottleneck());
            }
            plans.add(f.get());
        }
        int nCh = plans.get(0).nChannels();
        List<Job> jobs = new ArrayList<>();
        for (FlowChoice f : plans) {
            jobs.add(f.job(r.collective().testName() + (jobs.isEmpty() ? "" : "#" + jobs.size()), r.collective(),
                    r.sizeBytes(), 0));
        }
        boolean pxn = !r.ncclSettings().pxnDisable();
        Timing t = backend.time(jobs, model(r.topology(), pxn));
        choice = withFabricBound(choice, r); // after the model: the fabric's graph is built, whatever its size
        double flowUs = t.jobs().stream().mapToDouble(j -> j.timeUs()).max().orElse(0);
        String fabric = String.format(Locale.ROOT, "fabric (flow, %s schedule%s, %s): busiest links %s",
                plans.get(0).schedule().name(), groups.size() > 1 ? " x " + groups.size() + " concurrent groups" : "",
                multipath.yamlName(), LinkUsage.describe(t.bottlenecks()));
        if (mode == Mode.SLOWER && !(flowUs > choice.timeUs())) {
            return withBottleneck(choice, String.format(Locale.ROOT, "%s; the fabric does not limit (flow %.2f us)",
                    choice.bottleneck(), flowUs));
        }
        return fromTime(r.collective(), r.sizeBytes(), r.nRanks(), choice.algorithm(), choice.protocol(), nCh,
                flowUs, choice.ncclEstimateUs(), choice.physicalBoundBusBw(), mode == Mode.FLOW ? fabric
                        : String.format(Locale.ROOT, "%s (analytical alone %.2f us)", fabric, choice.timeUs()));
    }

    /**
     * @param p a prediction this class returned in {@link Mode#SLOWER}
     * @return true when the fabric (flow backend) set its time, false when the chooser's time did
     */
    public static boolean fabricLimited(Prediction p) {
        return p.bottleneck() != null && p.bottleneck().startsWith("fabric (flow");
    }

    /**
     * The chooser's bound lowered to the fabric's leaf uplinks ({@link FabricBound}), computed here on the built graph
     * (the chooser skips the cut of a cluster over 512 hosts described once, or of a non-blocking fabric spec).
     */
    private static Prediction withFabricBound(Prediction p, PredictionRequest r) {
        double bound = Math.min(p.physicalBoundBusBw(), FabricBound.busBw(r.topology(), r.ranks(), r.collective(),
                r.ncclSettings()));
        return new Prediction(p.collective(), p.sizeBytes(), p.nRanks(), p.algorithm(), p.protocol(), p.nChannels(),
                p.timeUs(), p.algBw(), p.busBw(), p.ncclEstimateUs(), bound, p.bottleneck());
    }

    private static Prediction withBottleneck(Prediction p, String bottleneck) {
        return new Prediction(p.collective(), p.sizeBytes(), p.nRanks(), p.algorithm(), p.protocol(), p.nChannels(),
                p.timeUs(), p.algBw(), p.busBw(), p.ncclEstimateUs(), p.physicalBoundBusBw(), bottleneck);
    }

    private NetworkModel model(Topology t, boolean pxn) {
        synchronized (models) {
            NetworkModel[] m = models.computeIfAbsent(t, x -> new NetworkModel[2]);
            int k = pxn ? 1 : 0;
            if (m[k] == null) {
                m[k] = NetworkModel.of(t, List.of(), new RoutingOptions(multipath, pxn, seed));
            }
            return m[k];
        }
    }

    /**
     * A prediction from a time a network backend gave, with algbw and busbw by the nccl-tests definitions
     * ({@code algbw = size / time}, {@code busbw = algbw x} {@link BusBandwidth#factor}).
     *
     * @param c              collective
     * @param sizeBytes      nccl-tests size, bytes
     * @param nRanks         ranks
     * @param algorithm      algorithm shown (null: none)
     * @param protocol       protocol shown (null: none)
     * @param nChannels      channels of the schedule
     * @param timeUs         the backend's time, microseconds
     * @param ncclEstimateUs NCCL's own estimate, microseconds, -1 when none
     * @param boundBusBw     best busbw the links allow, GB/s
     * @param bottleneck     what limits it, in words
     * @return the prediction (algbw and busbw 0 when the time is 0)
     */
    public static Prediction fromTime(Collective c, long sizeBytes, int nRanks, Algorithm algorithm,
            Protocol protocol, int nChannels, double timeUs, double ncclEstimateUs, double boundBusBw,
            String bottleneck) {
        double algBw = BusBandwidth.algBw(sizeBytes, timeUs);
        return new Prediction(c, sizeBytes, nRanks, algorithm, protocol, nChannels, timeUs, algBw,
                BusBandwidth.busBw(c, nRanks, algBw), ncclEstimateUs, boundBusBw, bottleneck);
    }
}
