package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.CpuKind;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.PathType;
import dev.collsim.topology.paths.PathFinder;

/**
 * The share of a GPU's PCIe link that NCCL's SHM transport moves per direction on one host, by the direction pattern
 * of each GPU's traffic: a GPU whose kernel stores to host memory and loads from host memory in the same step
 * (duplex) moves {@link #duplexShare} of the link's rate each way; one that only stores or only loads (one-way) moves
 * the whole rate. The call runs at its busiest GPU's pattern. Which GPUs store and which load comes from the ring
 * graph's orders, hop by hop ({@link ChannelPlan#ringShmOneWay}): where only some hops are SHM (NVLink pairs joined
 * through the CPU, P2P across them refused) and one order runs on every channel, each GPU only stores or only loads
 * over SHM: one-way, whatever the collective; the patterns below are those of a ring whose every hop is SHM.
 *
 * <p>What NCCL does. A pair farther apart than the P2P level ({@link #shm}) is routed through the CPU and connected
 * by SHM (NCCL 2.30.7 {@code src/graph/paths.cc ncclTopoComputePaths}, {@code addInterStep}). SHM puts every
 * protocol's FIFO in host memory on the receiver's side (NCCL 2.29.7 and 2.30.7 {@code src/transport/shm.cc}:
 * NCCL_SHM_LOCALITY default 2) and, by default, lets the GPUs' kernels move the data themselves
 * (NCCL_SHM_USE_CUDA_MEMCPY default 0 in 2.29.7; the copy engine path is gone in 2.30): the sender's kernel stores
 * into host memory (its PCIe link, upstream) and the receiver's kernel loads from host memory (downstream, PCIe
 * non-posted reads). Patterns (NCCL 2.29.7 {@code src/device}): a Ring AllReduce / AllGather / ReduceScatter rank
 * receives and sends in every step but its first and last ({@code all_reduce.h runRing}, {@code all_gather.h},
 * {@code reduce_scatter.h}): duplex, but for a 2-rank AllGather or ReduceScatter, which has no such middle step
 * ({@link #ALTERNATING_SHARE}); the one-node Tree chain's ranks send up and receive down at once on separate
 * warps ({@code all_reduce.h runTreeSplit}): duplex; p2p (AllToAll, SendRecv) runs send and receive warps side by
 * side ({@code sendrecv.h}): duplex on split warps ({@link #p2pShare}); a Ring Broadcast / Reduce is a chain
 * ({@code broadcast.h}, {@code reduce.h}):
 * the root only stores and the last rank only loads, so a 2-rank one is one-way ({@link OneWayPair}), and with more
 * ranks the middle ranks are duplex.
 *
 * <p>The share: no source found for its size (searched NVIDIA's NCCL and CUDA documentation, PCIe read-completion
 * and posted-write overheads, published GPU zero-copy host-memory figures; TLP and DLLP overheads alone cost a few
 * percent, not a third). One mechanism the PCIe specification does give (PCI-SIG base specification, ordering
 * rules: a non-posted request may not pass a posted write in the same direction) is that a GPU's read requests queue
 * upstream behind its own posted writes, so its reads wait longer while it stores; how much that costs depends on
 * the GPU's reads in flight and the host's latency, which no document gives. So the share is measured, by the PCIe
 * generation of the GPUs' links ({@link #duplexShare}), as busbw (or the probe's rate each way) over 0.98
 * (bwEfficiencySimple) of NCCL's PCIe figure per GPU and direction (NCCL 2.30.7 {@code src/graph/topo.h}: Gen3 x16
 * 12 GB/s, Gen4 24, Gen5 48; for two GPUs behind one switch the uplink's half, as NCCL's ring graph charges it).
 * Gen3 and Gen4: every duplex SHM run the project holds (files under validation/src/test/resources/data):
 * <pre>
 *   2x L40S Ring/Simple AllReduce, 128 MiB        15.67 / (24 x 0.98)  = 0.666  (A-allreduce-1x2xL40S-..., line 47)
 *   2x L40S Tree/Simple AllReduce, 128 MiB        14.81 / 23.52        = 0.630  (same file, run 3; 0.651 less its
 *                                                  root's extra step waits, {@link ShmStepWaits#treePairUs}: 1 MiB a
 *                                                  channel in 141.60 us, 136.88 without one chain of 4.728 us)
 *   2x RTX 2080 Ti Ring AllReduce, 1 GiB           4.00 / (6 x 0.98)   = 0.680  (A-allreduce-allgather-..., line 47)
 *   median 0.666 (with the Tree's 0.651 as with its 0.630); leaving each file out: 0.680 (L40S file out), 0.659
 *   (RTX 2080 Ti file out; 0.648 with the Tree's 0.630)
 * </pre>
 * Gen5 ({@link #DUPLEX_LINK_CEILING}): this project's probe on a lent H100 (Simple's loads from and stores to pinned
 * host memory at once), no data file; the one Gen5 SHM file checks it,
 * 4x RTX PRO 6000 Ring AllReduce (SHM) at 128 MiB: 37.60 / (48 x 0.98) = 0.799, 2 % below the probe's 0.815.
 * Whether the link generation or the GPU generation (Turing and Ada against Hopper and Blackwell) sets the
 * difference is not known: both split the runs in hand the same way.
 * (An earlier median of five, 0.666, counted the 2x RTX 2080 Ti AllGather, 3.79 / 5.88 = 0.645 at 1 GiB, as duplex;
 * NCCL's kernel says it is not: {@link #ALTERNATING_SHARE}. A later median of four, 0.673, counted the Gen5 run with
 * the others.)
 * against the one-way 2x RTX 2080 Ti Broadcast, 11.09 / 11.76 = 0.943. Checked out of sample on the 4-GPU run of
 * the same FarmShare host (A-allreduce-1x4xL40S-..., not used for the figure): Ring AllReduce 14.61-15.41 / 23.52 =
 * 0.62-0.655, near it; its Tree chain's middle ranks moved 2 x 14.05 / 1.5 / 23.52 = 0.797, like the Gen5 figure,
 * which says the share is not the direction pattern and the generation alone (see docs/single-host-guesses.md
 * section 1). It replaces a phase factor steps / (steps + 1) (the ring's unoverlapped first send and last receive),
 * which fit the 2-rank AllReduces but said 6/7 for the 4-rank L40S ring (measured 0.62) and 1 for the 2-rank Tree
 * (0.63).
 *
 * <p>A Ring AllReduce / AllGather / ReduceScatter over SHM pays no generic pipeline fill ({@link IntraNodeFill},
 * whose own note says the kernels leave none beyond NCCL's per-step latency): measured intercepts (time minus bytes
 * at the measured plateau rate) are a latency alone, no fill: 2x RTX 2080 Ti AllReduce 15-17 us from 1 to 4 MiB,
 * 4x RTX PRO 6000 SHM 38-46 us from 1 to 4 MiB, against NCCL's base 8.4 us (NCCL 2.29.7 {@code src/graph/tuning.cc})
 * + 1.0 (launch) + 2 and 6 steps of 4.73 us over SHM ({@link PcieSimpleStep}): 18.9 and 37.8 us. Neither does a
 * rooted Ring Broadcast / Reduce over SHM: its root runs ahead into the next call ({@link #ringWithoutFill}).
 * Stateless and thread-safe.
 */
