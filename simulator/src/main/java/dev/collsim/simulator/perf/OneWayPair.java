package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;

/**
 * The link-limited bandwidth of a 2-rank Ring Broadcast or Reduce on one host whose GPU pair NCCL connects with the
 * SHM transport ({@link ShmLinkShare#shm}: the path goes through the CPU, beyond the P2P level in force or P2P
 * unsupported): only one of the ring's two hops carries data. NCCL's ring graph search (NCCL 2.30.7
 * {@code src/graph/search.cc}) charges every hop of the ring on the links it crosses, so two GPUs behind one PCIe
 * switch whose traffic is diverted through the CPU ({@code src/graph/paths.cc addInterStep}) load the switch's uplink
 * twice in each direction (hop 0 to 1 and hop 1 to 0), and the graph's bandwidth is half the uplink. A Broadcast or
 * Reduce of 2 ranks is a chain from the root ({@code src/device/broadcast.h}, {@code reduce.h} {@code runRing}): one
 * hop, one direction, the whole path bandwidth (the pair path's rate, {@link CpuRouteRate#pairBw}). Measured: 2x RTX
 * 2080 Ti behind one PCIe Gen3 switch, P2P unsupported, Broadcast 11.09 GB/s busbw at 1 GiB against AllReduce 4.00
 * (/work/shared/data/A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt lines 47 and
 * 131): the one-way chain runs at the uplink's rate, the ring at well under half of it.
 *
 * <p>Stateless and thread-safe.
 */
public final class OneWayPair {

    private OneWayPair() {
    }

    /**
     * @param plan       the channel plan
     * @param s          settings (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL: whether the pair is SHM)
     * @param func       collective
     * @param a          algorithm
     * @param linkAlgBw  collsim's link-limited algorithm bandwidth from NCCL's graph, GB/s
     * @param efficiency achieved fraction of the link bandwidth for the protocol ({@code bwEfficiency})
     * @return for a 2-rank Ring Broadcast/Reduce on one host over SHM, the larger of linkAlgBw and the GPU pair path's
     *         rate x efficiency (busBw = algBw for these); linkAlgBw otherwise, GB/s
     */
    public static double linkAlgBw(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, double linkAlgBw,
            double efficiency) {
        boolean rooted = func == Collective.BROADCAST || func == Collective.REDUCE;
        if (a != Algorithm.RING || !rooted || plan.nRanks() != 2 || !ShmLinkShare.shm(plan, s)) {
            return linkAlgBw;
        }
        return Math.max(linkAlgBw, CpuRouteRate.pairBw(plan) * efficiency);
    }
}
