package dev.collsim.simulator.perf;

import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.TuningConstants;
import dev.collsim.topology.PathType;

/**
 * The per-step wait of a point-to-point exchange over NCCL's SHM transport on one host when a rank's sends and
 * receives run on a single channel, in microseconds added to {@link P2pModel}'s bandwidth time: every p2p step
 * after the first waits one Simple step's dependent chain over SHM, which a second busy channel's steps fill.
 *
 * <p>What NCCL runs. One host's p2p steps are the PCI p2p chunk, NCCL_P2P_PCI_CHUNKSIZE = 128 KiB, whatever the
 * size (NCCL 2.28.9 {@code src/init.cc computeBuffSizes} lines 716-718; {@code src/enqueue.cc addP2pToPlan} cuts the
 * chunk for small operations only on network connections; {@code src/device/sendrecv.h runSend}/{@code runRecv}
 * call {@code directSend}/{@code directRecv} once per chunk); an operation of B bytes runs on
 * {@link P2pPeerChannels#forOperation} channels, one for a 2-rank AllToAll up to 4 MiB per peer (the one-host
 * maxPart, 32 chunks) and two above. On one channel the send warps and the receive warps each walk their steps in
 * order ({@code src/device/prims_simple.h genericOp}: {@code waitPeer}, the workers' barrier, the copy, the barrier,
 * {@code postPeer}), and each step's data is a chain of dependent transfers: the sender's stores, the system fence
 * and the counter's store (two flights), the receiver's poll of the counter in its host memory and the loads of the
 * slice (two round trips): {@link PcieSimpleStep#stepUs} + {@link ShmHostReads#READ_ROUND_TRIP_US} = 2 x 1.0 + 2 x
 * 1.364 = 4.73 us (the same chain {@link PcieSimpleStep} prices for a ring step over SHM). With one busy channel
 * per direction nothing else moves on the link while a step waits its chain, so each step costs its bytes at the
 * link rate plus the chain; with two or more (a larger operation split over channels, or several peers) the others'
 * data fills the wait, and the link rate alone binds. Which part of the chain the FIFO's NCCL_STEPS = 8 slots hide is
 * not in the source: this takes none hidden, and the first step's chain as part of {@link P2pModel}'s latency.
 *
 * <p>Checked, not fitted: 2x RTX 2080 Ti behind one PCIe Gen3 switch over SHM, AllToAll
 * (validation/src/test/resources/data/A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-
 * autodl.txt lines 246-251): from 128 KiB to 4 MiB per peer (1 to 32 chunks, one channel) the time grows by
 * 30.7-33.7 us per chunk (32.45 from 2 to 4 MiB per peer), where the link rate of two channels' sizes
 * ({@link ShmLinkShare#p2pShare}: 6 x 0.98 x 0.815 = 4.79 GB/s) gives 27.35 us and this 27.35 + 4.73 = 32.08; the
 * measured rate steps up at the size NCCL's second channel starts (3.95 GB/s busbw at 4 MiB per peer, 4.45 at 8 MiB).
 * Not applied to LL (its flags travel with the data: no separate counter or poll) nor across nodes (the proxy's
 * steps, {@link P2pModel#proxyRankGBps}). Stateless and thread-safe.
 */
public final class ShmP2pSteps {

    private ShmP2pSteps() {
    }

    /**
     * @param plan         the channel plan
     * @param s            settings (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL: whether the pairs are SHM; NCCL_BUFFSIZE)
     * @param v            NCCL release modelled (its p2p channel rules)
     * @param intraType    NCCL path type between GPUs of the node
     * @param p            the p2p protocol ({@link P2pPeerChannels#protocol})
     * @param peers        peers a rank sends to (AllToAll n - 1, SendRecv 1)
     * @param perPeerBytes bytes a rank sends to one peer
     * @return microseconds: (chunks - 1) x {@link #stepChainUs} for a Simple exchange over SHM on one host whose
     *         rank keeps one channel busy; 0 otherwise
     */
    public static double extraUs(ChannelPlan plan, NcclSettings s, NcclVersion v, PathType intraType, Protocol p,
            int peers, long perPeerBytes) {
        if (p != Protocol.SIMPLE || plan.nNodes() != 1 || perPeerBytes <= 0 || !ShmLinkShare.shm(plan, s)) {
            return 0;
        }
        long connections = (long) peers * P2pPeerChannels.forOperation(plan, s, intraType, perPeerBytes, v);
        if (connections != 1) {
            return 0;
        }
        long chunk = P2pPeerChannels.chunkBytes(plan, s, intraType, v);
        long chunks = (perPeerBytes + chunk - 1) / chunk;
        return (chunks - 1) * stepChainUs(plan, s);
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
}
