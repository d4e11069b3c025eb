package dev.collsim.simulator.perf;

import static dev.collsim.units.DecimalText.fixed;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.simulator.tuning.HardwareClass;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.TuningConstants;
import dev.collsim.topology.PathType;
import java.util.List;

/**
 * collsim's prediction for the point-to-point collectives NCCL has no model for (AllToAll, SendRecv, Gather,
 * Scatter; {@code ncclGroupSimulateEnd} leaves the estimate at -1). With n ranks, q per node, S the nccl-tests
 * size:
 * <ul>
 *   <li>bytes per GPU inside the node: SendRecv S when a node holds two or more ranks (nccl-tests 2.19.6
 *       {@code src/sendrecv.cu} shifts by one, rank r sends to r+1, and ranks are placed node by node, so q-1 of a
 *       node's q ranks send to a node peer), else 0; AllToAll S (q-1)/n; Gather/Scatter root S (q-1)/n; across
 *       nodes: SendRecv S (the last rank of each node), AllToAll S (n-q)/n, Gather/Scatter root S (n-q)/n;</li>
 *   <li>bandwidth time = max(intra bytes / (gpuPathBw x eff x intra link class efficiency) (over SHM plus each
 *       channel's further p2p steps' waits and the first chunk's stores, {@link ShmStepWaits}), inter bytes /
 *       (min(nodeNicBw / max(q, NICs per node), nodeNetBw / q) ({@link #rankNetGBps}; a Scatter or Gather root,
 *       the one rank on the network, all the node's NICs for a Scatter with PXN, else its own:
 *       {@link #senderNetGBps}) x eff x bwEfficiencyNet)
 *       ({@link PerformanceParameters#bwEfficiency(HardwareClass)}),
 *       a rank's bytes (intra + inter; S for SendRecv) / (busy channels x perChannelCap)), busy channels being
 *       min(p2p channels, peers x the channels NCCL splits one peer's send over by its size), across nodes with
 *       the peers of one schedule group of 8 rounds sharing their channels ({@link P2pPeerChannels#busyChannels}),
 *       with gpuPathBw the best
 *       NCCL-view GPU-GPU path, on one node through the CPU at most the ring graph's bandwidth
 *       ({@link #concurrentIntraBw}); the whole call takes at least inter bytes / the network proxy's limit for Simple
 *       ({@link #proxyRankGBps}), which overlaps the latency below;</li>
 *   <li>protocol as NCCL 2.30.7 {@code src/enqueue.cc} {@code addP2pToPlan} picks it for one peer's send: LL when
 *       the bytes per peer are at most that send's own channels x 16384 (NCCL_P2P_LL_THRESHOLD), else Simple
 *       (NCCL 2.28.9: at most the channels per peer x 16384; {@link P2pPeerChannels}); LL moves half the
 *       bandwidth; between nodes Simple at every size, the remote sends' protocol
 *       ({@link P2pPeerChannels#netProtocol});</li>
 *   <li>latency = launchOverheadUs + p2pBaseLatencyUs + ceil(peers / p2pChannels) x (per-step latency (NCCL's
 *       Ring hwLat for the protocol on NVLink, PCI or NET) + across nodes the network class's added hop latency,
 *       {@link NetClassProfile#hopLatencyUs}); the node NIC bandwidth is derated by the class's
 *       {@link NetClassProfile#bwFraction}.</li>
 *   <li>an AllToAll as NCCL (up to 2.28.9) plans it in one kernel or several ({@link P2pKernelSplit}) takes the sum
 *       over its kernels of each one's longest term: its peers' share of the NVLink and network times above, or its
 *       fullest channel's parts at the per-channel cap (one kernel too: a remote node's peers share their channels,
 *       {@code ncclP2pChannelBaseForRound}; the 2x2 H20 file D-info-alltoall-2x2xH20-tencent-vm-roce-bond-nccl2.26-
 *       issue-nccltests321.txt logs both remote peers on channels 1 and 3 of 4, lines 57-85).</li>
 * </ul>
 * Not charged: an AllToAll rank's chunk to itself. NCCL skips it in place and out of place copies it in the same p2p
 * batch as the peers' sends, on its own warps of each channel (NCCL 2.27.3 and 2.30.7 {@code src/enqueue.cc}
 * {@code scheduleP2pTasksToPlan}, {@code src/device/sendrecv.h} {@code isCopy}). Measured out of place against in
 * place at 8 GiB: 7.8 % slower on 2x H200 {@code -g 2} (12697.1 / 11781.0 us, {@code data/device/h200x2-2026-11-29/
 * collsim-alltoall.txt}), 8.5 % on 4 GB200 {@code -g 4} (10470 / 9654.2 us, OCI file line 56), but 0.1 % on 8 and 64
 * GB200 ranks of one process each (lines 64 and 74): no one cost of the copy explains both, so none is charged.
 * Not the transport: the same 2 H200 as two processes ({@code data/device/h200x2-2proc-2026-11-29/run3/b-2proc-
 * alltoall.rank0.txt}) are 6.9 % slower out of place at 1 GiB (1624.56 / 1520.10 us), as under {@code -g 2} (6.7 %).
 * The copy takes no peer's warps (4 GB200 ranks: every one of the 32 channels holds the 3 peers' works and the copy's,
 * 5 warps each, the peers' 2 receive and 3 send warps as in place, {@code src/device/sendrecv.h} nWarpPerWork). The
 * copy's warps at a rate of their own (1.27 GB/s a warp on 4 GB200, 1.15-1.18 on 2 H200) would make the 8 GB200 ranks
 * (2 copy warps on each of 32 channels) 16-24 % slower out of place; one byte budget per channel for sends, receives
 * and copy (44 GB/s on both GB200 runs) would make 2 H200 50 % slower. In-place AlltoAll is unchecked (N/A, l. 55-56).
 */
