package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.TuningConstants;
import dev.collsim.topology.PathType;

/**
 * The per-step waits of a Simple transfer over NCCL's SHM transport on one host whose channels each carry one
 * connection per direction in step order: a point-to-point exchange (AllToAll, SendRecv: {@link P2pModel}) and a
 * rooted Ring (Broadcast, Reduce: {@link PerformanceModel}). Each step of a channel after its first waits one Simple
 * step's dependent chain, whatever the call's other channels do; microseconds added to the call's time. A p2p
 * exchange also fills its pipeline once per call ({@link #p2pFillUs}).
 *
 * <p>What a step waits. On one channel the sending and the receiving threads walk their steps in order (NCCL 2.28.9
 * and 2.30.7 {@code src/device/prims_simple.h genericOp}: {@code waitPeer}, the workers' barrier, the copy, the
 * barrier, {@code postPeer}), and each step's data is a chain of dependent transfers: the sender's stores, the system
 * fence and the counter's store (two flights), the receiver's poll of the counter in its host memory and the loads of
 * the slice (two round trips): {@link PcieSimpleStep#stepUs} + {@link ShmHostReads#READ_ROUND_TRIP_US} = 2 x 1.0 +
 * 2 x 1.364 = 4.73 us, the chain {@link PcieSimpleStep} prices for a ring step over SHM. Which part of it the FIFO's
 * NCCL_STEPS = 8 slots hide is not in the source, nor whether another channel's data fills a channel's wait (its
 * channels run the same schedule on equal parts, so their waits may fall together): this takes none hidden, each
 * channel paying its steps' chains in series with its data at its share of the link, and the first step's chain as
 * part of the latency. Steps: p2p, the PCI p2p chunk NCCL_P2P_PCI_CHUNKSIZE = 128 KiB at every size (NCCL 2.28.9
 * {@code src/init.cc computeBuffSizes} lines 716-718; {@code src/enqueue.cc addP2pToPlan} cuts it for small
 * operations only on network connections; {@code src/device/sendrecv.h runSend}/{@code runRecv} move one chunk per
 * primitive) on the operation's {@link P2pPeerChannels#forOperation} channels; a rooted Ring, one step per chunk
 * (BROADCAST_CHUNKSTEPS = REDUCE_CHUNKSTEPS = 1, {@code src/include/collectives.h}; the chunk NCCL_BUFFSIZE / 8 =
 * 512 KiB, {@code src/enqueue.cc calcCollChunking}, {@link CalcCollChunking#chunk}) on each of the call's channels.
 * Not applied to LL (its flags travel in the lines: no separate counter or poll), to the unrooted rings (their
 * measured link share, {@link ShmLinkShare#DUPLEX_SHARE}, and {@link PcieSimpleStep} hold their steps), nor across
 * nodes.
 *
 * <p>Checked, not fitted: 2x RTX 2080 Ti behind one PCIe Gen3 switch over SHM
 * (validation/src/test/resources/data/A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt).
 * AllToAll on one channel per peer (lines 246-251, 128 KiB to 4 MiB per peer): the time grows 30.7-33.7 us a chunk,
 * 32.45 from 2 to 4 MiB per peer, where the chunk at the p2p link rate ({@link ShmLinkShare#p2pShare}: 6 x 0.98 x
 * 0.815 = 4.79 GB/s) is 27.35 us and with its chain 32.08; on 2 channels (lines 252-258, from 8 MiB per peer) each
 * channel's chunk at half that rate with its chain is 59.43 us for two chunks, 4.41 GB/s busbw, measured 4.45-4.61
 * (the chain hidden would say 4.79). Broadcast and Reduce on 2 channels (lines 122-131 and 165-174): 512 KiB a channel
 * at half the one-way 11.76 GB/s is 89.16 us, with its chain 93.89: 11.17 GB/s, measured 10.9-11.1 between successive sizes from 2 MiB to 1
 * GiB (the chain hidden would say 11.76). Stateless and thread-safe.
 */
public final class ShmStepWaits {