public final class ShmLinkShare {

    /**
     * Share of a GPU's PCIe link per direction when its kernel stores to and loads from host memory in the same
     * step over SHM, on a PCIe Gen3 or Gen4 link (or one of unknown generation): the median of the three measured
     * duplex SHM runs of such links in the class note (no source found for its size).
     */
    public static final double DUPLEX_SHARE = 0.666;

    /**
     * Share of a GPU's PCIe link per direction, all its connections together, when its kernel stores to host memory
     * and loads from host memory at once: the link's own duplex ceiling, which binds the one-host Tree chain's middle
     * ranks ({@link #chainShare}) and, on a PCIe Gen5 link, a ring's hop too ({@link #duplexShare}: there the measured
     * ring moves it, where Gen3/Gen4 rings move {@link #DUPLEX_SHARE}). The probe's loads alone moved 49.5-50.6 GB/s
     * and its stores alone 51.9-52.8 (1.05-1.12 of 47.04), so the drop is the mix, not either direction; the probe's
     * LL128 lines, not used for it, check it with the reload ({@link #ll128Reload}): a Gen5 ring's LL128 moves
     * 48 x 0.92 x 0.96 x 0.815 x 2/3 = 23.0 GB/s each way, the probe's duplex LL128 loop 22.2-22.6. Measured by the project's probe {@code executor/probes/ll128read} (test
     * {@code simplerw}: 512-thread blocks loading 16-byte words from one pinned host buffer and storing them to
     * another, 8 per thread in flight, as a Simple rank over SHM does) on a lent H100 (PCIe Gen5 x16, one NUMA node,
     * {@code data/device/h100-ll128read.txt}, lines {@code test=simple}), over 0.98 x 48 GB/s (bwEfficiencySimple x
     * NCCL's Gen5 x16 figure, the normalisation of {@link #DUPLEX_SHARE}): rw_GBps_each_way at 2, 4, 8, 16, 32 and
     * 132 blocks 37.82, 38.20, 37.29, 40.00, 38.50, 40.39 = 0.804, 0.812, 0.793, 0.850, 0.818, 0.859; median 0.815
     * (one block, 26.0 GB/s, is one channel's read latency, not the link; NCCL runs at least 2 channels here).
     * Leaving each block count out: 0.812-0.818. Checked, not fitted: the 4x RTX PRO 6000 SHM ring on one NUMA node
     * (A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt, Gen5) moved 37.60 / 47.04 = 0.799; the
     * 4x L40S chain's middle ranks (A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt line 231,
     * NCCL_ALGO=tree, 128 MiB) 2 x 9.37 / 23.52 = 0.797.
     */
    public static final double DUPLEX_LINK_CEILING = 0.815;

