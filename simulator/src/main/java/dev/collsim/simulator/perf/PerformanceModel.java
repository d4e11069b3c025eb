package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.bound.PhysicalBound;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.CollTaskCells;
import dev.collsim.simulator.channel.RuntimeChannels;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.AlgoChoice;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.simulator.tuning.HardwareClass;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.simulator.tuning.ReleaseRules;
import dev.collsim.simulator.tuning.RootedRingLatency;
import dev.collsim.topology.PathType;

/**
 * collsim's prediction of the real time of a collective NCCL covers, for a given (algorithm, protocol), starting
 * from NCCL's own terms and adding what NCCL's model ignores:
 *
 * <pre>
 *   channels  = channels NCCL uses for this call (runtime count after NCCL_MIN/MAX_CTAS, reduced per call, §3.1)
 *   busCap    = channels x perChannelCap[protocol][generation] x threads / default threads (GB/s, bus bandwidth;
 *               a rooted Simple Ring's half-size slices x their handshakes' share, {@link RootedSliceWaits};
 *               on several nodes the cap is at least NCCL's busBw / default runtime channels but a Hopper Ring's,
 *               see #perChannelCap and {@link RingChannelRate}; a Ring LL/LL128 between nodes whose receive FIFO is
 *               host memory (GPU Direct RDMA off) at most its loads' rate, {@link ShmHostReads#netPerChannelBusBw};
 *               NVLS/NVLSTree use perChannelCapNvls per NVLS channel instead: their channels drive NVSwitch
 *               multicast, and the 8x H100 NVLS plateau of 478.9 GB/s on 16 channels exceeds 16 x the ring cap)
 *   algBw     = min(ncclAlgBw x bwEfficiency[protocol] x bwEfficiency[link class]
 *                       (x nvlsBwScale[generation] for NVLS/NVLSTree,           (link class: #linkClass)
 *                       x NCCL's one-node NVLS figure without its search ceiling, {@link NvlsSpeedCeiling};
 *                       x Blackwell's rate at 32 x 32 concurrent NVLS pieces, {@link NvlsChannelShare};
 *                       one host through the CPU (Ring, the Tree chain): x the links' rate / NCCL's ring
 *                       graph, {@link CpuRouteRate};
 *                       a 2-rank Ring Broadcast/Reduce over SHM: its one hop's path, {@link OneWayPair};
 *                       Ring LL128 of NCCL 2.9 or older on one node: / its input loads' extra round
 *                       trips, {@link Ll128SourceLoads}, and a Ring AllReduce LL/LL128 of 2.19 or older
 *                       / its channel 0's rounded share, {@link RingMinChunk} (busCap too, on any number
 *                       of nodes);
 *                       a Ring or the Tree chain over SHM, a GPU storing to and loading from host memory
 *                       in one step: x the duplex share of its link, {@link ShmLinkShare}; the chain's
 *                       middle ranks at most the link's duplex ceiling, {@link ShmLinkShare#chainShare};
 *                       over P2P through the CPU, Simple on PCIe Gen4: x the measured P2P share of
 *                       NCCL's link figure, {@link PcieP2pShare}),
 *                   busCap x ratio,                                             (ratio = NCCL's bus-to-alg ratio)
 *                   inter-node NIC bound x bwEfficiencyNet / nccl-tests bus factor) (PhysicalBound#interBusBw)
 *               (algBw, busCap and the NIC term together at most the physical bound, PhysicalBound#busBw: a link
 *               factor above NCCL's figure never lifts a call over its links)
 *   proxy     = network proxy limit / nccl-tests bus factor                   (NetTransport#busBwCap)
 *   fill      = the pipeline fill, {@link PipelineFill}: pipelineFillChunks x min(chunk, nBytes / (channels x nRanks))
 *               / (1000 x busBw per channel), busBw per channel = min(link and NIC busBw over at least NCCL's default
 *               channel count, busCap / channels); scaled or replaced for one host, SHM, one-step Ring loops,
 *               Tree/Simple between nodes and the NVLS/NVLSTree kernel loop (the cases are listed there)
 *   shmSimple = a Simple Ring or Tree chain over SHM: one more host-read round trip per hop, the data loads after
 *               the flag's ({@link ShmHostReads#simpleDataReadsUs})
 *   posts     = NVLSTree AllReduce between nodes: the proxy's sends on channels beyond the 16 NCCL's latency stands
 *               for, 3 us each on each hop ({@link NvlsTreePosts})
 *   netHop    = (the network class's added latency, 0 on InfiniBand, + an LL step's stores to its host-memory send
 *               FIFO, {@link LlSendFifo}, and its crossing, {@link LlStepCrossing}) x NCCL's inter-node
 *               steps ({@link NetHops}; the class's latency twice for Simple on EFA before Hopper, the GDR flush,
 *               {@link NetHops#latencyCharges}); the inter-node
 *               NIC bound x the class's bwFraction (EFA Tree/Simple on A100-class hosts: x the share its later sends'
 *               rendezvous leave, {@link LibfabricReadRendezvous}), for NCCL's socket transport at most its TCP
 *               streams' ({@link SocketStreams})
 *   eagerCopy = a Simple call over EFA on A100-class hosts: each network crossing's first send copies its eager bytes
 *               (at most libfabric's runt size) into GPU memory at the receiver, {@link LibfabricEagerCopy}; on
 *               Hopper EFA hosts a first send above 8 KiB waits one crossing for its control message instead
 *               ({@link OfiRdmaCtrlWait})
 *   turns     = an LL call's network steps waiting for their rank's proxy thread to serve its other connections
 *               ({@link NetTransport#proxyTurnsUs}); overlaps the data's time, which a step's wait is not beyond
 *   time_us   = max(launchOverheadUs + latencyScale x ncclLatency + fill + posts + netHop + shmSimple + eagerCopy
 *                       + max(nBytes / (1000 x algBw), turns),
 *                   nBytes / (1000 x network proxy limit)          (the proxy's sends overlap NCCL's latency; a slot
 *                       + TCPX's last delivery, {@link NetSendCycle},  holds its send's bytes, NetSendCycle)
 *                   launchOverheadUs + a Ring LL/LL128 over SHM's host-memory reads, {@link ShmHostReads#timeUs})
 * </pre>
 *
 * where a one-host Ring/Simple call over NVLink P2P has its link's rate factor and, for AllReduce, AllGather and
 * ReduceScatter, the copy of the ring loop's primitive that leaves the link idle added to the link's time (not to the
 * per-channel cap's, which holds it) ({@link RingFinalRecv}), and where
 * ncclAlgBw is NCCL's table entry times the tree correction made
 * continuous in size (for Tree AllReduce on one node, the chain's real bandwidth instead, with its own ratio: {@link
 * IntraNodeChain}; for Tree AllReduce Simple on two nodes, the links' bandwidth from the tree's data movement: {@link
 * TwoNodeTree}) ({@link CostTable#smoothCorrection}), ncclLatency NCCL's latency after the ring plateau rule (less
 * the hops a one-host LL Ring over PCIe hides behind its data, {@link PcieLlStream}, and for a one-host Simple
 * Ring over PCIe its steps at two store flights each, over SHM plus the counter poll's host-read round trip, instead
 * of NCCL's PCI figure, {@link PcieSimpleStep}; for LL128 on one host's PCIe paths, where NCCL never enables it by
 * default, a base of 9.5 us measured instead of NCCL's 14.0, {@link PcieLl128Base}; for a Ring LL128 on one Hopper
 * NVLink host a step of 1.0 us measured instead of NCCL's 1.9, {@link NvlinkLl128Hop}; for LL on one A100 NVLink host
 * a step of 1.13 us measured instead of NCCL's 0.6 while the links' data time beyond the channels' own does not hide
 * it, {@link NvlinkLlHop}; for a tiny
 * one-host Ring LL AllReduce only the steps its rank-chunks with data wait for, {@link RingLlEmptySteps}; for a
 * Ring/Simple AllReduce between nodes only the share of NCCL's per-step part its chunks do not hide, less the
 * channels' spare time where a Hopper ring's NICs bind, {@link RingStepOverlap}), busCap uses
 * the channel count as a continuous quantity ({@link #effectiveChannels}), and chunk is the protocol's chunk
 * ({@link CalcCollChunking#chunk}, §3.3:
 * Simple buffSize/8 x 4 for Ring AllReduce/AllGather/ReduceScatter, x1 otherwise; LL llBuffSize/16; LL128
 * ll128BuffSize/8 x 15/16; NVLS 128 KiB).
 * This class is stateless and thread-safe.
 */
