package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.CpuKind;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.PathType;
import dev.collsim.topology.paths.PathFinder;

/**
 * The link time of a Ring AllReduce, AllGather or ReduceScatter on one host whose GPU pairs NCCL connects with the SHM
 * transport: one more link phase per loop than the ring's steps, because a rank's receives cross PCIe too.
 *
 * <p>What NCCL does. A pair farther apart than the P2P level ({@link #shm}) is routed through the CPU and connected
 * by SHM (NCCL 2.30.7 {@code src/graph/paths.cc ncclTopoComputePaths}, {@code addInterStep}). SHM puts every
 * protocol's FIFO in host memory on the receiver's side (NCCL 2.29.7 and 2.30.7 {@code src/transport/shm.cc}:
 * NCCL_SHM_LOCALITY default 2, the receive buffers' sizes added to the receiver's shared host segment) and, by
 * default, lets the GPUs' kernels move the data themselves (NCCL_SHM_USE_CUDA_MEMCPY default 0 in 2.29.7; the copy
 * engine path is gone in 2.30): the sender's kernel stores into host memory (its PCIe link, upstream) and the
 * receiver's kernel loads from host memory (its PCIe link, downstream). Over P2P on PCIe (write mode) the sender
 * stores into the receiver's GPU memory and the receiver reads its own memory, so only the send crosses a link.
 *
 * <p>The ring's kernel runs a loop of primitives with the same threads one after the other (NCCL 2.29.7
 * {@code src/device/all_reduce.h runRing}: {@code directSend}, nRanks - 2 x {@code directRecvReduceDirectSend},
 * {@code directRecvReduceCopyDirectSend}, nRanks - 2 x {@code directRecvCopyDirectSend}, {@code directRecv};
 * {@code all_gather.h}: send, nRanks - 2 x recv-copy-send, recv; {@code reduce_scatter.h}: send, nRanks - 2 x
 * recv-reduce-send, recv-reduce-copy), and a rank's receive of step k waits for its predecessor's send of step k, so
 * the ranks run the same primitive at the same time. With c bytes per step and U the link rate per direction:
 * <pre>
 *   P2P: every primitive that sends loads the links both ways (own send up, predecessor's send down):
 *        steps x c / U per loop (the last receive is a local copy)
 *   SHM: the first send loads only the upstream direction, the last receive only the downstream one, every
 *        primitive between them both: (steps + 1) x c / U per loop
 *   factor = steps / (steps + 1),  steps = 2 (nRanks - 1) for AllReduce, nRanks - 1 for AllGather/ReduceScatter
 * </pre>
 * Broadcast and Reduce are chains (one primitive per rank per chunk, {@code broadcast.h}, {@code reduce.h}): the
 * root only sends, the last rank only receives, the others receive and send in one primitive, so both directions
 * stay busy and the factor is 1; so is Tree (its up and down halves run on separate warps, {@code runTreeSplit}) and
 * p2p (send and receive warps run side by side, {@code sendrecv.h}). The factor assumes the channels stay in step:
 * they start together with equal work and nothing ties one channel to another, so drift can only bring it closer to 1.
 *
 * <p>The extra phase is the ring's unoverlapped start and end, paid in every loop; such a ring pays no generic
 * pipeline fill on top ({@link IntraNodeFill}, whose own note says the kernels leave none beyond NCCL's per-step
 * latency and that on PCIe hosts it stood in for an over-predicted rate). Measured intercepts (time minus bytes at
 * the measured plateau rate) agree: 2x RTX 2080 Ti AllReduce 15-17 us from 1 to 4 MiB, NCCL's latency 8.4 + 2 x 5.7
 * = 19.8 us; 4x RTX PRO 6000 SHM 38-46 us from 1 to 4 MiB, NCCL's 8.4 + 6 x 5.7 = 42.6 us (NCCL 2.29.7
 * {@code src/graph/tuning.cc}: Ring Simple base 8.4, PCI 5.7 per step).
 *
 * <p>Measured, 2x RTX 2080 Ti behind one PCIe Gen3 switch, P2P unsupported
 * (validation/src/test/resources/data/A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt,
 * 1 GiB rows): Broadcast 11.09 GB/s busbw, AllReduce 4.00 (factor 2/3 of half the uplink: 11.09 / 2 x 2/3 = 3.70),
 * AllGather 3.79 (1/2: 2.77; 3.16-3.39 from 4 MiB to 512 MiB); 4x RTX PRO 6000 on separate root ports, the same
 * host and NCCL with SHM and with P2P (A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt, 128M
 * row): SHM 37.60 against P2P 46.65 = 0.81 (factor 6/7 = 0.857). Stateless and thread-safe.
 */
public final class ShmRingPhases {

    private ShmRingPhases() {
    }

    /**
     * Whether NCCL connects the ring's GPU pairs on one host with SHM: the ring graph's intra-node path goes through
     * the CPU (PHB or SYS) and is farther than the P2P level in force ({@link PathFinder.Options#p2pLevelInForce}, the
     * host's GPUs taken as the node's ranks).
     *
     * @param plan the channel plan
     * @param s    settings (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL)
     * @return true for SHM on one node
     */
    public static boolean shm(ChannelPlan plan, NcclSettings s) {
        if (!throughCpu(plan)) {
            return false;
        }
        PathType level = PathFinder.Options.of(s).p2pLevelInForce(plan.cpu() == CpuKind.AMD_X86,
                plan.maxLocalRanks());
        return plan.graphs().ring().typeIntra().ordinal() > level.ordinal();
    }

    /**
     * Whether the ring graph of a one-node communicator goes through the CPU: its intra-node path type is PHB or SYS
     * (over SHM, or P2P where the P2P level allows it).
     *
     * @param plan the channel plan
     * @return true for a one-node ring through the CPU
     */
    public static boolean throughCpu(ChannelPlan plan) {
        GraphSummary ring = plan.graphs().ring();
        if (plan.nNodes() != 1 || ring == null || !ring.present()) {
            return false;
        }
        PathType t = ring.typeIntra();
        return t == PathType.PHB || t == PathType.SYS;
    }

    /**
     * @param plan the channel plan
     * @param s    settings
     * @param func collective
     * @param a    algorithm
     * @return steps / (steps + 1) for a Ring AllReduce, AllGather or ReduceScatter over SHM on one host of at least 2
     *         ranks; 1 otherwise
     */
    public static double factor(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a) {
        int steps = switch (func) {
            case ALL_REDUCE -> 2 * (plan.nRanks() - 1);
            case ALL_GATHER, REDUCE_SCATTER -> plan.nRanks() - 1;
            default -> 0;
        };
        if (a != Algorithm.RING || steps < 1 || !shm(plan, s)) {
            return 1.0;
        }
        return steps / (steps + 1.0);
    }
}
