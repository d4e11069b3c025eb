package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.HardwareClass;

/**
 * The time a one-host Ring/Simple AllGather, ReduceScatter or AllReduce over P2P spends in the last primitive of
 * each ring loop, during which its channels move nothing over the link. Used for collsim's time prediction only.
 *
 * <p>What NCCL does (NCCL 2.28.3 and 2.30.7 {@code src/device/all_gather.h runRing}, {@code reduce_scatter.h
 * runRing}, {@code all_reduce.h runRing}): each loop iteration of a channel runs, with all the threads of its CTA and
 * one after the other, the primitives that send to the next rank (AllGather: {@code directSend}/{@code
 * directCopySend}, nranks - 2 x {@code directRecvCopyDirectSend}; ReduceScatter: {@code send}, nranks - 2 x
 * {@code recvReduceSend}; AllReduce: 2 x (nranks - 1) of them) and then one receive-only primitive that sends
 * nothing: {@code directRecv} (AllGather, AllReduce) or {@code recvReduceCopy} (ReduceScatter), which copies the
 * piece the previous rank wrote into this rank's receive buffer ({@code src/transport/p2p.cc}: on Hopper NCCL
 * writes, the log says {@code via P2P/direct pointer} without {@code /read}) into the user's output buffer: a copy
 * inside the GPU's memory. Over P2P the CTA's own loads and stores move the data across the link, so while the
 * channel runs that last primitive its link is idle, and every rank of the symmetric ring is in that primitive at
 * the same time. Summed over the loops, that primitive copies the rank's whole piece of each channel: nBytes /
 * nRanks bytes (nBytes being the total buffer NCCL selects on, the AllGather output, the ReduceScatter input, the
 * AllReduce buffer), all channels at once at the GPU's local copy rate ({@link PerformanceParameters#localCopyGBps}
 * x {@link LocalCopy#scale}). The share of the loop this costs is largest where the loop has the fewest sending
 * primitives: a 2-rank AllGather or ReduceScatter has one ({@code calcCollChunking}'s nstepsPerLoop = nranks - 1),
 * a 2-rank AllReduce two, an 8-rank AllReduce fourteen.
 *
 * <p>Not charged: on PCIe (a ring whose graph is not NVL, {@link PerformanceModel#linkClass}), where the copy is a
 * few percent of the link's time and the rates are measured on such rings ({@link PcieP2pShare}); over SHM
 * ({@link ShmLinkShare#shm}), where the link rate is already measured per pattern; between
 * NCCL nodes (the proxy thread and the NIC move the data while the CTA copies), and for LL and LL128, whose table
 * bandwidths (NCCL's LL 50 % factor, LL128's 0.92) are empirical and taken as including it. With fewer channels than
 * the copy needs the CTA rate would bind first; charged all the same, so that more channels are never slower.
 *
 * <p>What is charged: collsim's Simple efficiency ({@link PerformanceParameters#bwEfficiency}, 0.98) was set on
 * Ring AllReduce plateaus, so it already holds an AllReduce's own receive-only primitives as a share of its link time.
 * For the same nBytes an AllGather's or ReduceScatter's link carries half an AllReduce's bytes ((nranks - 1) / nranks
 * of nBytes against 2 (nranks - 1) / nranks) but copies the same piece, nBytes / nranks: the efficiency covers half
 * of its copy, and the other half is charged here. An AllReduce is charged nothing.
 *
 * <p>Measured (data/device/h200x2-2026-11-29, 2x H200 NV18, NCCL 2.28.3, executor, out-of-place busbw at 8 GiB,
 * line 42 of each file): per byte each rank moves per direction, Broadcast (a chain: no receive-only primitive on
 * either rank) 366.69 GB/s (collsim-broadcast.txt), AllReduce 344.18 (collsim-all_reduce.txt), ReduceScatter 310.70
 * (collsim-reduce_scatter.txt), AllGather 301.50 (collsim-all_gather.txt): 6.5 %, 18.0 % and 21.6 % more time
 * than the chain. One idle copy of the rank's piece at 2,100 GB/s beside a link of NCCL's 360 GB/s per direction
 * adds 360 / 2,100 / 2 = 8.6 % to the AllReduce (its link carries twice the piece) and 360 / 2,100 = 17.1 % to
 * the AllGather and ReduceScatter: 8.6 % more than the AllReduce, the half charged here.
 *
 * <p>Stateless and thread-safe.
 */
public final class RingFinalRecv {

    private RingFinalRecv() {
    }

    /**
     * @param plan      the channel plan
     * @param s         NCCL settings (P2P level, for SHM)
     * @param pp        performance parameters ({@code localCopyGBps})
     * @param copyScale the GPU's local copy rate over the H200's ({@link LocalCopy#scale})
     * @param func      collective
     * @param a         algorithm
     * @param p         protocol
     * @param nBytes    bytes NCCL selects on (total buffer for AllGather/ReduceScatter)
     * @return microseconds the last receive-only primitives of the call's ring loops add beyond an AllReduce's
     *         share (half the copy of nBytes / nRanks for AllGather and ReduceScatter), 0 where not charged
     */
    public static double extraUs(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, double copyScale,
            Collective func, Algorithm a, Protocol p, long nBytes) {
        if (!applies(plan, s, func, a, p)) {
            return 0;
        }
        return nBytes / (double) plan.nRanks() / 2 / (1000.0 * pp.localCopyGBps() * copyScale);
    }

    /**
     * @return whether the call is a Ring/Simple AllGather or ReduceScatter of at least 2 ranks on one node whose ring
     *         graph is NVLink, its neighbours joined by P2P (not SHM); an AllReduce's share is in the Simple
     *         efficiency already (the class comment)
     */
    static boolean applies(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p) {
        boolean ringFunc = func == Collective.ALL_GATHER || func == Collective.REDUCE_SCATTER;
        return ringFunc && a == Algorithm.RING && p == Protocol.SIMPLE && plan.nNodes() == 1 && plan.nRanks() >= 2
                && PerformanceModel.linkClass(plan) == HardwareClass.NVLINK && !ShmLinkShare.shm(plan, s);
    }
}