public final class PerformanceModel {

    private PerformanceModel() {
    }

    /**
     * The estimate for the call's (algorithm, protocol), with the channel count a tuner plugin gives the call
     * ({@code *nChannels} of {@code getCollInfo}; NCCL 2.30.7 {@code src/enqueue.cc ncclGetAlgoInfo} uses it
     * instead of its per-call count when non-zero, and {@code scheduleCollTasksToPlan} caps it at comm.nChannels,
     * or the NVLS channels for NVLS/NVLSTree: {@link RuntimeChannels#tunerCap}). The per-channel throughput cap
     * counts at most nBytes / (maxThreads x threshold) channels, as NCCL's own reduction does: a channel with
     * less work than its threads' threshold does not reach its measured rate, so forcing more channels than NCCL's
     * per-call count is never predicted faster, and forcing fewer is slower wherever the per-channel cap binds.
     *
     * @param plan           the channel plan
     * @param s              NCCL settings
     * @param pp             performance parameters
     * @param table          NCCL's cost table of the communicator
     * @param func           collective (one NCCL tunes)
     * @param choice         NCCL's entry for the (algorithm, protocol) at this size
     * @param nBytes         bytes NCCL selects on (total buffer for AllGather/ReduceScatter)
     * @param forcedChannels the tuner's channel count, 0 for NCCL's own per-call count
     * @param copyScale      the GPU's local copy rate over the H200's ({@link LocalCopy#scale}), for
     *                       {@link RingFinalRecv}
     * @return the estimate
     */
    public static PerfEstimate estimate(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, CostTable table,
            Collective func, AlgoChoice choice, long nBytes, int forcedChannels, double copyScale) {
        Algorithm a = choice.algorithm();
        Protocol p = choice.protocol();
        int channels = forcedChannels > 0 ? Math.min(forcedChannels, RuntimeChannels.tunerCap(a, plan))
                : RuntimeChannels.perCall(a, p, nBytes, plan, s);
        double effChannels = forcedChannels > 0 ? Math.min(channels, occupiedChannels(a, p, nBytes, plan, s))
                : effectiveChannels(a, p, nBytes, plan, s, channels);
        // the planner's cells (CollTaskCells) bind at NCCL's default threads only on LL128 (5 KiB a channel against
        // cells of 8-32 KiB; Simple's 32 KiB and LL's 4 KiB x nRanks are at least a cell); fewer threads: not modelled
        if (p == Protocol.LL128 && (a == Algorithm.RING || a == Algorithm.TREE)) {
            channels = CollTaskCells.channels(func, p, nBytes, plan.nRanks(), channels,
                    table.input().constants().runMinor());
            effChannels = Math.min(effChannels, channels);
        }
        double chainAlgBw = IntraNodeChain.applies(func, a, plan.nNodes(), plan.nRanks())
                ? IntraNodeChain.algBw(table.input(), p) : 0;
        boolean chain = chainAlgBw > 0;
        double ratio = chain ? IntraNodeChain.busToAlgRatio(plan.nRanks())
                : NcclTuningModel.busToAlgRatio(func, a, plan.nRanks());
        double eff = pp.bwEfficiency(p) * pp.bwEfficiency(linkClass(plan));
        double tableAlgBw = tableAlgBw(plan, table, func, a, p);
        double corr = LlStepCrossing.treeCorrection(table, plan, s, func, a, p, nBytes);
        double ringLinkAlgBw = RingChannelRate.linkAlgBw(plan, func, a, p, tableAlgBw);
        ReleaseRules rules = table.input().constants().rules();
        double staging = Ll128SourceLoads.timeFactor(func, a, p, plan.nRanks(), rules) * RingMinChunk.factor(func, a,
                p, nBytes, channels, plan.nRanks(), RuntimeChannels.maxThreads(a, p, plan.graphs(), s), s, rules);
        double linkAlgBw = OneWayPair.linkAlgBw(plan, s, func, a, (chain ? chainAlgBw : ringLinkAlgBw * corr) * eff
                * CpuRouteRate.ringScale(plan, a, chain) * RingFinalRecv.linkFactor(plan, s, func, a, p), eff)
                * ShmLinkShare.factor(plan, s, func, a, p, chain)
                * PcieP2pShare.factor(plan, s, a, p, chain) / (plan.nNodes() == 1 ? staging : 1.0);
        boolean nvls = a == Algorithm.NVLS || a == Algorithm.NVLS_TREE;
        if (nvls) {
            linkAlgBw *= pp.nvlsBwScale(GpuGeneration.of(plan.minSm())) * NvlsSpeedCeiling.factor(table, func, a)
                    * NvlsChannelShare.factor(GpuGeneration.of(plan.minSm()), a, channels, NvlsLoop.heads(plan));
        }
        double perChannel = nvls ? pp.perChannelCapNvls(GpuGeneration.of(plan.minSm()))
                : perChannelCap(plan, pp, table, func, a, p, tableAlgBw) * threadShare(a, p, plan, s);
        perChannel *= RootedSliceWaits.capShare(plan, s, table.input().constants(), func, a, p, perChannel);
        perChannel = Math.min(perChannel, ShmHostReads.netPerChannelBusBw(plan, s, a, p));
        double capBus = effChannels * perChannel / staging, capAlgBw = capBus * ratio;
        NetClassProfile net = pp.netProfile(plan.netClass());
        double netBus = plan.nNodes() > 1 ? netBusBw(plan, s, pp, func, a, p, nBytes, effChannels, channels,
                rules.runMinor()) * pp.bwEfficiency(HardwareClass.NET) : Double.POSITIVE_INFINITY;
        double netAlgBw = BusBandwidth.algBwFromBusBw(func, plan.nRanks(), netBus);
        double proxyAlgBw = BusBandwidth.algBwFromBusBw(func, plan.nRanks(), NetTransport.busBwCap(plan, s, pp, func,
                a, p, nBytes, effChannels, netBus)), slotUs = BusBandwidth.timeUs(nBytes, proxyAlgBw);
        // never above the hardware: link factors over NCCL's figures (RingFinalRecv) stop at the physical bound
        double boundAlgBw = BusBandwidth.algBwFromBusBw(func, plan.nRanks(), PhysicalBound.busBw(plan, func));
        double otherAlgBw = Math.min(Math.min(Math.min(linkAlgBw, capAlgBw), netAlgBw), boundAlgBw);
        double fill = PipelineFill.fillUs(plan, s, pp, table, func, a, p, nBytes, new PipelineFill.Rates(channels,
                effChannels, chain, ratio, capBus, linkAlgBw, netAlgBw, otherAlgBw));
        double ncclLatency = ncclLatencyUs(plan, s, pp, table, func, choice, nBytes, otherAlgBw, capAlgBw, channels,
                RingStepOverlap.spareUs(nBytes, otherAlgBw, capAlgBw) / pp.latencyScale());
        double latency = pp.launchOverheadUs() + pp.latencyScale() * ncclLatency + fill + ShmHostReads.simpleDataReadsUs(
                plan, s, func, a, p) + net.hopLatencyUs() * NetHops.latencyCharges(func, a, p, plan)
                + LlSendFifo.extraUs(plan, s, func, a, p, nBytes, effChannels)
                + LlStepCrossing.extraUs(plan, s, func, a, p, nBytes, effChannels, channels)
                + NvlsTreePosts.extraUs(plan, func, a, p, channels)
                + LibfabricEagerCopy.extraUs(plan, s, func, a, p, nBytes, effChannels, channels, rules.runMinor())
                + ShmStepWaits.rootedUs(plan, s, func, a, p, nBytes, channels)
                + ShmStepWaits.treePairUs(plan, s, func, a, p, nBytes, channels)
                + OfiRdmaCtrlWait.extraUs(plan, s, func, a, p, nBytes, channels, net.hopLatencyUs());
        // NCCL's latency holds one network step (host-read trip) per step: proxy sends (SHM reads) overlap it
        // the idle copy adds to the link's time; the per-channel cap was measured with it (RingFinalRecv)
        double proxyUs = slotUs + NetSendCycle.lastDeliveryUs(plan, s, func, a, p, nBytes, effChannels, slotUs), bwUs = Math.max(BusBandwidth.timeUs(nBytes, otherAlgBw),
                BusBandwidth.timeUs(nBytes, Math.min(linkAlgBw, netAlgBw))
                + RingFinalRecv.extraUs(plan, s, pp, copyScale, func, a, p, nBytes));
        // each step waits for its rank's proxy to serve the other connections unless its own data takes longer
        double turnsUs = NetTransport.proxyTurnsUs(plan, s, func, a, p, nBytes, effChannels);
        double readsUs = pp.launchOverheadUs() + ShmHostReads.timeUs(plan, s, a, p, nBytes, effChannels * ratio);
        double time = Math.max(Math.max(latency + Math.max(bwUs, turnsUs), proxyUs), readsUs);
        double algBw = time > latency ? BusBandwidth.algBw(nBytes, time - latency) : otherAlgBw;
        String bottleneck = BottleneckText.of(new BottleneckText.Terms(time, latency, fill, proxyUs, readsUs, bwUs,
                turnsUs, netAlgBw, linkAlgBw, capAlgBw, channels, effChannels, perChannel, ratio, chain, rules.runMinor()), plan, s,
                pp, func, a, p, nBytes);
        return new PerfEstimate(time, channels, latency, algBw, bottleneck);
    }