    /**
     * Share of a GPU's PCIe link per direction in one channel's phase of a 2-rank Ring AllGather or ReduceScatter over
     * SHM when the call's other channel is in the same phase: both store (or both load) through the same direction
     * at the one-way rate ({@link OneWayPair}, the whole link), half of it each. The phases, from NCCL's kernels
     * (2.28.9 to 2.30.7 {@code src/device/all_gather.h runRing}: {@code directSend} (or {@code directCopySend}), the
     * {@code j = 1 .. nranks - 2} loop of {@code directRecvCopyDirectSend}, then {@code directRecv};
     * {@code reduce_scatter.h runRing}: {@code send}, the {@code j = 2 .. nranks - 1} loop of {@code recvReduceSend},
     * then {@code recvReduceCopy}): with 2 ranks the loop is empty, so each chunk is one primitive that only stores to
     * host memory, then one that only loads from it, run one after the other by the channel's threads, both ranks
     * storing at once and loading at once. How two channels' phases meet is {@link #alternatingShare}.
     */
    public static final double ALTERNATING_SHARE = 0.5;

    /**
     * LL128's share of the link relative to Simple's when a GPU stores and loads over SHM in the same step (duplex):
     * 2/3, reading {@link #DUPLEX_SHARE} as one budget for both directions of the GPU's traffic through the host (a
     * line stored plus a line loaded per payload line for Simple, one stored plus two loaded for LL128: 2 / 3). No
     * source decides between this and a per-direction reading (the loads' direction alone at the duplex share: 1/2):
     * both reproduce every measured Simple pattern (duplex 0.666 on Gen3/Gen4, one-way 0.943 of the link). The probe
     * {@code executor/probes/ll128read} ran once on a lent H100 (PCIe Gen5, {@code data/device/h100-ll128read.txt}):
     * the reload halves LL128's read rate (reload1 25.0 vs reload0 50.0 GB/s of lines at 8-16 CTAs), adding the
     * sender's stores costs little (send_data 22.2-22.6 GB/s), and Simple's loads and stores at once move 37.3-40.4
     * GB/s each way: LL128 with its stores gives 0.56-0.60 of Simple's duplex rate, where this rule gives 2/3 x 0.92 x
     * 0.96 = 0.59 and the per-direction 1/2 gives 0.44, so 2/3 stands (neither reading holds literally: Simple's
     * duplex each way is 0.78 of its loads alone on that host). Checked, not fitted: the forced LL128 runs of the
     * 2x / 4x L40S SHM files measure 8.89 / 9.93 GB/s busbw at 128 MiB against 9.41 with 2/3 and 7.06 with 1/2.
     * A duplex Ring/LL128 now takes this budget on LL128's own line rate, next to its loop's steps
     * ({@link ShmRingPhases}: 8.82 and 9.79).
     */
    static final double DUPLEX_LL128 = 2.0 / (1 + ShmLinkShare.LL128_READS_PER_LINE);

