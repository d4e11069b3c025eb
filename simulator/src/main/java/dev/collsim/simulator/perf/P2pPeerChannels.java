package dev.collsim.simulator.perf;

import static dev.collsim.nccl.NcclDevice.NCCL_MAX_DEV_WORK_P2P_PER_BATCH;

import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.CpuKind;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.PathType;

/**
 * How many channels NCCL gives one peer of a point-to-point operation and which protocol it then picks (NCCL
 * 2.30.7). Three steps:
 * <ol>
 *   <li>channels per peer ({@code src/graph/paths.cc} {@code ncclTopoComputeP2pChannelsPerPeer} and
 *       {@code ncclTopoGetNchannels}): the fewest over the rank's peers, a node peer on NVLink getting
 *       2 x max(1, path GB/s / one NVLink's GB/s), on PCI 2, a peer on another node max(local NICs,
 *       ceil(local NIC GB/s / NCCL_P2P_PER_CHANNEL_NET_BW = 14)); then ({@code ncclTopoComputeP2pChannels})
 *       rounded up to a power of two and, across nodes, halved while it x ceil(nranks / 8) (8:
 *       NCCL_MAX_DEV_WORK_P2P_PER_BATCH, {@code src/include/device.h}) exceeds the p2p channels, on one node
 *       at most the p2p channels;</li>
 *   <li>channels for one operation ({@code src/enqueue.cc} {@code addP2pToPlan}, with nChannelsMin from
 *       {@code scheduleP2pTasksToPlan}): nChannelsMin = channels per peer halved while it x nranks exceeds the p2p
 *       channels; an operation of B bytes takes min(nChannelsMin, ceil(B / minPart)) channels, doubled while
 *       B / channels exceeds maxPart and channels &lt;= channels per peer / 2; minPart and maxPart are the p2p
 *       chunk / 2 and the chunk across nodes, chunk / 8 and chunk x 32 on one node;</li>
 *   <li>protocol: LL when B &lt;= channels x NCCL_P2P_LL_THRESHOLD (16384 B), else Simple.</li>
 * </ol>
 * The p2p chunk ({@code src/init.cc} {@code computeBuffSizes}): across nodes NCCL_P2P_NET_CHUNKSIZE (128 KiB; twice
 * that on Arm with sm100 and newer), on one node of NVLink paths NCCL_P2P_NVL_CHUNKSIZE (512 KiB), else
 * NCCL_P2P_PCI_CHUNKSIZE (128 KiB), at most NCCL_BUFFSIZE / 8. Local NICs of a GPU: collsim takes the node's NICs
 * split evenly over its ranks, at least one (NCCL walks the GPU's local NICs, {@code src/graph/topo.cc}
 * {@code ncclTopoGetLocalNetCountByBw}).
 *
 * <p>NCCL 2.28.9 (and the releases before 2.29 it models) differs in three places, read at tag v2.28.9-1:
 * <ul>
 *   <li>channels per peer ({@code src/graph/paths.cc ncclTopoGetNchannels} lines 817-855,
 *       {@code ncclTopoComputeP2pChannels} lines 860-892): a node peer gets 2 x max(1, path GB/s / one NVLink's GB/s)
 *       on an NVL path only (NVB: 2), a peer on another node max(local NICs counted until they reach the GPU's link
 *       to its CPU, 0 behind a PCIe switch ({@code src/graph/topo.cc getLocalNetCountByBw};
 *       {@link ChannelPlan#localNetsPerGpu}), 2 halved while it x nranks exceeds 4 x the p2p channels); rounded up
 *       to a power of two and at most the p2p channels, on any
 *       number of nodes (no halving by batches of 8);</li>
 *   <li>the protocol comes first ({@code src/enqueue.cc addP2pToPlan} lines 821-835): LL when B &lt;= channels
 *       per peer x 16384, whatever the send's own channels;</li>
 *   <li>the split then uses that protocol's step: an LL send's minPart and maxPart come from NCCL_LL_BUFFSIZE / 8
 *       (64 KiB by default) in place of the p2p chunk (lines 836-838 and 893-901); the p2p chunk across nodes is
 *       NCCL_P2P_NET_CHUNKSIZE on every CPU ({@code src/init.cc computeBuffSizes} line 716).</li>
 * </ul>
 */
