package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.HardwareClass;

/**
 * A one-host Ring/Simple collective over NVLink P2P: the ring loop's primitive during which the link is idle, and
 * the link's own rate once that primitive is charged apart. Used for collsim's time prediction only.
 *
 * <p>What NCCL does (NCCL 2.20.5, 2.28.3 and 2.30.7 {@code src/device/all_reduce.h runRing}, {@code all_gather.h
 * runRing}, {@code reduce_scatter.h runRing}; {@code prims_simple.h}): each loop iteration of a channel runs, with all
 * the threads of its CTA and one after the other, a send-only primitive ({@code directSend}/{@code directCopySend},
 * {@code send}), the primitives that receive and send (AllGather nranks - 2, ReduceScatter nranks - 2, AllReduce
 * 2 nranks - 3, among them {@code directRecvReduceCopyDirectSend}) and a receive-only primitive ({@code directRecv},
 * {@code recvReduceCopy}). Without registered user buffers ({@code prims_simple.h loadRecvConn}: the direct flags
 * need {@code regUsed}, which nccl-tests and the executor do not set) every piece goes through the connection's
 * Simple buffer, and where that buffer lives decides which primitive leaves the link idle
 * ({@code src/transport/p2p.cc p2pSendSetup}/{@code p2pRecvSetup}, {@code src/graph/paths.cc ncclTopoCheckP2p}):
 * <ul>
 *   <li>P2P write (Volta, Hopper, Blackwell NVLink; log {@code via P2P/direct pointer} or {@code P2P/IPC}): the buffer
 *       is on the receiver, the sender's stores cross the link, and the receive-only primitive copies the rank's own
 *       buffer into its output, a copy inside the GPU;</li>
 *   <li>P2P read (both GPUs cudaCompCap 80 on an NVL path, {@link IntraNodeFill#p2pRead}; log {@code .../read}): the
 *       buffer is on the sender, the receiver's loads cross the link, and the send-only primitive copies the input
 *       into the rank's own buffer, a copy inside the GPU.</li>
 * </ul>
 * Either way one primitive per loop moves the rank's piece inside its GPU while its link carries nothing, and every
 * rank of the symmetric ring is in that primitive at the same time. Summed over the loops it copies the rank's piece
 * of the call, nBytes / nRanks bytes (nBytes the total buffer NCCL selects on: the AllGather output, the
 * ReduceScatter input, the AllReduce buffer), all channels at once, at the GPU's local copy rate
 * ({@link PerformanceParameters#localCopyGBps} x {@link LocalCopy#scale}): {@link #extraUs}. It is the largest share
 * where the loop has the fewest link primitives: a 2-rank AllGather or ReduceScatter has one, a 2-rank AllReduce two,
 * an 8-rank AllReduce fourteen. A Broadcast or Reduce is a chain: its ranks' receive-only or send-only primitives
 * overlap the other ranks' sends, and nothing is charged. The whole GPU's copy rate is taken, not a per-CTA one: each
 * channel's CTA keeps NCCL_SIMPLE_MAX_NTHREADS 512 threads x ncclCollUnroll() 8 loads of 16 B = 64 KiB in flight
 * (NCCL 2.28.3 {@code src/include/device.h}, sm80/sm90; {@code src/device/common_kernel.h reduceCopyPacks}), the
 * default 24 channels 1.5 MiB, about what the memory's bandwidth-latency product needs (an estimate: no measured file
 * isolates the copy of fewer CTAs; where few channels bind, the per-channel cap holds it, below).
 *
 * <p>The link's rate ({@link #linkFactor}): with that copy apart, the rest of the loop runs at NCCL's link figure x
 * {@link PerformanceParameters#bwEfficiency} (Simple 0.98, set on Ring AllReduce plateaus that held the copy) x
 * {@link #WRITE_LINK_FACTOR} or {@link #READ_LINK_FACTOR}, measured per P2P mode on the runs that isolate it (each
 * file's largest size, where latency and fill are below 1 % of the time, taken with the data's): the factor that makes
 * collsim's time equal the measured one with the copy charged.
 * <ul>
 *   <li>P2P write, 2x H200 NV18, NCCL 2.28.3, executor, out of place, 8 GiB (data/device/h200x2-2026-11-29, line 42
 *       of each file; busbw per byte each rank moves per direction; NCCL's figure 12 channels x 30 = 360 GB/s, x 0.98 =
 *       352.8; copy rate 2,100 GB/s): Broadcast 366.69 GB/s (collsim-broadcast.txt, a chain: no copy) gives
 *       366.69 / 352.8 = 1.0394; AllReduce 344.18 (collsim-all_reduce.txt): 2 / (2 / 344.18 - 1 / 2100) / 352.8 =
 *       1.0626; AllGather 301.50 (collsim-all_gather.txt): 1 / (1 / 301.50 - 1 / 2100) / 352.8 = 0.9979;
 *       ReduceScatter 310.70 (collsim-reduce_scatter.txt): 1.0336. Median 1.0365, rounded to 1.036.</li>
 *   <li>P2P read, 8x A100 SXM on NVSwitch, Ring AllReduce, the largest size (the 8-rank loop: fourteen link
 *       primitives, the copy nBytes / 8 at 2,100 x 2,039 / 4,800 = 892.1 GB/s for the 80 GB part, 680.3 for the
 *       40 GB one), the factor = collsim's time before the copy and this factor / (measured - copy): ND A100 v4 (80 GB,
 *       A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt, 8 GiB) 64185.6 / (64912.3 - 1203.6) = 1.0075; OCI
 *       BM.GPU4.8 (40 GB) A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-horovod-container-sweep.txt:25 at 8 GiB 1.0294,
 *       A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-roce-10GiB.txt:26 and :78 at 10 GiB 1.0154 and 1.0299; 80 GB
 *       A-allreduce-1x8xA100-80GB-sxm-thanos-g8-vs-mpirun-sweep.txt:25 and :74 at 4 GiB 1.0156 and 1.0172. Median
 *       1.0164, rounded to 1.016.</li>
 * </ul>
 * Leave-one-out (each value held out, the median of the others of its mode predicting it): write 0.6 % (Broadcast),
 * 2.8 (AllReduce), -4.0 (AllGather), -0.6 (ReduceScatter); read -1.0 to 1.4; mean |error| 1.2 %. One factor for both
 * modes (the median of all ten, 1.023) held out does worse, mean 1.9 %, every A100 value 1.2-2.1 % off: the modes
 * differ by more than the A100 files' spread. The 2-rank A100 AllReduce over P2P read
 * (D-info-1x2xA100-sxm4-80gb-nccl2.20.txt, largest size 512 MiB) was not in the fit: it checks the copy on the
 * read side.
 *
 * <p>Not charged, factor 1: on PCIe (a ring whose graph is not NVL, {@link PerformanceModel#linkClass}), where the
 * copy is a few percent of the link's time and the rates are measured on such rings ({@link PcieP2pShare}); over SHM
 * ({@link ShmLinkShare#shm}), where the link rate is measured per pattern; between NCCL nodes (the proxy thread and
 * the NIC move the data while the CTA copies); LL and LL128, whose table bandwidths (NCCL's LL 50 % factor, LL128's
 * 0.92) are empirical and taken as holding it; Tree, NVLS and point-to-point calls. Where the per-channel cap binds
 * ({@link PerformanceParameters#perChannelCap}, measured on 2-rank AllReduce runs whose CTAs made the copy too) the
 * copy is in the cap's time already: {@link PerformanceModel} charges it on the link's time only.
 *
 * <p>Stateless and thread-safe.
 */