    /**
     * NCCL's latency for the call's (algorithm, protocol), less the hops a one-host LL Ring over PCIe hides behind
     * its data ({@link PcieLlStream}; each step at its P2P flight inside a PCIe switch, {@link PcieSwitchHop}), a
     * one-host Simple Ring's PCIe step cost ({@link PcieSimpleStep}) and LL128's
     * base on PCIe paths ({@link PcieLl128Base}), a one-host Hopper Ring LL128 step over NVLink at its measured
     * figure ({@link NvlinkLl128Hop}) and the steps a tiny one-host Ring LL AllReduce's empty rank-chunks
     * do not wait ({@link RingLlEmptySteps}) and the steps a Ring/Simple AllReduce between nodes hides behind whole
     * chunks or behind the other channels' data on NICs its channels outrun ({@link RingStepOverlap}), plus what an LL step over NVLink costs an A100 host beyond NCCL's
     * figure while the links' data beyond the channels' own does not hide it ({@link NvlinkLlHop}). A rooted Ring (Broadcast, Reduce) keeps NCCL's own latency: one hop
     * when its channels share one order (the ranks run ahead into the next call, {@link RingLoopFill#rootedRunsAhead}),
     * nRanks hops otherwise; a call on one channel has one order and pays one hop
     * ({@link RootedRingLatency#rootedRingOneHopLatency}); between nodes the nRanks hops are composed of intra-node and
     * network steps as NCCL composes its other rings ({@link RingLoopFill#rootedTraversal}).
     *
     * @param channels the call's runtime channels
     *
     * @param otherAlgBw the call's algorithm bandwidth without the proxy limit, GB/s
     * @param capAlgBw   the algorithm bandwidth of the call's channels at their per-channel cap alone, GB/s
     * @param spareUs    the channels' spare time behind a slower link, before latencyScale ({@link
     *                   RingStepOverlap#spareUs})
     * @return microseconds, before latencyScale
     */
    private static double ncclLatencyUs(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, CostTable table,
            Collective func, AlgoChoice choice, long nBytes, double otherAlgBw, double capAlgBw, int channels,
            double spareUs) {
        double ncclLatency = choice.latencyUs() - PcieLlStream.hiddenUs(plan, s, pp, table, func, choice, nBytes,
                otherAlgBw) - PcieLlStream.overchargeUs(plan, s, table, func, choice)
                - PcieSimpleStep.overchargeUs(plan, s, table, func, choice)
                - PcieLl128Base.overchargeUs(plan, table, choice)
                - NvlinkLl128Hop.savedUs(plan, table, func, choice)
                - RingLlEmptySteps.savedUs(plan, s, table, func, choice, nBytes)
                - RingStepOverlap.hiddenUs(plan, s, table, func, choice, nBytes, channels, spareUs)
                + NvlinkLlHop.extraUs(plan, s, pp, table, func, choice, nBytes, otherAlgBw, capAlgBw);
        if (channels == 1 && RingLoopFill.rootedRing(choice.algorithm(), func)) {
            // one channel, one ring order: the chain runs ahead into the next call (RingLoopFill#rootedRunsAhead)
            ncclLatency = Math.min(ncclLatency, RootedRingLatency.rootedRingOneHopLatency(table.input(),
                    choice.protocol()));
        } else if (RingLoopFill.rootedTraversal(choice.algorithm(), func, plan, channels)) {
            // the whole traversal hop by hop; its chunks' store and forward is PipelineFill's (RingLoopFill)
            ncclLatency = Math.min(ncclLatency, RootedRingLatency.rootedRingHopLatency(table.input(),
                    choice.protocol()));
        }
        return ncclLatency;
    }

