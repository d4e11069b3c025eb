package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.HardwareClass;

/**
 * How much of {@link PipelineFill}'s generic pipeline fill (one chunk, or the per-channel per-rank slice when
 * smaller, at the per-channel rate) a Ring or Tree collective pays on one host: a factor of 2 / nRanks, so 1 for 2
 * ranks and 1/4 for 8. Used for collsim's <em>time</em> prediction only.
 *
 * <p>Why the fill should shrink with ranks. In NCCL's ring (NCCL 2.30.7 {@code src/device/all_reduce.h runRing})
 * every rank sends its own chunk in step 0 without waiting, and each later step waits only for the previous step's
 * slice from one neighbour, which that neighbour produced one slice earlier; with NCCL_STEPS = 8 slots per
 * connection ({@code src/include/device.h}) the steps overlap, and the per-step waits are already in NCCL's latency
 * (hwLat per step, fact sheet §2.4). What is left unoverlapped is a part of one slice at the start and end of the
 * call. The generic fill charges a whole per-rank slice, nBytes / (channels x nRanks), which is 1/(2(n-1)) of the
 * call's bandwidth time: for 2 ranks (one reduce step, one gather step) the measured runs need about that much
 * (D-info-1x2xA100-sxm4-80gb-nccl2.20.txt:124: 857.6 us at 128 MiB and 1445.2 us at 256 MiB leave an intercept of
 * about 230 us, one 2 MiB chunk at 9.6 GB/s per channel), for 4 to 8 ranks on PCIe much less. How much is left is
 * not in NCCL's model and not derived here: 2 / nRanks is collsim's choice of form, the simplest that keeps the
 * 2-rank fill and falls as 1/n; it has no fitted constant. A per-slice model of the kernels (and of the transports:
 * P2P read on NVLink, P2P write or SHM on PCIe) would replace it.
 *
 * <p>Evidence (collsim accuracy validation/src/test/resources/data, per-dataset median error of time at >= 1 MiB,
 * before -> after): 1x4 RTX 4090 12.5 -> 9.1 %, 1x6 RTX 4090 18.1 -> 11.2 %, 1x4 RTX PRO 6000 (P2P) 29.3 -> 22.3 %,
 * 1x8 RTX PRO 6000 (four runs) 11.2 / 11.9 / 39.0 / 39.9 -> 6.1 / 6.8 / 34.2 / 35.1 %; worse: 1x4 A100 PCIe
 * AllGather (one point) 23.4 -> 32.6 %, 1x4 RTX PRO 6000 (SHM) 3.6 -> 6.5 %, 8x A100 (Azure ND A100 v4, whose
 * mid sizes are already predicted too fast) 8.3 -> 11.0 %. The gain comes from 7 runs on 4 machines, so it holds
 * with any one dataset left out (the choice of the form, not a fitted constant). Median over the 58 healthy
 * datasets 12.8 -> 11.9 %, within 10 %: 21 -> 23. Multi-node calls are not scaled by it (their steps cross the
 * network proxy, {@link NetTransport}; a Ring's fill there is one network send,
 * {@link RingLoopFill#netSendShare}); NVLS and NVLSTree have their own loop model ({@link NvlsLoop}).
 *
 * <p>Checked against NCCL's kernels (docs/intra-node-pipeline.md): Simple posts data to the next rank a whole slice
 * at a time (NCCL 2.30.7 {@code src/device/prims_simple.h genericOp}; slice = buffSize / NCCL_STEPS x SLICESTEPS, 1
 * MiB for Ring AllReduce, {@code src/include/collectives.h}), LL and LL128 a line at a time ({@code prims_ll.h},
 * {@code prims_ll128.h}), and in a symmetric ring every slice's wait for its predecessor is hidden behind the
 * rank's previous slice, so the kernels alone leave no fill beyond NCCL's per-step latency. Measured against the
 * datasets, no fill (median of medians 15.4 %), one slice on every host (14.2 %), no fill for LL/LL128 (11.5 %) and
 * one slice on NVLink rings only (11.9 %; 2x H200 AllReduce and 8x A100 better, nothing else moving more than 0.4
 * points) all read worse than this form's 11.1 %: on PCIe hosts the fill also stands in for a steady-state rate
 * collsim over-predicts (1x2 L40S: 15.7 GB/s measured, 23.4 modelled), so this form stays until that rate is fixed.
 * For a Ring over SHM that rate is fixed by {@link ShmLinkShare}, and such a ring pays no generic fill.
 *
 * <p>A Ring AllReduce, AllGather or ReduceScatter on one host whose ring runs over PCIe with P2P (link class PCI,
 * {@link PerformanceModel#linkClass}) pays none either ({@link #scale(Algorithm, Collective, int, int,
 * HardwareClass)}): its rate is not over-predicted, so nothing is left for the fill to stand in for, and the kernels
 * leave none (above). Measured, the time minus the bytes at the plateau rate stays flat in size instead of growing
 * with the slice: 4x RTX PRO 6000, patched P2P on separate root ports, NCCL 2.29.7
 * (A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt): 22.5, 22.9, 23.8, 20.6 us at 1, 2, 4,
 * 16 MiB against a 46.65 GB/s plateau that collsim predicts within 2.2 %; 4x RTX 4090 P2P
 * (A-allreduce-1x4xRTX4090-p2p-driver-8gpu-box.txt): 27, 24, 25 us at 16, 32, 64 MiB, with collsim's rate 7 % below
 * the measured one. Rooted rings (Broadcast, Reduce) over P2P are chains whose last rank waits for the first slice
 * (over SHM the root's next call hides it: {@link ShmLinkShare#ringWithoutFill}), and NVLink
 * rings keep the form (the 2x A100 intercept above; 8x A100 Azure ND A100 v4 is predicted too fast at 1-128 MiB, see
 * docs/single-host-guesses.md). Before -> after (collsim accuracy, median error at >= 1 MiB): 1x4 RTX PRO 6000 (P2P)
 * 18.8 -> 11.8 %, 1x6 RTX 4090 10.9 -> 7.4 %, 1x4 RTX 4090 8.9 -> 7.7 %, 1x8 RTX PRO 6000 (four runs) 5.6 / 6.3 /
 * 29.3 / 30.1 -> 4.4 / 4.8 / 27.7 / 28.5 %; nothing else moves.
 *
 * <p><b>P2P read on Ampere NVLink.</b> A Simple Ring AllReduce, AllGather or ReduceScatter on one host over NVLink
 * between sm80 GPUs pays the whole generic fill (factor 1, {@link #scale(Algorithm, Collective, Protocol,
 * ChannelPlan, HardwareClass, NcclSettings)}): there NCCL runs P2P read (NCCL 2.30.7 {@code src/graph/paths.cc
 * ncclTopoCheckP2p}, both GPUs cudaCompCap 80 on an NVL path; {@code src/transport/p2p.cc}: the Simple buffer only,
 * on the sender, the receiver loading it across NVLink). NCCL_P2P_READ_ENABLE replaces that choice
 * ({@link #p2pRead}): 0 gives such a ring 2 / nRanks, 1 gives any one-host NVLink ring the whole fill. Read forced
 * on over PCIe keeps the PCIe rule above (no fill) and the P2P write rate of {@link PcieP2pShare}: no run measures
 * it. The 2 / nRanks form was chosen for the
 * PCIe hosts, which now pay none; on A100 NVSwitch rings the measured time past NCCL's latency and the plateau rate
 * is of the size of one chunk (or per-rank slice) at the per-channel rate: the 2-rank file above (one 2 MiB chunk at
 * 9.6 GB/s a channel), and 8 ranks one process per GPU (A-allreduce-1x8xA100-80GB-sxm-thanos-g8-vs-mpirun-sweep.txt
 * run 2, time less collsim's former prediction: +66, +50, +108, +128, +144, +145 us at 32 MiB-1 GiB, against a fill
 * of the slice x 3/4 more: +13, +27, +53, +107, +160, +160). The kernels leave no such fill in a symmetric ring
 * (docs/intra-node-pipeline.md), so this is a choice of form that the A100 files support, not a derived mechanism,
 * and it has no fitted constant. collsim accuracy, median error at >= 1 MiB, before -> after: thanos mpirun 5.8 ->
 * 3.9, thanos -g 8 17.6 -> 13.5, OCI BM.GPU4.8 -g 8 sweep 6.8 -> 4.4, dkh -g 8 26.8 -> 25.5, OCI 10 GiB (a1) 1.1 ->
 * 0.9, BM.GPU4.8 single size 1.2 -> 1.0; worse: gcm run 1 (NCCL 2.16.2, mpirun, faster than thanos by about 100 us
 * at >= 256 MiB on the same GPUs) 1.2 -> 3.6, OCI 10 GiB (b1) 0.2 -> 0.4. Median of medians 4.5 -> 3.9, within 3 %
 * 29 -> 28. The same factor on every one-host NVLink ring (P2P write too) read worse: Azure 4x GB200 2.9 -> 3.7
 * (64-256 MiB 9-14 % slow), OCI GB200 one tray 0.3 -> 0.7, within 3 % 29 -> 27, though 8x V100 gained 7.1 -> 6.2.
 * LL and LL128 write into the receiver under read too and keep 2 / nRanks.
 *
 * <p>Stateless and thread-safe.
 */