public final class P2pModel {

    private P2pModel() {
    }

    /**
     * @param plan      channel plan
     * @param pp        performance parameters
     * @param c         AllToAll, SendRecv, Gather or Scatter
     * @param sizeBytes nccl-tests size S, bytes
     * @param intraType NCCL path type between GPUs of a node (NVL or worse)
     * @return the estimate; its protocol is reported through {@link #protocol}
     */
    public static PerfEstimate estimate(ChannelPlan plan, PerformanceParameters pp, Collective c, long sizeBytes,
            PathType intraType) {
        return estimate(plan, NcclSettings.DEFAULTS, NcclVersion.DEFAULT, pp, c, sizeBytes, intraType);
    }

    /**
     * As {@link #estimate(ChannelPlan, PerformanceParameters, Collective, long, PathType)} under NCCL settings
     * (NCCL_P2P_NET_CHUNKSIZE, NCCL_BUFFSIZE act on the network proxy's limit, {@link #proxyRankGBps}).
     *
     * @param s NCCL settings
     * @param v NCCL release modelled (its p2p channel and protocol rules, {@link P2pPeerChannels})
     * @return the estimate
     */
    public static PerfEstimate estimate(ChannelPlan plan, NcclSettings s, NcclVersion v, PerformanceParameters pp,
            Collective c, long sizeBytes, PathType intraType) {
        return estimate(plan, s, v, v.minor(), pp, c, sizeBytes, intraType);
    }