    /**
     * The network's bus bandwidth bound between nodes: the NICs' for this algorithm ({@link
     * PhysicalBound#interBusBw(ChannelPlan, Collective, boolean)}, a Ring's traffic as a Ring's, on the bandwidth the
     * GPU-NIC paths carry) at the class's line-rate share, or NCCL's socket streams' ({@link SocketStreams#busBwCap})
     * where lower.
     *
     * @return GB/s; infinite on one node
     */
    private static double netBusBw(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, Collective func,
            Algorithm a, Protocol p, long nBytes, double channels, int callChannels, int runMinor) {
        double nic = LibfabricReadRendezvous.applies(plan, a, p, runMinor)
                ? PhysicalBound.interBusBw(plan, func, false) * LibfabricReadRendezvous.lineShare(plan, s, func, nBytes,
                        channels, callChannels, runMinor)
                : nicBusBw(plan, pp, func, a);
        return Math.min(nic, SocketStreams.busBwCap(plan, s, pp, func, a, p, nBytes, channels));
    }

    /** @return the NIC part of {@link #netBusBw}: {@link PhysicalBound#interBusBw} x the class's bwFraction */
    static double nicBusBw(ChannelPlan plan, PerformanceParameters pp, Collective func, Algorithm a) {
        return PhysicalBound.interBusBw(plan, func, a == Algorithm.RING) * pp.netProfile(plan.netClass()).bwFraction();
    }

