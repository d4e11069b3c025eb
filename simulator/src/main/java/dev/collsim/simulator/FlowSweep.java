package dev.collsim.simulator;

import dev.collsim.nccl.BusBandwidth;
import dev.collsim.io.InputException;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.RedOp;
import dev.collsim.simulator.bound.FabricBound;
import dev.collsim.simulator.network.FlowNetwork;
import dev.collsim.simulator.network.FlowRecord;
import dev.collsim.simulator.network.Job;
import dev.collsim.simulator.network.PlacementException;
import dev.collsim.simulator.network.JobTiming;
import dev.collsim.simulator.network.LinkUsage;
import dev.collsim.simulator.network.LinksNetwork;
import dev.collsim.simulator.network.NetworkBackend;
import dev.collsim.simulator.network.NetworkModel;
import dev.collsim.simulator.network.Timing;
import dev.collsim.simulator.network.UnroutableException;
import dev.collsim.simulator.perf.NvlsLoop;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The flow backend's entry point for a size sweep ({@code collsim predict --backend flow|links}): places the ranks
 * (and any other jobs) on the fabric, asks the chooser (normally {@link NcclPredictor}) for NCCL's algorithm,
 * protocol and channels at every size, turns that into a schedule with {@link FlowChoice} (the same code as the
 * report's {@link FlowPredictor}) unless the request replaces it, and times it on the fabric with the flow backend
 * ({@link FlowNetwork}, max-min fair link sharing) or the links backend ({@link LinksNetwork}, each transfer alone
 * on its route). Thread-safe when the chooser is.
 */
public final class FlowSweep {

    /**
     * The outcome of a sweep.
     *
     * @param predictions one per simulated size: the backend's time, NCCL's (or the given) algorithm, protocol and
     *                    channels, nccl_est -1, the chooser's physical bound (GB/s; for a schedule given by the
     *                    request, the bound whatever the algorithm, {@link CollectivePredictor#anyScheduleBoundBusBw})
     * @param linksBusBw  per prediction: the links backend's busbw for the same schedule (each transfer alone on its
     *                    route), at most the physical bound (transfers that share a link cannot each have it alone
     *                    beyond what the GPU and NIC links allow), GB/s
     * @param choices     per prediction: what was simulated
     * @param notes       per-size lines: busiest links, every job's start, end, time alone and slowdown
     * @param timeline    per prediction: every flow's record (empty unless the request asks for a timeline)
     * @param fabric      the topology simulated: the request's, or for a cluster described once only the hosts the
     *                    ranks are on ({@link Topology#withHostsOnly})
     */
    public record Result(List<Prediction> predictions, List<Double> linksBusBw, List<FlowChoice> choices,
            List<String> notes, List<List<FlowRecord>> timeline, Topology fabric) {
    }

    private final CollectivePredictor chooser;

    /** @param chooser gives NCCL's choice for every point, and the physical bound */
    public FlowSweep(CollectivePredictor chooser) {
        this.chooser = Objects.requireNonNull(chooser, "chooser");
    }

    /**
     * @param r the sweep
     * @return one prediction per size of the shard
     * @throws InputException           on a bad hostfile line
     * @throws InvalidRequestException when the GPUs cannot hold the jobs, a hostfile offers too few, NCCL's choice
     *                                  has no schedule here (e.g. Broadcast), a schedule does not support its
     *                                  collective, or no working path joins two ranks; any other
     *                                  IllegalArgumentException is a bug
     */
    public Result run(FlowRequest r) throws InputException {
        try {
            return sweep(r);
        } catch (UnroutableException e) {
            throw new InvalidRequestException(e.getMessage(), e);
        }
    }

    private Result sweep(FlowRequest r) throws InputException {
        int hostCount = r.topology().hostCount();
        long seed = r.routing().seed();
        int maxLocal = r.ranks().stream().mapToInt(Gpu::index).max().orElse(0);
        List<Gpu> pool = new ArrayList<>(r.topology().gpus().stream().filter(g -> g.index() <= maxLocal).toList());
        List<Gpu> placed = placed(() -> r.placement().place(pool, r.ranks().size(), seed, hostCount));
        pool.removeAll(new HashSet<>(placed)); // a set: removeAll asks contains per GPU
        List<Job> others = new ArrayList<>();
        for (FlowJob j : r.jobs()) {
            List<Gpu> g = placed(() -> j.placement().place(pool, j.nRanks(), seed, hostCount));
            pool.removeAll(new HashSet<>(g));
            FlowChoice ch = choose(r, j.collective(), j.sizeBytes(), RedOp.SUM, j.override(), g);
            others.add(ch.job(j.name(), j.collective(), j.sizeBytes(), j.startUs()));
        }
        Topology fabric = fabric(r, placed, others);
        NetworkModel model = NetworkModel.of(fabric, r.failed(), r.routing());
        NetworkBackend backend = r.congestionAware() ? new FlowNetwork(r.timeline(), 3, r.completionWindow(),
                r.stepSamples())
                : new LinksNetwork(r.timeline(), 3);
        Collective c = r.collective();
        List<Prediction> out = new ArrayList<>();
        List<Double> linksBusBw = new ArrayList<>();
        List<FlowChoice> choices = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<List<FlowRecord>> timeline = new ArrayList<>();
        Map<Integer, Double> aloneCache = new HashMap<>();
        double fabricBound = fabricBound(r, fabric, placed);
        for (int k = 0; k < r.sizes().size(); k++) {
            if (k % r.shardCount() != r.shardIndex()) {
                continue;
            }
            long size = r.sizes().get(k);
            PredictionRequest point = ncclRequest(r, c, size, r.op(), placed);
            Prediction nccl = chooser.predict(point);
            FlowChoice ch = decide(r, c, nccl, r.override(), placed, chooser.version(), r.override().schedule() == null
                    ? chooser.nvlsLoop(point, nccl) : Optional.empty());
            // a forced schedule may be one NCCL would not run here (PAT across nodes): its bound is any algorithm's
            double bound = Math.min(fabricBound, r.override().schedule() == null ? nccl.physicalBoundBusBw()
                    : chooser.anyScheduleBoundBusBw(point));
            List<Job> jobs = new ArrayList<>();
            jobs.add(ch.job(c.testName(), c, size, 0));
            jobs.addAll(others);
            Timing t = backend.time(jobs, model);
            double time = t.jobs().get(0).timeUs();
            Timing solo = !r.congestionAware() && jobs.size() == 1 ? t
                    : new LinksNetwork().time(jobs.subList(0, 1), model);
            // each transfer alone never beats the links themselves: no link carries its bytes faster than its
            // capacity (a Ring's 16 channels share each host's NICs), and the column stops at the physical bound
            double aloneUs = Math.max(solo.jobs().get(0).timeUs(), busiestLinkUs(solo));
            linksBusBw.add(Math.min(bound, aloneUs > 0
                    ? BusBandwidth.busBw(c, placed.size(), size, aloneUs) : Double.POSITIVE_INFINITY));
            String busiest = LinkUsage.describe(t.bottlenecks());
            out.add(FlowPredictor.fromTime(c, size, placed.size(), ch.algorithm(), ch.protocol(), ch.nChannels(),
                    time, -1, bound, ch.phasesPrefix() + backend.name() + ": " + busiest));
            choices.add(ch);
            notes.add(String.format(Locale.ROOT, "size %d: busiest links %s", size, busiest));
            if (t.samplingBoundUs() > 0) {
                notes.add(String.format(Locale.ROOT, "size %d: step sampling: time %.2f us +- %.2f us (sampling %.2f"
                        + " us: 3 estimated standard errors, from %d of %d steps (--step-samples); completion window"
                        + " %.2f us: w / (1 - w) x the time, each step simulated with window %s)", size, time,
                        t.makespanBoundUs(), t.samplingBoundUs(), r.stepSamples(),
                        jobs.get(0).schedule().steps().size(), t.windowBoundUs(), r.completionWindow()));
            } else if (t.windowBoundUs() > 0) {
                notes.add(String.format(Locale.ROOT, "size %d: completion window %s: last job ends at %.2f us +-"
                        + " %.2f us (w / (1 - w) x the time from the first start, a tested bound)", size,
                        r.completionWindow(), t.makespanUs(), t.windowBoundUs()));
            }
            for (int j = 0; j < jobs.size() && jobs.size() > 1; j++) {
                final int jj = j;
                double alone = aloneCache.computeIfAbsent(j == 0 ? -1 - k : j, x -> backend.time(
                        List.of(jobs.get(jj)), model).jobs().get(0).timeUs());
                JobTiming jt = t.jobs().get(j);
                notes.add(String.format(Locale.ROOT, "size %d: job %s start %.2f us end %.2f us: %.2f us, alone"
                        + " %.2f us, slowdown %.3f", size, jt.name(), jt.startUs(), jt.endUs(), jt.timeUs(), alone,
                        alone > 0 ? jt.timeUs() / alone : 1.0));
            }
            timeline.add(t.timeline());
        }
        return new Result(out, linksBusBw, choices, notes, timeline, fabric);
    }

    /**
     * The fabric to simulate on: for a cluster of identical hosts described once (and nothing failed, named on the
     * whole cluster), only the hosts the jobs' ranks are on, with their leaves and every spine
     * ({@link Topology#withHostsOnly}): every transfer of the jobs stays on those hosts and the routes between them
     * are the whole cluster's, so the times are the same and a ring over k ranks builds k ranks' hosts. Otherwise the
     * request's topology.
     */
    private static Topology fabric(FlowRequest r, List<Gpu> placed, List<Job> others) {
        if (!r.failed().isEmpty() || r.topology().hostTemplate().isEmpty()) {
            return r.topology();
        }
        BitSet hosts = new BitSet();
        placed.forEach(g -> hosts.set(g.host()));
        others.forEach(j -> j.ranks().forEach(g -> hosts.set(g.host())));
        return r.topology().withHostsOnly(hosts.stream().toArray());
    }

    /**
     * The fabric's part of the bound, whatever the size: the leaves' uplinks (oversubscription, {@link FabricBound})
     * of the fabric simulated (built); a forced schedule's is any algorithm's.
     */
    private static double fabricBound(FlowRequest r, Topology fabric, List<Gpu> placed) {
        return r.override().schedule() == null ? FabricBound.busBw(fabric, placed, r.collective(), r.ncclEnv())
                : FabricBound.busBw(fabric, placed, r.collective(), false);
    }

    /**
     * The least time the busiest link needs for the bytes routed over it, us: bytes / capacity of the most loaded
     * link ({@link Timing#bottlenecks} are most utilized first, all over the same time).
     */
    static double busiestLinkUs(Timing t) {
        return t.bottlenecks().isEmpty() ? 0 : BusBandwidth.timeUs(t.bottlenecks().get(0).bytes(),
                t.bottlenecks().get(0).capacityGBps());
    }

    /** NCCL's choice for another job (asked only when the override leaves something to NCCL). */
    private FlowChoice choose(FlowRequest r, Collective c, long size, RedOp op, FlowChoice.Override o,
            List<Gpu> ranks) {
        Prediction nccl = o.schedule() != null && o.channels() != null ? null
                : chooser.predict(ncclRequest(r, c, size, op, ranks));
        return decide(r, c, nccl, o, ranks, chooser.version(), nccl == null || o.schedule() != null
                ? Optional.empty() : chooser.nvlsLoop(ncclRequest(r, c, size, op, ranks), nccl));
    }

    private static FlowChoice decide(FlowRequest r, Collective c, Prediction nccl, FlowChoice.Override o,
            List<Gpu> ranks, NcclVersion release, Optional<NvlsLoop.Call> loop) {
        return FlowChoice.decide(c, nccl, o, ranks, r.rankOrder(), release, loop,
                ChannelNics.of(r.topology(), ranks, r.ncclEnv(), release, r.rails())).orElseThrow(() ->
                new InvalidRequestException("no flow schedule for " + c.ncclName() + " (NCCL's choice "
                        + (nccl.algorithm() == null ? "p2p" : nccl.algorithm().ncclName()) + "); "
                        + "the flow backend simulates AllReduce, AllGather, ReduceScatter and AllToAll"));
    }

    /** NCCL sees the GPUs, not the rank numbers: its request lists them host by host, as the physical bound does. */
    private static PredictionRequest ncclRequest(FlowRequest r, Collective c, long size, RedOp op, List<Gpu> ranks) {
        List<Gpu> sorted = new ArrayList<>(ranks);
        sorted.sort(Comparator.comparingInt(Gpu::host).thenComparingInt(Gpu::index));
        return new PredictionRequest(r.topology(), sorted, c, size, r.dataType(), op, r.ncclEnv());
    }


    /** A placement the GPUs cannot hold (too many ranks, a hostfile offering too few) is a refused request. */
    private static List<Gpu> placed(PlaceCall call) throws InputException {
        try {
            return call.place();
        } catch (PlacementException e) {
            throw new InvalidRequestException(e.getMessage(), e);
        }
    }

    /** One placement call. */
    @FunctionalInterface
    private interface PlaceCall {
        List<Gpu> place() throws InputException;
    }

}