    /**
     * Times the receiving GPU's loads fetch each LL128 line from host memory over SHM: NCCL 2.29.2 and 2.30.7
     * {@code src/device/prims_ll128.h recvReduceSendCopy} loads the warp's 4 x 16 bytes per thread in the flag-polling
     * loop ({@code __any_sync} on {@code needReload}) and then loads the same 4 x 16 bytes again before using them;
     * both are {@code ld.volatile.global} ({@code op128.h load128}), which the GPU does not serve from a cache, so both
     * cross the receiver's PCIe link downstream (the FIFO is in the receiver's host memory, {@code shm.cc}), while the
     * sender's {@code store128} writes each line once, upstream. Simple and LL read each byte once.
     */
    static final int LL128_READS_PER_LINE = 2;

    /** A GPU's traffic pattern over SHM within one step (class note). */
    enum Pattern { ONE_WAY, ALTERNATING, DUPLEX }

    private ShmLinkShare() {
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
        if (plan.nNodes() != 1 || !throughCpu(plan)) {
            return false;
        }
        PathType level = PathFinder.Options.of(s).p2pLevelInForce(plan.cpu() == CpuKind.AMD_X86,
                plan.maxLocalRanks());
        return plan.graphs().ring().typeIntra().ordinal() > level.ordinal();
    }

    /**
     * Whether the ring graph's intra-node path goes through the CPU: its type is PHB or SYS (over SHM, or P2P where the
     * P2P level allows it), on one node or several. On several nodes each node's part of a ring channel is a chain
     * from the NIC through the node's GPUs back to the NIC (NCCL 2.30.7 {@code src/graph/search.cc
     * ncclTopoSearchRecNet}), whose GPU-GPU hops take the same paths, so {@link CpuRouteRate#ringScale} times them at
     * the same link rates; the NIC hops are the network's ({@code netBusBw}). The SHM share ({@link #shm}) stays on
     * one node, where it was measured; between nodes only a lone rank staging its network traffic through host memory
     * takes its duplex share ({@link StagedNetDuplex}).
     *
     * @param plan the channel plan
     * @return true for a ring through the CPU
     */
    public static boolean throughCpu(ChannelPlan plan) {
        GraphSummary ring = plan.graphs().ring();
        if (ring == null || !ring.present()) {
            return false;
        }
        return ring.typeIntra().throughCpu();
    }