public final class P2pPeerChannels {

    /** NCCL_P2P_LL_THRESHOLD default, bytes per channel (NCCL 2.30.7 {@code src/enqueue.cc}). */
    public static final long P2P_LL_THRESHOLD = 16384;
    /** NCCL_P2P_NVL_CHUNKSIZE default, bytes (NCCL 2.30.7 {@code src/init.cc}). */
    public static final long P2P_NVL_CHUNKSIZE = 1L << 19;
    /** NCCL_P2P_PCI_CHUNKSIZE default, bytes (NCCL 2.30.7 {@code src/init.cc}). */
    public static final long P2P_PCI_CHUNKSIZE = 1L << 17;
    /** NCCL_P2P_PER_CHANNEL_NET_BW default, GB/s (NCCL 2.30.7 {@code src/graph/paths.cc}). */
    public static final double P2P_PER_CHANNEL_NET_BW = 14;

    private P2pPeerChannels() {
    }

    /**
     * @param plan      channel plan
     * @param intraType NCCL path type between GPUs of a node
     * @param v         NCCL release modelled
     * @return comm.p2pnChannelsPerPeer
     */
    public static int perPeer(ChannelPlan plan, PathType intraType, NcclVersion v) {
        if (v.tables() == NcclVersion.V2_28_9) {
            return perPeer2289(plan, intraType);
        }
        int min = Integer.MAX_VALUE;
        if (plan.maxLocalRanks() > 1) {
            boolean nvl = intraType == PathType.NVL || intraType == PathType.NVB;
            min = nvl ? 2 * Math.max(1, (int) (plan.gpuPathBw() / NcclBandwidths.nvlinkPerLink(plan.minSm()))) : 2;
        }
        if (plan.nNodes() > 1) {
            int nics = Math.max(1, plan.nicsPerNode());
            int local = Math.max(1, nics / Math.max(1, plan.maxLocalRanks()));
            double localBw = plan.nodeNicBw() / nics * local;
            min = Math.min(min, Math.max(local, (int) Math.ceil((int) localBw / P2P_PER_CHANNEL_NET_BW)));
        }
        int perPeer = pow2Up(min == Integer.MAX_VALUE ? 1 : min);
        if (plan.nNodes() > 1) {
            int batches = (plan.nRanks() + NCCL_MAX_DEV_WORK_P2P_PER_BATCH - 1) / NCCL_MAX_DEV_WORK_P2P_PER_BATCH;
            while (perPeer * batches > plan.p2pChannels() && perPeer > 1) {
                perPeer /= 2;
            }
            return perPeer;
        }
        return Math.min(plan.p2pChannels(), perPeer);
    }

    /** NCCL 2.28.9's channels per peer (class note); minChannels starts at the p2p channels. */
    private static int perPeer2289(ChannelPlan plan, PathType intraType) {
        int min = plan.p2pChannels();
        if (plan.maxLocalRanks() > 1) {
            min = Math.min(min, intraType == PathType.NVL
                    ? 2 * Math.max(1, (int) (plan.gpuPathBw() / NcclBandwidths.nvlinkPerLink(plan.minSm()))) : 2);
        }
        if (plan.nNodes() > 1) {
            int net = 2;
            while ((long) net * plan.nRanks() > plan.p2pChannels() * 4L && net > 1) {
                net /= 2;
            }
            min = Math.min(min, Math.max(plan.localNetsPerGpu(), net));
        }
        return Math.min(plan.p2pChannels(), pow2Up(min));
    }

    /**
     * @param plan      channel plan
     * @param s         settings (NCCL_P2P_NET_CHUNKSIZE, NCCL_BUFFSIZE)
     * @param intraType NCCL path type between GPUs of a node
     * @param v         NCCL release modelled (2.28.9: no x2 on Arm)
     * @return comm.p2pChunkSize, bytes
     */
    public static long chunkBytes(ChannelPlan plan, NcclSettings s, PathType intraType, NcclVersion v) {
        long chunk;
        if (plan.nNodes() > 1) {
            boolean twice = v.tables() != NcclVersion.V2_28_9 && plan.cpu() == CpuKind.ARM && plan.minSm() >= 100;
            chunk = (twice ? 2 : 1) * s.p2pNetChunkSize();
        } else {
            chunk = intraType == PathType.NVL ? P2P_NVL_CHUNKSIZE : P2P_PCI_CHUNKSIZE;
        }
        return Math.min(chunk, s.stepBytes(Protocol.SIMPLE));
    }