    /**
     * As {@link #estimate(ChannelPlan, NcclSettings, NcclVersion, PerformanceParameters, Collective, long, PathType)}
     * for a run of NCCL 2.{@code runMinor}, which decides whether libfabric's eager copy of each remote connection's
     * first send is charged ({@link #eagerCopyUs}).
     *
     * @param runMinor the run's NCCL 2 minor release
     * @return the estimate
     */
    public static PerfEstimate estimate(ChannelPlan plan, NcclSettings s, NcclVersion v, int runMinor,
            PerformanceParameters pp, Collective c, long sizeBytes, PathType intraType) {
        int n = plan.nRanks();
        double q = plan.ppn();
        boolean multi = plan.nNodes() > 1;
        if (n == 1) {
            return new PerfEstimate(pp.launchOverheadUs(), 1, pp.launchOverheadUs(), Double.POSITIVE_INFINITY,
                    "one rank: local copy");
        }
        int peers = c == Collective.SEND_RECV ? 1 : n - 1;
        double perPeer = c == Collective.SEND_RECV ? sizeBytes : (double) sizeBytes / n;
        Protocol p = protocol(plan, s, v, c, sizeBytes, intraType);
        double intraBytes;
        double interBytes;
        if (c == Collective.SEND_RECV) {
            intraBytes = q > 1 ? sizeBytes : 0;
            interBytes = multi ? sizeBytes : 0;
        } else {
            intraBytes = sizeBytes * (q - 1) / n;
            interBytes = sizeBytes * (n - q) / n;
        }
        double eff = pp.bwEfficiency(p) * (p == Protocol.LL ? 0.5 : 1.0);
        HardwareClass intraHw = intraType == PathType.NVL ? HardwareClass.NVLINK : HardwareClass.PCI;
        double intraBw = concurrentIntraBw(plan, s);
        // a PXN send crosses NVLink to its proxy GPU first: the root's links carry those bytes too
        double linkBytes = intraBytes + (multi ? interBytes * pxnRelayShare(plan, s, c, intraType) : 0);
        double tIntra = intraBytes > 0 ? linkBytes / (1000.0 * intraBw * eff * pp.bwEfficiency(intraHw))
                + ShmStepWaits.p2pUs(plan, s, v, intraType, p, (long) perPeer)
                + ShmStepWaits.p2pFillUs(plan, s, v, intraType, p, (long) perPeer, eff) : 0;
        NetClassProfile net = pp.netProfile(plan.netClass());
        int netConnections = connections(plan, s, v, intraType, peers, perPeer);
        double message = P2pPeerChannels.netSendBytes(plan, s, intraType, (long) perPeer, v);
        double socket = SocketStreams.rankGBps(plan, s, pp, netConnections, message, p);
        double perRankNet = Math.min(senderNetGBps(plan, s, c, intraType) * net.bwFraction(), socket);
        double tInter = multi && interBytes > 0 ? interBytes / (1000.0 * perRankNet * eff
                * pp.bwEfficiency(HardwareClass.NET)) : 0;
        int channels = P2pPeerChannels.busyChannels(plan, s, intraType, peers, (long) perPeer, v);
        double cap = channels * pp.perChannelCap(p, GpuGeneration.of(plan.minSm()));
        // SendRecv's intra-node and cross-node sends are made by different ranks; each rank sends S once
        double rankBytes = c == Collective.SEND_RECV ? sizeBytes : intraBytes + interBytes;
        double tCap = BusBandwidth.timeUs(rankBytes, cap);
        double proxy = multi && p == Protocol.SIMPLE ? proxyRankGBps(plan, s, pp, netConnections, message)
                : Double.POSITIVE_INFINITY;
        double tProxy = multi && interBytes > 0 ? BusBandwidth.timeUs(interBytes, proxy) : 0;
        double tBw = Math.max(tIntra, Math.max(tInter, tCap));
        List<P2pKernelSplit.Kernel> split = kernels(plan, s, v, c, intraType, perPeer);
        int kernels = split.size();
        if (split.get(0).maxParts() > 0) {
            tCap = P2pKernelSplit.bandwidthUs(split, tIntra, tInter,
                    perPeer / P2pPeerChannels.forOperation(plan, s, intraType, (long) perPeer, v),
                    pp.perChannelCap(p, GpuGeneration.of(plan.minSm())));
            tBw = Math.max(tBw, tCap);
        }
        boolean capBinds = tBw == tCap;
        boolean nicBinds = tBw == tInter;
        HardwareClass hw = multi ? HardwareClass.NET : intraHw;
        double step = TuningConstants.NCCL_2_30_7.hwLatency(hw, Algorithm.RING, p);
        int rounds = (peers + plan.p2pChannels() - 1) / plan.p2pChannels();
        double latency = pp.launchOverheadUs() + pp.p2pBaseLatencyUs() + rounds * step
                + (multi ? rounds * net.hopLatencyUs() : 0)
                + (multi && interBytes > 0 ? eagerCopyUs(plan, runMinor, message) : 0);
        // the per-step latency already charges one network send per round: the proxy's sends overlap it
        boolean proxyBinds = tProxy > latency + tBw;
        if (proxyBinds) {
            tBw = tProxy - latency;
        }
        double time = latency + tBw;
        // only the text that stands is formatted
        String bottleneck = latency > time / 2
                ? "latency: " + fixed(latency, 1) + " us of " + fixed(time, 1) + " us"
                : proxyBinds ? "network steps: " + fixed(net.stepUs(), 1) + " us per send"
                : capBinds ? "per-channel throughput: " + channels + " p2p channels"
                        + (kernels > 1 ? " in " + kernels + " kernels" : "")
                : nicBinds ? netText(plan, perRankNet, socket == perRankNet, q)
                : "GPU links: " + fixed(intraBw, 1) + " GB/s per rank";
        double algBw = tBw > 0 ? BusBandwidth.algBw(sizeBytes, tBw) : Double.POSITIVE_INFINITY;
        return new PerfEstimate(time, channels, latency, algBw, bottleneck + " (" + (long) perPeer
                + " B per peer)");
    }