    /**
     * The share of the link a call over SHM moves per direction, in payload (wire) bytes of the protocol.
     *
     * @param plan  the channel plan
     * @param s     settings
     * @param func  collective
     * @param a     algorithm
     * @param p     protocol (LL128 reads every line twice: {@link #LL128_READS_PER_LINE})
     * @param chain true for the one-host Tree AllReduce chain ({@link IntraNodeChain})
     * @return {@link #duplexShare} for a Ring (but a 2-rank Broadcast or Reduce, one-way, a 2-rank AllGather or
     *         ReduceScatter, {@link #alternatingShare}, and a ring whose orders leave every GPU's link one way,
     *         {@link ChannelPlan#ringShmOneWay}: one-way), {@link #chainShare} for the Tree chain over SHM on one host
     *         of at least 2 ranks, each times {@link #ll128Reload} for LL128; for a duplex Ring/LL128 the lower of
     *         that and the loop's steps ({@link ShmRingPhases#ll128RingFactor}); 1 otherwise
     */
    public static double factor(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p,
            boolean chain) {
        if (plan.nRanks() < 2 || !(chain || a == Algorithm.RING) || !shm(plan, s)) {
            return 1.0;
        }
        boolean pair = plan.nRanks() == 2 && !chain;
        if (pair && (func == Collective.BROADCAST || func == Collective.REDUCE)) {
            return ll128Reload(p, Pattern.ONE_WAY);
        }
        if (pair && (func == Collective.ALL_GATHER || func == Collective.REDUCE_SCATTER)) {
            return alternatingShare(plan) * ll128Reload(p, Pattern.ALTERNATING);
        }
        if (!chain && plan.ringShmOneWay()) {
            return ll128Reload(p, Pattern.ONE_WAY);
        }
        if (!chain && p == Protocol.LL128) {
            return ShmRingPhases.ll128RingFactor(func, plan.nRanks(), duplexShare(plan));
        }
        return (chain ? chainShare(plan.nRanks(), duplexShare(plan)) : duplexShare(plan))
                * ll128Reload(p, Pattern.DUPLEX);
    }

    /**
     * The duplex share of a ring hop on the plan's GPU links, by their PCIe generation ({@link ChannelPlan#gpuPcieGen}):
     * on Gen5 and later the probe's figure, which is the link's own duplex ceiling ({@link #DUPLEX_LINK_CEILING}); on
     * Gen3 and Gen4 (and when unknown) the measured ring hop, {@link #DUPLEX_SHARE}.
     *
     * @param plan the channel plan
     * @return {@link #DUPLEX_LINK_CEILING} for Gen5 and later, {@link #DUPLEX_SHARE} otherwise
     */
    public static double duplexShare(ChannelPlan plan) {
        return plan.gpuPcieGen() >= 5 ? DUPLEX_LINK_CEILING : DUPLEX_SHARE;
    }

    /**
     * A 2-rank Ring AllGather or ReduceScatter over SHM (store phase, then load phase, per chunk and channel:
     * {@link #ALTERNATING_SHARE}) on its 2 channels, per direction of a GPU's link, in time-average over the call.
     * The channels are separate CTAs with their own FIFOs and no barrier between them (NCCL 2.28.9 to 2.30.7
     * {@code src/device/all_gather.h runRing}: one loop per channel over its own part of the buffer), so their phases
     * hold whatever offset they have: while both are in the same phase they share the one-way rate (1/2 each); while
     * one stores and the other loads the link is duplex and each moves the duplex share d ({@link #duplexShare}). In
     * both states the two channels move at the same rate, so nothing pulls the offset back or pushes it on: it drifts
     * (each call starts both channels together, and any difference in their progress stays), and a drifting offset on
     * the cycle of two phases is as likely to be anywhere on it, half the bytes moved with the phases apart, half
     * together. Time per byte per direction then averages 1/2 x 1/d + 1/2 x 1/(1/2): the share is
     * 1 / (1 / (2 d) + 1), between 1/2 (phases together, the earlier rule) and d (phases apart). Gen3/Gen4 (d = 0.666):
     * 0.5712. Checked, not fitted: 2x RTX 2080 Ti, Gen3 switch, SHM
     * (validation/src/test/resources/data/A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt
     * lines 81-89): 3.14-3.39 GB/s busbw from 4 MiB to 512 MiB and 3.79 at 1 GiB over 5.88 (the ring's 6 GB/s x 0.98):
     * 0.534-0.577 and 0.645, against 0.5712 here (0.5 before). The measured rate grows with the size (0.534 at 4 MiB to
     * 0.577 at 512 MiB), as an offset that starts at 0 with each call and drifts would give; the drift's speed has no
     * source, so the offset is taken at its long-run spread at every size.
     *
     * @param plan the channel plan
     * @return 1 / (1 / (2 d) + 1 / (2 {@link #ALTERNATING_SHARE})), d = {@link #duplexShare}
     */
    static double alternatingShare(ChannelPlan plan) {
        return 1.0 / (0.5 / duplexShare(plan) + 0.5 / ALTERNATING_SHARE);
    }