    /**
     * Steps per slice of a Simple Ring AllReduce, AllGather or ReduceScatter: NCCL 2.29.2 and 2.30.7
     * {@code src/include/collectives.h} ALLREDUCE_SLICESTEPS = ALLGATHER_SLICESTEPS = REDUCESCATTER_SLICESTEPS =
     * NCCL_STEPS / 4 = 2.
     */
    static final int RING_SLICE_STEPS = 2;

    private ShmStepWaits() {
    }

    /**
     * @param plan         the channel plan
     * @param s            settings (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL: whether the pairs are SHM; NCCL_BUFFSIZE)
     * @param v            NCCL release modelled (its p2p channel rules)
     * @param intraType    NCCL path type between GPUs of the node
     * @param p            the p2p protocol ({@link P2pPeerChannels#protocol})
     * @param perPeerBytes bytes a rank sends to one peer
     * @return microseconds: (chunks per channel - 1) x {@link #stepChainUs} for a Simple exchange over SHM on one host;
     *         0 otherwise
     */
    public static double p2pUs(ChannelPlan plan, NcclSettings s, NcclVersion v, PathType intraType, Protocol p,
            long perPeerBytes) {
        if (p != Protocol.SIMPLE || plan.nNodes() != 1 || perPeerBytes <= 0 || !ShmLinkShare.shm(plan, s)) {
            return 0;
        }
        long perChannel = ceilDiv(perPeerBytes, P2pPeerChannels.forOperation(plan, s, intraType, perPeerBytes, v));
        return (ceilDiv(perChannel, P2pPeerChannels.chunkBytes(plan, s, intraType, v)) - 1) * stepChainUs(plan, s);
    }

    /**
     * The p2p pipeline's fill over SHM, microseconds: a receiver loads a step only after the sender has stored all of
     * it and posted the counter ({@code prims_simple.h postPeer}, once per step of ProtoSimple&lt;1,1&gt;), so each
     * call's first chunk on each channel crosses the link as stores alone before any load of it starts; nccl-tests'
     * next call cannot run into it as a rooted ring's root does ({@link ShmLinkShare#ringWithoutFill}): every rank of
     * an exchange also receives, and its kernel ends only when its last load is done. With no load on the link yet
     * the stores move at the rank's one-way pair rate ({@link CpuRouteRate#pairBw}, as {@link OneWayPair}'s chain).
     * Whether the ranks' fills, which start together, share a switch's uplink is not known: the checked file says
     * they do not (2x RTX 2080 Ti, lines 245-251: the time less the chunks at 32.08 us and the latency is 3.0 us at
     * 64 KiB per peer and 10.6-12.5 us at 128 KiB to 1 MiB, where 64 KiB and 128 KiB at 12 x 0.98 = 11.76 GB/s
     * take 5.6 and 11.1 us, and at the shared uplink's half 11.1 and 22.3).
     *
     * @param eff the protocol's efficiency on the link (bwEfficiency, as for the p2p data)
     * @return microseconds: the operation's channels x min(one chunk, a channel's bytes) at the pair rate x eff, for a
     *         Simple exchange over SHM on one host; 0 otherwise
     */
    public static double p2pFillUs(ChannelPlan plan, NcclSettings s, NcclVersion v, PathType intraType, Protocol p,
            long perPeerBytes, double eff) {
        if (p != Protocol.SIMPLE || plan.nNodes() != 1 || perPeerBytes <= 0 || !ShmLinkShare.shm(plan, s)) {
            return 0;
        }
        int channels = P2pPeerChannels.forOperation(plan, s, intraType, perPeerBytes, v);
        long first = Math.min(P2pPeerChannels.chunkBytes(plan, s, intraType, v), ceilDiv(perPeerBytes, channels));
        return channels * first / (1000.0 * CpuRouteRate.pairBw(plan) * eff);
    }

    /**
     * @param plan     the channel plan
     * @param s        settings
     * @param func     collective
     * @param a        algorithm
     * @param p        protocol
     * @param nBytes   bytes of the call
     * @param channels the call's channels
     * @return microseconds: (chunks per channel - 1) x {@link #stepChainUs} for a Simple Ring Broadcast or Reduce over
     *         SHM on one host; 0 otherwise
     */
    public static double rootedUs(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p,
            long nBytes, int channels) {
        boolean rooted = func == Collective.BROADCAST || func == Collective.REDUCE;
        if (!rooted || a != Algorithm.RING || p != Protocol.SIMPLE || plan.nNodes() != 1 || plan.nRanks() < 2
                || nBytes <= 0 || !ShmLinkShare.shm(plan, s)) {
            return 0;
        }
        long perChannel = ceilDiv(nBytes, Math.max(1, channels));
        return (ceilDiv(perChannel, CalcCollChunking.chunk(a, p, func, s)) - 1) * stepChainUs(plan, s);
    }