    /**
     * The kernels NCCL cuts an AllToAll into ({@link P2pKernelSplit}): modelled for the releases up to 2.28.9 on
     * nodes of equal size; one kernel otherwise, and for the other collectives (SendRecv has one peer; Gather and
     * Scatter load the root alone).
     *
     * @return the kernels, at least one
     */
    static List<P2pKernelSplit.Kernel> kernels(ChannelPlan plan, NcclSettings s, NcclVersion v, Collective c,
            PathType intraType, double perPeer) {
        if (c != Collective.ALL_TO_ALL || v.tables() != NcclVersion.V2_28_9
                || !P2pKernelSplit.applies(plan.nNodes(), plan.nRanks(), plan.maxLocalRanks())) {
            return List.of(new P2pKernelSplit.Kernel(0, 0, 0));
        }
        return P2pKernelSplit.kernels(plan.nNodes(), plan.maxLocalRanks(), plan.p2pChannels(),
                P2pPeerChannels.perPeer(plan, intraType, v),
                P2pPeerChannels.forOperation(plan, s, intraType, (long) perPeer, v), s.workFifoBytes());
    }

    /**
     * The network bandwidth one rank can use, GB/s per direction: it sends through one NIC of its node at best (its
     * rail NIC), and the node's NICs are shared by its q ranks, N / max(q, NICs per node); where the GPU-NIC paths
     * cross the CPU (GPU Direct RDMA off, the socket transport: NCCL 2.30.7 {@code src/transport/net.cc} keeps a
     * connection's buffers in host memory unless {@code useGdr}, which {@code sendSetup} and {@code recvSetup} take
     * from {@code ncclTopoCheckGdr} for every connection, the p2p ones as the collectives') at
     * most the rank's share of what those paths carry, {@link ChannelPlan#nodeNetBw} / q, the figure the bound
     * column's NIC part uses ({@code PhysicalBound#interBusBw}).
     *
     * @param plan channel plan
     * @return GB/s
     */
    static double rankNetGBps(ChannelPlan plan) {
        double q = plan.ppn();
        return Math.min(plan.nodeNicBw() / Math.max(q, Math.max(1, plan.nicsPerNode())), plan.nodeNetBw() / q);
    }

