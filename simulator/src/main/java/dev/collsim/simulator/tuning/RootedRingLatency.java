package dev.collsim.simulator.tuning;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.topology.PathType;

/**
 * The latencies collsim's time charges a Broadcast/Reduce ring (a rooted ring): one hop where its channels run ahead,
 * hop by hop where they do not. Only the time reads these, so they read the tables the time reads ({@link
 * RemeasuredLatency#forTime}); NCCL's own Broadcast/Reduce latency, which its choice reads, stays in
 * {@link NcclTuningModel}.
 *
 * <p>Stateless.
 */
public final class RootedRingLatency {

    private RootedRingLatency() {
    }

    /**
     * NCCL's Broadcast/Reduce Ring latency when the ring's channels share one order: baseLat[Ring][p] + one step of
     * hwLat[hw][Ring][p], hw NET between nodes, else NVLINK or PCI by the ring graph's typeIntra (NCCL 2.30.7
     * {@code src/graph/tuning.cc ncclTopoTuneModel}, the sameChannels branch). collsim also uses it for a call that
     * runs on one channel, whose one ring has one order whatever the graph's other channels do. Only collsim's time
     * reads it, so on the tables the time reads ({@link RemeasuredLatency#forTime}).
     *
     * @param in the communicator
     * @param p  protocol
     * @return microseconds
     */
    public static double rootedRingOneHopLatency(TuningInput in, Protocol p) {
        LatencyTable c = RemeasuredLatency.forTime(in);
        HardwareClass hw = in.nNodes() > 1 ? HardwareClass.NET
                : in.graphs().ring().typeIntra() == PathType.NVL ? HardwareClass.NVLINK : HardwareClass.PCI;
        return c.baseLatency(Algorithm.RING, p) + c.hwLatency(hw, Algorithm.RING, p);
    }

    /**
     * A Broadcast/Reduce Ring's latency hop by hop, as NCCL composes every other Ring's: baseLat[Ring][p] +
     * (nRanks - nInter) x max(intraLat, netOverhead) + nInter x interLat, with nInter = nNodes - 1 (NCCL 2.30.7
     * {@code src/graph/tuning.cc ncclTopoTuneModel}, the branch for rings other than Broadcast and Reduce; nsteps =
     * nRanks as NCCL counts a rooted ring's). Not NCCL's figure for Broadcast/Reduce (which charges every step at the
     * network's hwLat, and for Simple at hwLat[NET][Tree][Simple], "some chunk latency, waiting for proper chunk
     * modeling"): collsim's time uses it where it models the chunks itself ({@code perf.RingLoopFill}).
     *
     * @param in the communicator
     * @param p  protocol
     * @return microseconds
     */
    public static double rootedRingHopLatency(TuningInput in, Protocol p) {
        GraphSummary g = in.graphs().ring();
        LatencyTable c = RemeasuredLatency.forTime(in);
        double lat = NcclTuningModel.latency(in, c, Collective.ALL_GATHER, Algorithm.RING, p, g);
        return lat + ringStepLatency(in, p, g, c);
    }

    /** @return one intra-node step of the Ring composition (a rooted ring's nRanks steps, AllGather's nRanks - 1) */
    private static double ringStepLatency(TuningInput in, Protocol p, GraphSummary g, LatencyTable c) {
        HardwareClass intraHw = g.typeIntra() == PathType.NVL ? HardwareClass.NVLINK : HardwareClass.PCI;
        double intraLat = c.hwLatency(intraHw, Algorithm.RING, p);
        if (in.constants().rules().early() && in.nNodes() > 1 && p == Protocol.LL) {
            intraLat *= EarlyTuningTables.LL_MULTI_NODE_INTRA_FACTOR;
        }
        double netOverhead = 0;
        if (in.nNodes() > 1 && !in.constants().rules().early()) {
            netOverhead = in.settings().netOverheadUs().orElse(in.constants().netOverhead(in.cpu()))
                    * (p == Protocol.SIMPLE ? 3 : 1);
        }
        return Math.max(intraLat, netOverhead);
    }
}