public final class IntraNodeFill {

    /**
     * The compute capability x 10 for which NCCL turns P2P read on over NVLink: 80, both GPUs (NCCL 2.30.7
     * {@code src/graph/paths.cc ncclTopoCheckP2p}, "Enable P2P Read for Ampere/NVLink only").
     */
    static final int AMPERE_READ_SM = 80;

    private IntraNodeFill() {
    }

    /**
     * @param a      algorithm
     * @param nNodes NCCL nodes of the communicator
     * @param nRanks ranks
     * @return the factor on the generic pipeline fill: 2 / nRanks for Ring and Tree on one host with at least 2
     *         ranks, else 1
     */
    public static double scale(Algorithm a, int nNodes, int nRanks) {
        boolean applies = (a == Algorithm.RING || a == Algorithm.TREE) && nNodes == 1 && nRanks >= 2;
        return applies ? 2.0 / nRanks : 1.0;
    }

    /**
     * As {@link #scale(Algorithm, int, int)}, with no fill for a Ring AllReduce, AllGather or ReduceScatter on one
     * host whose ring runs over PCIe (see the class note).
     *
     * @param a      algorithm
     * @param func   collective
     * @param nNodes NCCL nodes of the communicator
     * @param nRanks ranks
     * @param link   the call's link class ({@link PerformanceModel#linkClass})
     * @return 0 for such a ring, else {@link #scale(Algorithm, int, int)}
     */
    public static double scale(Algorithm a, Collective func, int nNodes, int nRanks, HardwareClass link) {
        return symmetricRing(a, func) && nNodes == 1 && link == HardwareClass.PCI ? 0 : scale(a, nNodes, nRanks);
    }