    /**
     * The network bandwidth of the rank whose sends (or receives) bind, GB/s per direction: {@link #rankNetGBps} for
     * AllToAll, where the node's ranks all use the network; for Scatter and Gather only the root does, and for
     * SendRecv only the node's last rank (nccl-tests 2.19.6 {@code src/sendrecv.cu}: rank r sends to r + 1, ranks
     * placed node by node), whose one send leaves by one NIC (with PXN the NIC local to the node GPU of the peer's
     * device index, without it its own) and whose node's other ranks send on NVLink: one NIC, unshared, as a Gather
     * root's.
     * NCCL's p2p connections pick their NIC in {@code ncclTopoGetNetDev} (v2.18.3-1 {@code src/graph/search.cc}
     * lines 1038-1098, v2.28.9-1 the same function): a send to a peer on another node starts at the sender's own
     * local NIC ({@code ncclTopoGetLocalNet}), then with PXN (NCCL_P2P_PXN_LEVEL 2, unless NCCL_PXN_DISABLE=1)
     * takes the NIC local to the node GPU of the peer's device index and that GPU as proxy, when the sender reaches
     * it over NVLink ({@code paths[GPU][g1].type <= PATH_NVL}; NCCL_P2P_PXN_LEVEL is not modelled, its default 2
     * taken); a receive always takes the receiver's own NIC
     * ({@code recvSetup} passes its own rank as peer: v2.18.3-1 {@code src/transport/net.cc} line 212, v2.28.9-1
     * line 343). So a Scatter root over NVLink with PXN spreads its sends over the NICs of every rail its peers sit
     * on, all the NICs local to the node's ranks ({@link ChannelPlan#nodeNicBw}); a Gather root, or a Scatter root
     * without PXN, has its own NICs alone, the node's NICs spread over its GPUs: nodeNicBw / min(q, NICs), not shared
     * (the node's other ranks do not use the network). Where the GPU-NIC paths cross the CPU the root has at most
     * the same share of {@link ChannelPlan#nodeNetBw}.
     *
     * @param plan      channel plan
     * @param s         settings (NCCL_PXN_DISABLE)
     * @param c         the collective
     * @param intraType NCCL path type between GPUs of a node (PXN needs NVL)
     * @return GB/s
     */
    static double senderNetGBps(ChannelPlan plan, NcclSettings s, Collective c, PathType intraType) {
        if (c != Collective.SCATTER && c != Collective.GATHER && c != Collective.SEND_RECV) {
            return rankNetGBps(plan);
        }
        double node = Math.min(plan.nodeNicBw(), plan.nodeNetBw());
        boolean pxn = c == Collective.SCATTER && !s.pxnDisable() && intraType == PathType.NVL;
        // a SendRecv rank has one peer: one NIC with PXN or without
        return pxn ? node : node / Math.max(1, Math.min(plan.ppn(), Math.max(1, plan.nicsPerNode())));
    }

    /**
     * The receiver's copy of the eagerly sent bytes of a remote connection's first network send, on the EFA hosts
     * whose aws-ofi-nccl runs its SENDRECV protocol over libfabric's read-based messages ({@link LibfabricEagerCopy}:
     * A100 p4d and p4de, NCCL 2.15 and later): each p2p send to a peer on another node is one tagged message of
     * {@code message} bytes (the plugin does not tell p2p from collective sends, aws/aws-ofi-nccl v1.13.2-aws
     * {@code src/nccl_ofi_sendrecv.c}), so the call's first send on every remote connection lands as eager packets up
     * to libfabric's runt size and is copied into GPU memory before the receiver's proxy hands the step to its GPU.
     * The connections' first sends are posted together; one copy is on the critical path, as one crossing's fill.
     *
     * @param plan     channel plan
     * @param runMinor the run's NCCL 2 minor release
     * @param message  data bytes of one network send ({@link P2pPeerChannels#netSendBytes})
     * @return microseconds; 0 off those hosts
     */
    static double eagerCopyUs(ChannelPlan plan, int runMinor, double message) {
        return LibfabricEagerCopy.provider(plan, runMinor).map(pr -> LibfabricEagerCopy.copyUs(message, pr))
                .orElse(0.0);
    }

