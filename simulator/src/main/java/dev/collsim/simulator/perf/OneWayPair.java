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
 * (validation/src/test/resources/data/A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt
 * lines 47 and 131): the one-way chain runs at the uplink's rate, the ring at well under half of it.
 *
 * <p>The one-way rate, NCCL's pair path x the protocol's efficiency (12 x 0.98 = 11.76 GB/s on that Gen3 pair), is an
 * assumption; with each channel's per-step waits ({@link ShmStepWaits#rootedUs}) the call moves 11.17, the 11.09
 * measured within 1 %. What bounds it physically is the receiver's downstream, which carries the
 * read completions of its loads (PCI Express Base Specification 3.0 section 2.3.1.1: a Root Complex returns a read in
 * completions split at a 64- or 128-byte Read Completion Boundary or merged up to Max_Payload_Size; 20 bytes of
 * framing, header and LCRC each): 64-byte completions allow 15.75 x 64 / 84 = 12.0 GB/s on Gen3 x16, 128-byte ones
 * 13.6, less the link's Ack and flow-control DLLPs, whose rate the specification leaves to the implementation. Which
 * the host returns is not in the file, and the one host the project measured (an H100 on Gen5, loads alone at 49.5-50.6
 * GB/s, data/device/h100-ll128read.txt) returns more than 64 bytes, so no derate is taken from this single file
 * (docs/single-host-guesses.md section 8).
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