    /**
     * @param plan      channel plan
     * @param s         settings
     * @param intraType NCCL path type between GPUs of a node
     * @param bytes     bytes of the one send (or receive), B
     * @param v         NCCL release modelled
     * @return channels NCCL splits it over
     */
    public static int forOperation(ChannelPlan plan, NcclSettings s, PathType intraType, long bytes, NcclVersion v) {
        if (bytes <= 0) {
            return 1;
        }
        int max = perPeer(plan, intraType, v);
        int min = max;
        while ((long) min * plan.nRanks() > plan.p2pChannels() && min > 1) {
            min /= 2;
        }
        boolean ll2289 = v.tables() == NcclVersion.V2_28_9 && bytes <= max * P2P_LL_THRESHOLD;
        long chunk = ll2289 ? s.stepBytes(Protocol.LL) : chunkBytes(plan, s, intraType, v);
        boolean multi = plan.nNodes() > 1;
        long minPart = multi ? chunk / 2 : chunk / 8;
        long maxPart = multi ? chunk : chunk * 32;
        int n = (int) Math.min(min, ceilDiv(bytes, minPart));
        long part = Math.max(minPart, ceilDiv(bytes, n));
        while (part > maxPart && n <= max / 2) {
            n *= 2;
            part = ceilDiv(bytes, n);
        }
        return n;
    }

    /**
     * Data bytes of one network send of a p2p operation of B bytes (NCCL 2.30.7 {@code src/enqueue.cc addP2pToPlan}
     * lines 935-944, the same at v2.28.9-1 lines 836-845): the Simple step, the p2p chunk, which NCCL cuts for the
     * network to a quarter for an operation below one step and to a half below 8 steps; no more than the part of B
     * one channel carries. A send to a peer on another node is Simple at every size ({@link #netProtocol}). (NCCL
     * rounds the data size to its 8-bit u32fp8 code; the powers of two the defaults give are exact.)
     *
     * @param plan      channel plan
     * @param s         settings (NCCL_P2P_NET_CHUNKSIZE, NCCL_BUFFSIZE, NCCL_LL_BUFFSIZE)
     * @param intraType NCCL path type between GPUs of a node
     * @param bytes     bytes of one send to a peer on another node, B
     * @param v         NCCL release modelled
     * @return bytes, at least 1
     */
    public static long netSendBytes(ChannelPlan plan, NcclSettings s, PathType intraType, long bytes, NcclVersion v) {
        long step = chunkBytes(plan, s, intraType, v);
        long data = bytes < step ? step / 4 : bytes < 8 * step ? step / 2 : step;
        long part = ceilDiv(Math.max(1, bytes), forOperation(plan, s, intraType, bytes, v));
        return Math.max(1, Math.min(data, part));
    }

    /**
     * The channels a rank's sends of one call keep busy: each peer's send runs on its own channels
     * ({@link #forOperation}), round r's from channel base(r) on (NCCL 2.30.7 {@code src/enqueue.cc addP2pToPlan},
     * {@code ncclP2pChannelForPart(p2pnChannels, base, part)} = (base + part) mod p2pnChannels, {@code
     * src/include/device.h}; base on one node the round's bits reversed over log2(p2pnChannels), {@code
     * src/include/channel.h ncclP2pChannelBaseForRound}), so the peers' channels spread over the p2p channels:
     * min(p2p channels, peers x the channels of one send). Exact where both are powers of two on one node; across
     * nodes the rounds of a schedule group share their base ({@link #busyChannels}), so this counts the rank's
     * connections (peer, channel) there, capped at the p2p channels, not its channels.
     *
     * @param plan      channel plan
     * @param s         settings
     * @param intraType NCCL path type between GPUs of a node
     * @param peers     peers the rank sends to in the call (AllToAll n - 1, SendRecv 1)
     * @param bytes     bytes of one send to a peer, B
     * @param v         NCCL release modelled
     * @return channels, at least 1
     */
    public static int busy(ChannelPlan plan, NcclSettings s, PathType intraType, int peers, long bytes,
            NcclVersion v) {
        long n = (long) Math.max(1, peers) * forOperation(plan, s, intraType, bytes, v);
        return (int) Math.max(1, Math.min(plan.p2pChannels(), n));
    }