    /**
     * NCCL's table entry, or for Tree AllReduce Simple on two nodes the links' bandwidth from its data movement
     * ({@link TwoNodeTree}) where the communicator has a tree graph.
     *
     * @return algorithm bandwidth before efficiencies, GB/s
     */
    private static double tableAlgBw(ChannelPlan plan, CostTable table, Collective func, Algorithm a, Protocol p) {
        double twoNode = TwoNodeTree.applies(func, a, p, plan.nNodes(), plan.nRanks())
                ? TwoNodeTree.algBw(table.input()) : 0;
        return twoNode > 0 ? twoNode : table.bandwidth(func, a, p);
    }

    /**
     * The link class whose efficiency ({@link PerformanceParameters#bwEfficiency(HardwareClass)}) a call's
     * link-limited bandwidth carries, NCCL's own classification (NCCL 2.30.7 {@code src/graph/tuning.cc}, as
     * {@code NcclTuningModel} picks the per-step latency): NET between NCCL nodes, on one node NVLINK when the ring
     * graph's intra-host path type is NVL, else PCI.
     *
     * @param plan the channel plan
     * @return the class
     */
    public static HardwareClass linkClass(ChannelPlan plan) {
        return plan.nNodes() > 1 ? HardwareClass.NET
                : plan.graphs().ring().typeIntra() == PathType.NVL ? HardwareClass.NVLINK : HardwareClass.PCI;
    }