    /**
     * As {@link #scale(Algorithm, Collective, int, int, HardwareClass)}, with the whole generic fill (factor 1) for a
     * Simple Ring AllReduce, AllGather or ReduceScatter on one host over NVLink whose GPUs use P2P read
     * ({@link #p2pRead}: by default between Ampere GPUs; NCCL_P2P_READ_ENABLE overrides it): the Simple buffer lives
     * on the sender and the receiver loads it across NVLink (NCCL 2.30.7 {@code src/graph/paths.cc ncclTopoCheckP2p}:
     * read when the path is NVL and both GPUs have cudaCompCap 80; {@code src/transport/p2p.cc
     * p2pSendSetup}/{@code p2pRecvSetup}: only the Simple buffer moves, LL and LL128 keep writing into the receiver).
     * See the class note, "P2P read on Ampere NVLink", for the measured runs.
     *
     * @param a     algorithm
     * @param func  collective
     * @param p     protocol
     * @param plan  the channel plan (nodes, ranks, minimum and maximum SM)
     * @param link  the call's link class ({@link PerformanceModel#linkClass})
     * @param s     settings (NCCL_P2P_READ_ENABLE)
     * @return 1 for such a ring, else {@link #scale(Algorithm, Collective, int, int, HardwareClass)}
     */
    public static double scale(Algorithm a, Collective func, Protocol p, ChannelPlan plan, HardwareClass link,
            NcclSettings s) {
        return readRing(a, func, p, plan, link, s) ? 1 : scale(a, func, plan.nNodes(), plan.nRanks(), link);
    }

    /**
     * @return true for a Simple Ring AllReduce/AllGather/ReduceScatter on one host over NVLink whose GPUs use P2P
     *         read ({@link #p2pRead}; {@link #scale(Algorithm, Collective, Protocol, ChannelPlan, HardwareClass,
     *         NcclSettings)})
     */
    static boolean readRing(Algorithm a, Collective func, Protocol p, ChannelPlan plan, HardwareClass link,
            NcclSettings s) {
        return symmetricRing(a, func) && p == Protocol.SIMPLE && plan.nNodes() == 1 && link == HardwareClass.NVLINK
                && p2pRead(plan, link, s);
    }

    /**
     * Whether the one-host ring's GPU pairs use P2P read, as NCCL decides it per pair (NCCL 2.28-2.30
     * {@code src/transport/p2p.cc p2pGetInfo}): {@code ncclTopoCheckP2p} ({@code src/graph/paths.cc}) turns read on
     * for an NVL path whose two GPUs both have cudaCompCap 80 ({@link #AMPERE_READ_SM}), then NCCL_P2P_READ_ENABLE,
     * when set, replaces that choice for every P2P pair (0 write, 1 read).
     *
     * @param plan the channel plan (its minimum and maximum SM)
     * @param link the ring's link class ({@link PerformanceModel#linkClass})
     * @param s    settings (NCCL_P2P_READ_ENABLE)
     * @return true when the pairs read
     */
    static boolean p2pRead(ChannelPlan plan, HardwareClass link, NcclSettings s) {
        return s.p2pReadEnable().orElse(link == HardwareClass.NVLINK && plan.minSm() == AMPERE_READ_SM
                && plan.maxSm() == AMPERE_READ_SM);
    }

    private static boolean symmetricRing(Algorithm a, Collective func) {
        return a == Algorithm.RING && (func == Collective.ALL_REDUCE || func == Collective.ALL_GATHER
                || func == Collective.REDUCE_SCATTER);
    }
}