    /**
     * The share of a Scatter root's cross-node bytes that PXN relays over NVLink to a proxy GPU
     * ({@link #senderNetGBps}): the peers on the root's own rail leave by its own NIC, the others, 1 - 1 / min(q,
     * NICs) of them, through the proxy GPU's buffers (v2.18.3-1 {@code src/graph/search.cc} lines 1089-1093: the proxy is
     * the NIC's local GPU); 0 without PXN and for the other collectives (not modelled for AllToAll and SendRecv).
     *
     * @return 0 to 1
     */
    static double pxnRelayShare(ChannelPlan plan, NcclSettings s, Collective c, PathType intraType) {
        if (c != Collective.SCATTER || s.pxnDisable() || intraType != PathType.NVL) {
            return 0;
        }
        return 1 - 1 / Math.max(1, Math.min(plan.ppn(), Math.max(1, plan.nicsPerNode())));
    }

    /**
     * @return the bottleneck text when the network binds: the socket streams, the staged paths, or the NICs, per rank
     *         and the NICs it shares with the node's other ranks of the call, e.g. {@code NICs: 50.0 GB/s per rank of
     *         50.0 GB/s on the 1 NIC local to the node's 1 rank} (a 2-rank call between two 8-NIC hosts uses one NIC
     *         of each, not the host's 400 GB/s: {@link ChannelPlan#nodeNicBw})
     */
    private static String netText(ChannelPlan plan, double perRankNet, boolean streams, double q) {
        String perRank = fixed(perRankNet, 1) + " GB/s per rank of ";
        if (streams) {
            return "TCP streams: " + fixed(perRankNet, 1) + " GB/s per rank (socket transport)";
        }
        if (plan.nodeNetBw() < plan.nodeNicBw()) {
            return "GPU-NIC paths through the CPU: " + perRank + fixed(plan.nodeNetBw(), 1) + " GB/s per node (NICs "
                    + fixed(plan.nodeNicBw(), 1) + ")";
        }
        int nics = Math.max(1, plan.nicsPerNode());
        String ranks = q == Math.rint(q) ? Long.toString((long) q) : fixed(q, 1);
        return "NICs: " + perRank + fixed(plan.nodeNicBw(), 1) + " GB/s on the " + nics + (nics == 1 ? " NIC" : " NICs")
                + " local to the node's " + ranks + (q == 1 ? " rank" : " ranks");
    }

    /**
     * The bandwidth one rank sends to its node peers at while every rank of the node sends at once, GB/s. Over NCCL's
     * SHM transport ({@link ShmLinkShare#shm}: paths through the CPU beyond the P2P level in force or P2P unsupported)
     * the paths cross links every rank's path crosses too: two GPUs behind one PCIe switch both send up and receive
     * down the switch's uplink. The ring's path rate counts every rank's hop on those shared links, so an AllToAll or
     * SendRecv of one node on such paths gets no more than it, at the p2p share ({@link CpuRouteRate#concurrentBw},
     * {@link ShmLinkShare#p2pShare}); the pair path alone
     * is what one rank gets when it sends alone, as a Broadcast does ({@link OneWayPair}). Paths NCCL connects peer
     * to peer (NVLink, PIX, PXB, or through the CPU where the P2P level allows it) and calls across nodes, whose ring
     * graph is paced by the NICs, keep gpuPathBw. Measured: 2x RTX 2080 Ti behind one PCIe Gen3 switch, SHM, AllToAll
     * 4.6 GB/s busbw from 16 MiB to 1 GiB against Broadcast 11.1 (validation/src/test/resources/data/A-allreduce-
     * allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt lines 131 and 258): the exchange runs well
     * under half the one-way rate.
     *
     * @param plan channel plan
     * @param s    settings (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL)
     * @return GB/s per rank
     */
    static double concurrentIntraBw(ChannelPlan plan, NcclSettings s) {
        return CpuRouteRate.concurrentBw(plan, s);
    }