    /**
     * Bus bandwidth one runtime channel moves, GB/s: {@link PerformanceParameters#perChannelCap}, measured on
     * one-node NVLink rings, and so for a Hopper Ring on any number of nodes ({@link RingChannelRate}); otherwise on
     * several nodes at least NCCL's own bus bandwidth for the (algorithm, protocol) over
     * the default runtime channel count (before NCCL_MAX_NCHANNELS / NCCL_MIN_NCHANNELS), since NCCL duplicates
     * its graph channels into runtime channels on Hopper multi-node "to reach peak BW" (NCCL 2.30.7
     * {@code src/graph/connect.cc ncclTopoPostset}; fact sheet §3.4). Measured: 4x8 H100 (XE9680, 8x NDR, NCCL
     * 2.26.2) AllReduce 365.8 GB/s busbw at 16 GiB, ../shared/data/A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-
     * issue-nccltests309.txt, on 16 runtime channels (the channel count the 2-node H100 log
     * D-info-1x8-2x8xH100-aws-p5-eks-channels-excerpt.txt prints, "16 coll channels"): 22.9 GB/s per channel, above
     * the one-node 20.7 and close to NCCL's 8 graph channels x 48 GB/s / 16 = 24. Where collsim's link figure is
     * above NCCL's entry (the two-node Tree, {@link TwoNodeTree}), that figure up to the NICs' takes NCCL's place:
     * 2x2 DGX H100 moved 98.65 GB/s algbw at 8 GiB on NCCL's 8 runtime channels (A-allreduce-2x2xH100-dgx-ib.txt:51),
     * 2 x 98.65 / 8 = 24.7 GB/s of Tree bus bandwidth per channel, above the one-node 20.7.
     *
     * @param linkAlgBw the algorithm bandwidth collsim's links allow before efficiencies (NCCL's entry or
     *                  {@link TwoNodeTree}'s), GB/s
     */
    private static double perChannelCap(ChannelPlan plan, PerformanceParameters pp, CostTable table,
            Collective func, Algorithm a, Protocol p, double linkAlgBw) {
        double measured = pp.perChannelCap(p, GpuGeneration.of(plan.minSm()));
        if (plan.nNodes() == 1 || RingChannelRate.oneNodeRateBetweenNodes(a, GpuGeneration.of(plan.minSm()))) {
            return measured;
        }
        int defaultChannels = RuntimeChannels.collectiveChannels(plan.graphs(), plan.minSm(), plan.nNodes(),
                NcclSettings.DEFAULTS);
        double ratio = NcclTuningModel.busToAlgRatio(func, a, plan.nRanks());
        double ncclBusBw = table.bandwidth(func, a, p) / ratio;
        if (linkAlgBw > table.bandwidth(func, a, p)) {
            // the two-node tree's links carry more than NCCL's entry: NCCL's channels carry it, up to the NICs
            double nicAlgBw = BusBandwidth.algBwFromBusBw(func, plan.nRanks(), PhysicalBound.interBusBw(plan, func));
            ncclBusBw = Math.max(ncclBusBw, Math.min(linkAlgBw, nicAlgBw) / ratio);
        }
        return Math.max(measured, ncclBusBw / defaultChannels);
    }