    /**
     * The share of a GPU's PCIe link per direction that point-to-point sends and receives over SHM move (AllToAll,
     * SendRecv on one host; {@link CpuRouteRate#concurrentBw}): the link's duplex ceiling, {@link #DUPLEX_LINK_CEILING},
     * on every PCIe generation, not a ring hop's {@link #DUPLEX_SHARE}. A p2p work item gives its send and its receive
     * separate warps of the channel (NCCL 2.28.9 and 2.30.7 {@code src/device/sendrecv.h}: {@code nSendWarpPerWork},
     * {@code nRecvWarpPerWork}; {@code runSend} only stores to the peer's host FIFO, {@code runRecv} only loads from
     * its own), as the one-host Tree chain splits its up and down warps ({@code all_reduce.h runTreeSplit}), whose
     * middle ranks move the ceiling ({@link #chainShare}: 0.797 measured on Gen4 L40S); a ring hop's threads instead
     * load the slice from host memory and store it onward in one primitive ({@code recvReduceSend},
     * {@code recvCopySend}), and Gen3/Gen4 rings move 0.62-0.68. Checked, not fitted: 2x RTX 2080 Ti behind one Gen3
     * switch over SHM, AllToAll from 16 MiB to 1 GiB, where each peer's send runs on 2 channels
     * ({@link P2pPeerChannels#forOperation}), 4.45-4.61 GB/s busbw over 5.88 (the ring's 6 GB/s x 0.98) = 0.757-0.784
     * (with each channel's step waits, {@link ShmStepWaits}, this share gives 4.41)
     * (validation/src/test/resources/data/A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-
     * autodl.txt lines 252-258), against 0.815 here and 0.666 before.
     *
     * @return {@link #DUPLEX_LINK_CEILING}, one figure for every PCIe generation
     */
    public static double p2pShare() {
        return DUPLEX_LINK_CEILING;
    }

    /**
     * The one-host Tree chain's share over SHM, on the bus bandwidth of its links (the chain's algBw is link x this x
     * {@link IntraNodeChain#busToAlgRatio}): the lower of two limits. Each hop carries S per direction per buffer of
     * S (NCCL 2.29.2 {@code src/device/all_reduce.h runTreeSplit}: up and down at once), one SHM connection each way
     * per channel as a ring's hop has, so a hop moves at most what a ring's hop moves ({@link #duplexShare} of the
     * link, the hop share): algBw at most link x hop share, that is this share at most hop share / ratio. A middle rank's one
     * link carries two connections each way (S to its parent and S to its child, S from each), so together at most
     * the link's duplex ceiling, {@link #DUPLEX_LINK_CEILING}: algBw at most link x ceiling x ratio. A chain of 2 has
     * no middle rank: the hop share, as before. A chain of 3 or more ranks on Gen4: min(0.815, 2 x 0.666) = 0.815, where
     * the ring's figure alone said 0.666: on 4x L40S over SHM (GPUs on 2 NUMA nodes, the chain's middle hop between them,
     * NCCL 2.29.2 {@code src/graph/connect.cc}: {@code tree.up = treeIntra[i-1]}, {@code tree.down[0] =
     * treeIntra[i+1]}) 24 x 0.98 x 0.815 / 2 = 9.58 GB/s algBw, measured 9.37 at 128 MiB and 9.9-10.2 from the
     * time's growth between 2 and 16 MiB (A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt lines
     * 225-231); 0.666 said 7.83.
     * Why a ring's hop moves less than its GPU's link allows is not settled (docs/single-host-guesses.md section 1:
     * every measured ring at 0.62-0.68 but the one-NUMA-node RTX PRO 6000 ring at 0.80); this rule only takes the
     * measured ring hop as the hop's limit.
     *
     * @param nRanks   ranks of the chain, >= 2
     * @param hopShare a ring hop's share on these links ({@link #duplexShare})
     * @return min({@link #DUPLEX_LINK_CEILING}, hopShare / ratio)
     */
    static double chainShare(int nRanks, double hopShare) {
        return Math.min(DUPLEX_LINK_CEILING, hopShare / IntraNodeChain.busToAlgRatio(nRanks));
    }