public final class RingFinalRecv {

    /** The link's rate factor over P2P write (class comment: median of the four 2x H200 NV18 files, 1.0365). */
    static final double WRITE_LINK_FACTOR = 1.036;

    /** The link's rate factor over P2P read (class comment: median of the six 8x A100 plateaus, 1.0164). */
    static final double READ_LINK_FACTOR = 1.016;

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
     * @return microseconds the idle primitive of the call's ring loops takes: the copy of nBytes / nRanks at the
     *         local copy rate; 0 where not charged (the class comment)
     */
    public static double extraUs(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, double copyScale,
            Collective func, Algorithm a, Protocol p, long nBytes) {
        if (!applies(plan, s, func, a, p)) {
            return 0;
        }
        return nBytes / (double) plan.nRanks() / (1000.0 * pp.localCopyGBps() * copyScale);
    }

    /**
     * @param plan the channel plan
     * @param s    NCCL settings (P2P level, NCCL_P2P_READ_ENABLE)
     * @param func collective
     * @param a    algorithm
     * @param p    protocol
     * @return the factor on the link-limited bandwidth of a one-host Ring/Simple call over NVLink P2P (any ring
     *         collective: the Broadcast chain is where the write factor is measured): {@link #READ_LINK_FACTOR} where
     *         the pairs read ({@link IntraNodeFill#p2pRead}), else {@link #WRITE_LINK_FACTOR}; 1 elsewhere
     */
    public static double linkFactor(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p) {
        if (!nvlinkP2pRing(plan, s, a, p)) {
            return 1;
        }
        return IntraNodeFill.p2pRead(plan, HardwareClass.NVLINK, s) ? READ_LINK_FACTOR : WRITE_LINK_FACTOR;
    }

    /**
     * @return whether the call is a Ring/Simple AllReduce, AllGather or ReduceScatter of at least 2 ranks on one node
     *         whose ring graph is NVLink, its neighbours joined by P2P (not SHM)
     */
    static boolean applies(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p) {
        boolean ringFunc = func == Collective.ALL_REDUCE || func == Collective.ALL_GATHER
                || func == Collective.REDUCE_SCATTER;
        return ringFunc && nvlinkP2pRing(plan, s, a, p);
    }

    private static boolean nvlinkP2pRing(ChannelPlan plan, NcclSettings s, Algorithm a, Protocol p) {
        return a == Algorithm.RING && p == Protocol.SIMPLE && plan.nNodes() == 1 && plan.nRanks() >= 2
                && PerformanceModel.linkClass(plan) == HardwareClass.NVLINK && !ShmLinkShare.shm(plan, s);
    }
}