    /**
     * The per-channel cap scales with the threads of the channel's CTA: {@code maxThreads(settings) /
     * maxThreads(NCCL defaults)} (NCCL_NTHREADS for LL and Simple, NCCL_LL128_NTHREADS for LL128; NCCL 2.30.7
     * {@code src/graph/tuning.cc}). The caps were measured or taken at NCCL's default thread counts; a CTA moves
     * data with loads and stores its threads keep in flight, so at a fixed per-thread depth its rate is proportional
     * to its threads (Little's law). A collsim assumption, calibratable through the caps; NCCL_NTHREADS=256 halves
     * the cap.
     *
     * @return factor, 1 at NCCL's defaults
     */
    static double threadShare(Algorithm a, Protocol p, ChannelPlan plan, NcclSettings s) {
        return (double) RuntimeChannels.maxThreads(a, p, plan.graphs(), s)
                / RuntimeChannels.maxThreads(a, p, plan.graphs(), NcclSettings.DEFAULTS);
    }

    /**
     * Channels as a continuous quantity for the throughput cap: NCCL drops whole channels while
     * nBytes < nc x nt x threshold, so a call just below a step runs on fewer channels; collsim uses
     * min(channels, nBytes / (nt x threshold)) (at least 1) so predicted time never drops as size grows.
     */
    private static double effectiveChannels(Algorithm a, Protocol p, long nBytes, ChannelPlan plan, NcclSettings s,
            int channels) {
        if (a == Algorithm.NVLS || a == Algorithm.NVLS_TREE || a == Algorithm.COLLNET_DIRECT
                || a == Algorithm.PAT) {
            return channels;
        }
        double perChannel = (double) RuntimeChannels.maxThreads(a, p, plan.graphs(), s)
                * RuntimeChannels.threadThreshold(a, p, plan.nRanks());
        return Math.max(1.0, Math.min(plan.runtimeChannels(), nBytes / perChannel));
    }