    /**
     * Whether the call is a Ring over SHM, which pays no generic pipeline fill: a Ring AllReduce, AllGather or
     * ReduceScatter (see the class note), and a rooted Ring Broadcast or Reduce (a chain from or to the root).
     *
     * <p>Why a rooted chain pays none in nccl-tests' timing. Each of its channels moves a slice only after the previous
     * hop posted it: Broadcast and Reduce take one step per chunk and one slice per chunk (NCCL 2.27.3 to 2.30.7
     * {@code src/include/collectives.h}: BROADCAST_CHUNKSTEPS = BROADCAST_SLICESTEPS = REDUCE_CHUNKSTEPS =
     * REDUCE_SLICESTEPS = 1; {@code src/device/prims_simple.h genericOp} posts the tail once per slice), so within one
     * call the last rank's first load waits for the root's first store of a whole slice (up to buffSize / NCCL_STEPS
     * = 512 KiB). But a sender waits only for a free FIFO slot ({@code waitPeer}: {@code connStepCache + NCCL_STEPS <
     * step + StepPerSlice}, 2.30.7 line 107), and the step counters outlive the kernel ({@code ~Primitives}: "Save
     * steps for the next operation", {@code conn->step = step}, 2.30.7 line 714), so the root's next call stores into
     * the slots the last rank is still loading; nccl-tests launches its timed iterations back to back (2.19.6
     * {@code src/common.cu BenchTime}, docs/single-host-guesses.md section 7). The one-slice wait is paid once per
     * timed loop, not per call (1/20 of it with nccl-tests' 20 iterations). Measured (2x RTX 2080 Ti, SHM, one-way:
     * validation/src/test/resources/data/A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-
     * autodl.txt lines 118-123 and 161-166): Broadcast and Reduce times minus the bytes at the measured 11.09 GB/s
     * are 15-22 us from 128 KiB to 4 MiB, 6 us more over 32 times the bytes, where a wait of one slice per channel
     * and call would grow with the slice to about 95 us at 1 MiB (512 KiB on each of 2 channels at half the link).
     * Applied over SHM only, where it is measured; a rooted chain over P2P or NVLink follows the same source, but no
     * file in hand checks it.
     *
     * @param plan the channel plan
     * @param s    settings
     * @param func collective
     * @param a    algorithm
     * @return true for such a ring of at least 2 ranks
     */
    public static boolean ringWithoutFill(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a) {
        boolean loop = func == Collective.ALL_REDUCE || func == Collective.ALL_GATHER
                || func == Collective.REDUCE_SCATTER;
        boolean rooted = func == Collective.BROADCAST || func == Collective.REDUCE;
        return a == Algorithm.RING && (loop || rooted) && plan.nRanks() >= 2 && shm(plan, s);
    }

    /**
     * LL128's share of the link over SHM relative to Simple's in the same pattern: the bytes Simple moves across the
     * busiest resource per payload byte over those LL128 moves per wire byte ({@link #LL128_READS_PER_LINE}; the
     * 120/128 line efficiency is NCCL's own LL128 factor, already in the table's rate). One-way: the receiver's
     * downstream carries 2 reads per line against Simple's 1: 1/2. Alternating: a store phase (1) then a load phase
     * (2) against Simple's 1 + 1: 2/3. Duplex: {@link #DUPLEX_LL128}.
     *
     * @param p       protocol
     * @param pattern the GPU's pattern over SHM
     * @return the factor, 1 unless LL128
     */
    static double ll128Reload(Protocol p, Pattern pattern) {
        if (p != Protocol.LL128) {
            return 1.0;
        }
        return switch (pattern) {
            case ONE_WAY -> 1.0 / LL128_READS_PER_LINE;
            case ALTERNATING -> 2.0 / (1 + LL128_READS_PER_LINE);
            case DUPLEX -> DUPLEX_LL128;
        };
    }
}