    /**
     * The root's extra step waits in a one-host Tree AllReduce chain of 2 ranks over SHM, Simple, microseconds.
     *
     * <p>Why. A chain of 2 has no middle rank: its root runs {@code directRecvReduceCopyDirectSend} on all its threads
     * (NCCL 2.29.2 {@code src/device/all_reduce.h runTreeSplit}, {@code tree->up == -1}), loading its child's slice
     * from host memory and storing the result into the child's FIFO in one primitive, as a ring hop does, so its hop
     * moves a ring hop's measured share ({@link ShmLinkShare#chainShare}). That share was measured on rings whose slice
     * is 2 steps (ALLREDUCE_SLICESTEPS = NCCL_STEPS / 4 = 2, {@code src/include/collectives.h}; 1 MiB with the default
     * 4 MiB buffer), so it holds one step chain per 2 steps. A Tree's chunk and slice are one step
     * ({@code src/enqueue.cc} v2.29.2 lines 2131-2133: chunkSteps and sliceSteps are the collective's only for a
     * Simple Ring, else 1; {@code runTreeSplit} runs {@code ProtoSimple<1, 1>}), so the root waits one chain per
     * step: one more per 2 steps than the share holds, each in series with its data as a rooted ring's
     * ({@link #rootedUs}). Extra waits per channel: its Tree slices less its ring slices,
     * ceil(b / step) - ceil(b / (2 step)), b the channel's bytes. With 3 or more ranks the middle ranks bind
     * (their link at the duplex ceiling over two connections each way, {@link ShmLinkShare#chainShare}: 0.41 of the
     * link against the root's 0.666 less its waits), so none is added. Checked, not fitted: 2x L40S over SHM
     * (validation/src/test/resources/data/A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt, run 3,
     * NCCL_ALGO=tree): 14.81 GB/s busbw at 128 MiB against the same GPUs' Ring 15.57-15.69 (runs 1, 2, 6), 0.945; a
     * 512 KiB slice per channel at the ring's 15.67 / 2 GB/s takes 66.9 us, with one more chain 71.6 us: 0.934.
     *
     * @param plan     the channel plan
     * @param s        settings (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL, NCCL_BUFFSIZE)
     * @param func     collective
     * @param a        algorithm
     * @param p        protocol
     * @param nBytes   bytes of the call
     * @param channels the call's channels
     * @return microseconds: (Tree slices - Ring slices per channel) x {@link #stepChainUs} for a Simple Tree
     *         AllReduce of 2 ranks over SHM on one host; 0 otherwise
     */
    public static double treePairUs(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p,
            long nBytes, int channels) {
        if (!IntraNodeChain.applies(func, a, plan.nNodes(), plan.nRanks()) || plan.nRanks() != 2
                || p != Protocol.SIMPLE || nBytes <= 0 || !ShmLinkShare.shm(plan, s)) {
            return 0;
        }
        long perChannel = ceilDiv(nBytes, Math.max(1, channels));
        long step = CalcCollChunking.chunk(a, p, func, s);
        return (ceilDiv(perChannel, step) - ceilDiv(perChannel, RING_SLICE_STEPS * step)) * stepChainUs(plan, s);
    }

    /**
     * @param plan the channel plan
     * @param s    settings
     * @return one Simple step's dependent chain over SHM, microseconds: {@link PcieSimpleStep#stepUs} (two store
     *         flights of hwLat[PCI][Ring][LL] and the counter's poll) + the slice's loads,
     *         {@link ShmHostReads#READ_ROUND_TRIP_US}
     */
    static double stepChainUs(ChannelPlan plan, NcclSettings s) {
        return PcieSimpleStep.stepUs(plan, s, TuningConstants.NCCL_2_30_7) + ShmHostReads.READ_ROUND_TRIP_US;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