    /**
     * The channels a call's data keeps busy, for a channel count a tuner plugin forces: nBytes / (maxThreads x
     * threshold), at least 1, NCCL's own criterion for dropping channels (fact sheet §3.1; CollNetDirect: 640
     * threads x 512 B, its threshold before the head count); unbounded for NVLS, NVLSTree and PAT, which NCCL never
     * reduces. NCCL's own count is this rounded down (CollNetDirect: down to 16, 8, 4, 2 or 1), so a forced count
     * above NCCL's gains only where NCCL's steps leave channels idle; measured, more channels than NCCL's per-call
     * count are not faster at mid sizes (2x H200 AllReduce, data/device/h200x2-2026-11-29: 8 channels 14.38 us at
     * 128 KiB against 15.64 us on 16 and 21.30 us on NCCL's default count).
     */
    private static double occupiedChannels(Algorithm a, Protocol p, long nBytes, ChannelPlan plan, NcclSettings s) {
        if (a == Algorithm.NVLS || a == Algorithm.NVLS_TREE || a == Algorithm.PAT) {
            return Double.POSITIVE_INFINITY;
        }
        double perChannel = (double) RuntimeChannels.maxThreads(a, p, plan.graphs(), s)
                * RuntimeChannels.threadThreshold(a, p, plan.nRanks());
        return Math.max(1.0, nBytes / perChannel);
    }
}