    /**
     * The channels a rank's sends of one call run on, the per-channel throughput's divisor: on one node
     * {@link #busy}; across nodes NCCL gives every round of a schedule group the same base channel (NCCL 2.28.9 and
     * 2.30.7 {@code src/include/channel.h ncclP2pChannelBaseForRound}: base = reverseBits(round / groupSize) for a
     * group of at most NCCL_MAX_DEV_WORK_P2P_PER_BATCH = 8 rounds; v2.18.3-1 {@code ncclChannelComputeBase} the same,
     * node delta + local step / 8), so a group's peers share one send's channels, their works fused on them: min(p2p
     * channels, groups x the channels of one send), groups = ceil((peers + 1) / groupSize), groupSize 8, or
     * gcd(8, ranks per node) where a node holds fewer or not a multiple of 8 ({@code src/init.cc ncclP2pSchedule},
     * NCCL_P2P_SCHEDULE_GROUP_SIZE default 8). Every peer keeps its own connections ({@link #busy} counts them).
     *
     * @param plan      channel plan
     * @param s         settings
     * @param intraType NCCL path type between GPUs of a node
     * @param peers     peers the rank sends to in the call
     * @param bytes     bytes of one send to a peer, B
     * @param v         NCCL release modelled
     * @return channels, at least 1
     */
    public static int busyChannels(ChannelPlan plan, NcclSettings s, PathType intraType, int peers, long bytes,
            NcclVersion v) {
        if (plan.nNodes() <= 1) {
            return busy(plan, s, intraType, peers, bytes, v);
        }
        int local = Math.max(1, plan.minLocalRanks());
        int group = local % NCCL_MAX_DEV_WORK_P2P_PER_BATCH == 0 ? NCCL_MAX_DEV_WORK_P2P_PER_BATCH
                : gcd(NCCL_MAX_DEV_WORK_P2P_PER_BATCH, local);
        int groups = Math.min(Math.max(1, peers), (Math.max(1, peers) + group) / group);
        return busy(plan, s, intraType, groups, bytes, v);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /**
     * @param plan      channel plan
     * @param s         settings
     * @param intraType NCCL path type between GPUs of a node
     * @param bytes     bytes of the one send to a peer, B
     * @param v         NCCL release modelled
     * @return LL when bytes &lt;= the send's own channels x 16384 (2.28.9: channels per peer x 16384), else Simple
     */
    public static Protocol protocol(ChannelPlan plan, NcclSettings s, PathType intraType, long bytes, NcclVersion v) {
        int channels = v.tables() == NcclVersion.V2_28_9 ? perPeer(plan, intraType, v) : forOperation(plan, s, intraType,
                bytes, v);
        return bytes <= channels * P2P_LL_THRESHOLD ? Protocol.LL : Protocol.SIMPLE;
    }

    /**
     * The protocol of a send to (or receive from) a peer on another node: Simple. NCCL picks LL for a p2p operation
     * only where its connection has LL buffers (NCCL 2.30.7 {@code src/enqueue.cc addP2pToPlan} line 891:
     * {@code protoLL[dir] &= conn->conn.buffs[NCCL_PROTO_LL] != nullptr}; v2.18.3-1 line 370 the same test), and a
     * network p2p connection has none by default: its buffers are the shared ones ({@code src/transport/net.cc}
     * lines 302-304: {@code shared} for every connection without a graph, connIndex 1, unless NCCL_NET_SHARED_BUFFERS=0),
     * which get an LL buffer only under NCCL_ALLOC_P2P_NET_LL_BUFFERS=1 (lines 930-934; default 0, {@code src/init.cc}
     * line 859). Those two variables are not modelled (their defaults taken).
     *
     * @return Simple
     */
    public static Protocol netProtocol() {
        return Protocol.SIMPLE;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    private static int pow2Up(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }
}