    /**
     * The most a rank sends across nodes through NCCL's proxy, GB/s: its network sends are p2p chunks
     * ({@link P2pPeerChannels#netSendBytes}: NCCL_P2P_NET_CHUNKSIZE at most NCCL_BUFFSIZE / 8, cut to a half or a
     * quarter for small operations, at most a channel's part of the data per peer), one step each, NCCL_STEPS
     * of them in flight per connection, each slot back after two network steps of
     * {@link PerformanceParameters#netStepUs} ({@link NetTransport#connectionGBps}); the rank keeps
     * {@link #connections} of them busy.
     *
     * @param plan        channel plan (p2p channels, NICs)
     * @param s           settings
     * @param pp          parameters
     * @param connections network connections the rank keeps busy ({@link #connections})
     * @param message     data bytes of one network send ({@link P2pPeerChannels#netSendBytes})
     * @return GB/s; infinite when netStepUs is 0
     */
    static double proxyRankGBps(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, int connections,
            double message) {
        return connections * NetTransport.connectionGBps(message, NcclDevice.NCCL_STEPS,
                Protocol.SIMPLE, s, pp.netProfile(plan.netClass()).stepUs());
    }

    /**
     * The network connections a rank keeps busy: its sends to peers on other nodes on the channels NCCL splits each
     * over by its size, min(p2p channels, remote peers x channels of one send) ({@link P2pPeerChannels#busy}; the
     * channels per peer are the fewest over all the rank's peers, a node peer's included, NCCL 2.30.7
     * {@code src/graph/paths.cc ncclTopoComputeP2pChannelsPerPeer}).
     *
     * @param plan      channel plan
     * @param s         settings
     * @param v         NCCL release modelled
     * @param intraType NCCL path type between GPUs of a node
     * @param peers     peers of the rank
     * @param perPeer   bytes per peer
     * @return connections, at least 1
     */
    static int connections(ChannelPlan plan, NcclSettings s, NcclVersion v, PathType intraType, int peers,
            double perPeer) {
        int remotePeers = (int) Math.max(1, Math.min(peers, plan.nRanks() - plan.ppn()));
        return P2pPeerChannels.busy(plan, s, intraType, remotePeers, (long) perPeer, v);
    }

    /**
     * The protocol of the call's binding send: across nodes a remote peer's, Simple at every size
     * ({@link P2pPeerChannels#netProtocol}: no LL buffers on NCCL's network p2p connections; every p2p call between
     * nodes has a send to another node, and that send's network step is the slowest); on one node one peer's send
     * ({@link P2pPeerChannels#protocol}), SendRecv sending S, the others S / nranks.
     *
     * @param plan      channel plan
     * @param s         settings
     * @param v         NCCL release modelled
     * @param c         the collective
     * @param sizeBytes nccl-tests size S, bytes
     * @param intraType NCCL path type between GPUs of a node
     * @return LL or Simple
     */
    public static Protocol protocol(ChannelPlan plan, NcclSettings s, NcclVersion v, Collective c, long sizeBytes,
            PathType intraType) {
        if (plan.nNodes() > 1) {
            return P2pPeerChannels.netProtocol();
        }
        long perPeer = c == Collective.SEND_RECV ? sizeBytes : sizeBytes / plan.nRanks();
        return P2pPeerChannels.protocol(plan, s, intraType, perPeer, v);
    }
}
