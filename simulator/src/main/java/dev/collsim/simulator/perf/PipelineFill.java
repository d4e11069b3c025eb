package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.RuntimeChannels;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.simulator.tuning.TreeChunk;

/**
 * The pipeline fill of {@link PerformanceModel}: the time before a call's pipeline of chunks runs at its bandwidth,
 * which NCCL's model (one latency plus bytes / bandwidth) leaves out. Used for collsim's time prediction only; the
 * model adds it to the latency term. The generic fill and the call kinds that replace or scale it:
 *
 * <pre>
 *   fill = pipelineFillChunks x min(chunk, nBytes / (channels x nRanks)) / (1000 x busBw per channel)
 *   busBw per channel = min(link and NIC busBw over at least NCCL's default channel count
 *                           ({@link #defaultEffectiveChannels}), busCap / channels)
 *   x 2 / nRanks for Ring and Tree on one host ({@link IntraNodeFill});
 *   none for a Ring over SHM ({@link ShmLinkShare#ringWithoutFill}) or a Ring AllReduce/AllGather/ReduceScatter over
 *     PCIe on one host ({@link IntraNodeFill});
 *   Tree/Simple AllReduce on one node over SHM: ((2 nRanks - 1) x share - e) x min(chunk, nBytes / channels) instead
 *     ({@link IntraNodeChain#fillSlices});
 *   x 0 for a Ring of one step per loop, 2-rank ReduceScatter/AllGather ({@link RingLoopFill});
 *   a rooted Ring (Broadcast, Reduce) whose channels share one order: none, it runs ahead into the next call
 *     ({@link RingLoopFill#rootedRunsAhead}); otherwise with Simple (nRanks - 2) x min(chunk, nBytes / channels)
 *     instead, store and forward of whole chunks ({@link RingLoopFill#rootedHops}); with LL128 between nodes one
 *     whole step (or the channel's share) per network hop instead ({@link RingLoopFill#rootedNetSteps});
 *   x 1/2 for a Ring AllReduce/AllGather/ReduceScatter Simple between nodes: one network send, a slice, of its
 *     chunk of 2 ({@link RingLoopFill#netSendShare});
 *   Tree/Simple AllReduce between nodes: hop by hop ({@link TreeSimpleFill}); CollNetChain/Simple AllReduce
 *     between nodes the same way up and down its chain ({@link CollNetChainFill});
 *   Tree/LL128 between nodes: one whole step of NCCL's halved Tree/LL128 chunk (or the channel's share) per
 *     network hop of the tree instead ({@link #treeLl128BetweenNodes});
 *   NVLS AllReduce: the kernel loop's cost instead, loops x nvlsLoopUs + one channel's piece of one loop at its
 *     rate (up to NCCL 2.19 a whole nHeads x chunk piece per channel, {@link NvlsLoop#fillBytes});
 *   NVLSTree AllReduce: this fill + loops x nvlsLoopUs ({@link NvlsLoop}); between nodes the fill of the NVLS + tree
 *     pipeline instead of this fill ({@link NvlsTreePipeline})
 * </pre>
 *
 * where chunk is {@link CalcCollChunking#chunk} and busCap the per-channel throughput cap over the call's channels.
 * Stateless and thread-safe.
 */
public final class PipelineFill {

    private PipelineFill() {
    }

    /**
     * The bandwidth terms of {@link PerformanceModel} the fill is charged at.
     *
     * @param channels    runtime channels of the call (NCCL's per-call count or a tuner's)
     * @param effChannels channels as a continuous quantity for the throughput cap, >= 1
     * @param chain       the call runs as the one-host Tree chain ({@link IntraNodeChain})
     * @param ratio       bus-to-algorithm bandwidth ratio of the call
     * @param capBus      per-channel throughput cap over effChannels, bus bandwidth, GB/s (1e9 B/s)
     * @param linkAlgBw   algorithm bandwidth the links allow, GB/s
     * @param netAlgBw    algorithm bandwidth the network allows (infinite on one node), GB/s
     * @param otherAlgBw  the call's algorithm bandwidth without the proxy limit, min of the three bounds, GB/s
     */
    record Rates(int channels, double effChannels, boolean chain, double ratio, double capBus, double linkAlgBw,
            double netAlgBw, double otherAlgBw) {
    }

    /**
     * @param plan   the channel plan
     * @param s      NCCL settings
     * @param pp     performance parameters (fill chunks, NVLS loop cost)
     * @param table  NCCL's cost table of the communicator
     * @param func   collective
     * @param a      algorithm
     * @param p      protocol
     * @param nBytes bytes of the call
     * @param r      the call's bandwidth terms
     * @return the pipeline fill, microseconds
     */
    static double fillUs(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, CostTable table, Collective func,
            Algorithm a, Protocol p, long nBytes, Rates r) {
        double busPerChannel = busPerChannel(plan, a, p, nBytes, r);
        double fill = TreeSimpleFill.fillUs(BusBandwidth.timeUs(chunkBytes(plan, s, pp, func, a, p, nBytes, r.effChannels(),
                r.chain(), r.channels()), busPerChannel), plan, pp, func, a, p, s, nBytes, r.effChannels(), busPerChannel,
                r.capBus() / r.effChannels(), r.channels(), table.input());
        fill = CollNetChainFill.fillUs(fill, plan, pp, func, a, p, s, nBytes, r.effChannels(), busPerChannel,
                r.capBus() / r.effChannels(), r.channels(), table.input());
        if (NvlsLoop.applies(a, p, func)) {
            long loopBytes = NvlsLoop.loopBytes(a, plan, table, s.buffSize(), r.channels(), nBytes);
            double loopUs = pp.nvlsLoopUs(GpuGeneration.of(plan.minSm()));
            if (NvlsTreePipeline.applies(a, p, func, plan)) {
                fill = NvlsTreePipeline.fillUs(plan, table, s.buffSize(), r.channels(), nBytes,
                        pp.pipelineFillChunks(), busPerChannel);
            }
            fill = a == Algorithm.NVLS
                    ? NvlsLoop.costUs(loopBytes, nBytes, r.otherAlgBw(), loopUs, pp.pipelineFillChunks(),
                            r.channels(), table.input().constants().rules().nvlsStridedChannels())
                    : fill + NvlsLoop.loops(loopBytes, nBytes) * loopUs;
        }
        return fill;
    }

    /**
     * Bus bandwidth a channel moves its chunk at, GB/s: its share of the links and NICs (over at least NCCL's default
     * channel count), but never faster than one channel can: the per-channel cap is a rate per channel, so it is not
     * shared again. The proxy's per-send cost is a rate limit on the whole call, not on the first chunk: left out.
     */
    private static double busPerChannel(ChannelPlan plan, Algorithm a, Protocol p, long nBytes, Rates r) {
        return Math.min(Math.min(r.netAlgBw(), r.linkAlgBw()) / r.ratio()
                / Math.max(r.effChannels(), defaultEffectiveChannels(a, p, nBytes, plan)), r.capBus() / r.effChannels());
    }

    /**
     * The pipeline fill's bytes at the per-channel rate (divide by 1000 x busBw per channel for microseconds): one
     * chunk, or the channel's piece when smaller, times {@link IntraNodeFill} and {@link RingLoopFill} (its steps per
     * loop, and between nodes one network send of the chunk, {@link RingLoopFill#netSendShare}); a Simple chain
     * over SHM ({@link IntraNodeChain#staged}) forwards each channel's whole share slice by slice through
     * staging buffers, 2 nRanks - 1 stages at the links' unshared rate less the data term's first slice
     * ({@link IntraNodeChain#fillSlices}), where a ring moves 1/nRanks of it
     * per step. A rooted Ring whose channels share one order pays none ({@link RingLoopFill#rootedRunsAhead}); a rooted
     * Simple Ring of several orders forwards each whole chunk hop by hop: nRanks - 2 hops of one chunk, or of the
     * channel's share when smaller ({@link RingLoopFill#rootedHops}).
     */
    private static double chunkBytes(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, Collective func,
            Algorithm a, Protocol p, long nBytes, double effChannels, boolean chain, int channels) {
        if (ShmLinkShare.ringWithoutFill(plan, s, func, a)) {
            return 0; // measured intercepts of such rings are NCCL's latency alone (ShmLinkShare)
        }
        if (RingLoopFill.rootedRunsAhead(a, func, plan, channels)) {
            return 0; // back-to-back calls overlap its fill (RingLoopFill#rootedRunsAhead)
        }
        int netSteps = RingLoopFill.rootedNetSteps(a, func, p, plan);
        if (netSteps > 0) {
            // each network hop stores one whole LL128 step (or the channel's share) before its send
            return pp.pipelineFillChunks() * Math.min(CalcCollChunking.chunk(a, p, func, s),
                    Math.max(1, nBytes / effChannels)) * netSteps;
        }
        if (treeLl128BetweenNodes(a, p, plan)) {
            // each network hop of the tree stores one whole step of NCCL's halved chunk before its send
            long step = TreeChunk.ll128(CalcCollChunking.chunk(a, p, func, s), nBytes, channels, plan.nRanks(),
                    plan.nNodes());
            return pp.pipelineFillChunks() * Math.min(step, Math.max(1, nBytes / effChannels))
                    * NetHops.of(func, a, plan);
        }
        if (RingLoopFill.rootedSimple(a, func, p)) {
            // the channel's share, not 1/nRanks of it: every chunk crosses every hop whole
            double piece = Math.max(1, nBytes / effChannels);
            return pp.pipelineFillChunks() * Math.min(CalcCollChunking.chunk(a, p, func, s), piece)
                    * RingLoopFill.rootedHops(plan.nRanks()) * RingLoopFill.netSendShare(a, p, func, plan.nNodes());
        }
        boolean chainSimple = chain && IntraNodeChain.staged(p, plan, s);
        double slice = Math.max(1, nBytes / (effChannels * (chainSimple ? 1 : plan.nRanks())));
        long chunk = CalcCollChunking.chunk(a, p, func, s);
        double scale = chainSimple
                ? IntraNodeChain.fillSlices(plan.nRanks(), ShmLinkShare.factor(plan, s, func, a, p, true),
                        (long) Math.ceil(slice / chunk))
                : IntraNodeFill.scale(a, func, p, plan, PerformanceModel.linkClass(plan), s)
                        * RingLoopFill.share(a, func, plan.nRanks());
        return pp.pipelineFillChunks() * Math.min(chunk, slice) * scale
                * RingLoopFill.netSendShare(a, p, func, plan.nNodes());
    }

    /**
     * Whether the call is a Tree/LL128 between NCCL nodes, whose fill is one whole LL128 step per network hop of the
     * tree ({@link NetHops#of}: 2 x log2 nodes, up and down) instead of the generic chunk: on a network connection
     * the channel's threads write a step's lines, meet at the barrier and only then post the tail, and the proxy
     * sends the step on that tail (NCCL 2.30.7 {@code src/device/prims_ll128.h GenericOp}, {@code
     * src/transport/net.cc sendProxyProgress}: {@code ready = useGdr} for LL128), as for a rooted LL128 Ring
     * ({@link RingLoopFill#rootedNetSteps}); the step is NCCL's Tree/LL128 chunk, halved for calls with few chunks
     * per channel ({@link TreeChunk#ll128}, on the call's channels), or the channel's share when smaller (over the
     * channels the data keeps busy, as every fill here: more channels than NCCL's count never shorten it). The
     * generic fill's piece, nBytes / (channels x nRanks), is a Ring's: a Tree channel's data is not cut into nRanks
     * parts (NCCL's {@code nchunksPerLoop} 1 for the tree patterns, {@code calcCollChunking}).
     *
     * @param a    algorithm
     * @param p    protocol
     * @param plan the channel plan
     * @return true for Tree with LL128 on several NCCL nodes
     */
    static boolean treeLl128BetweenNodes(Algorithm a, Protocol p, ChannelPlan plan) {
        return a == Algorithm.TREE && p == Protocol.LL128 && plan.nNodes() > 1;
    }

    /**
     * The per-call channel count of {@link PerformanceModel} ({@code effectiveChannels}: min(channels, nBytes /
     * (nt x threshold)), at least 1) under NCCL's default settings (no NCCL_MIN/MAX_CTAS, NCCL_MAX_NCHANNELS,
     * NCCL_NTHREADS, NCCL_NVLS_NCHANNELS). The pipeline fill is charged at the per-channel rate of at least this
     * many channels: a chunk crossing a link shared by c channels moves at 1/c of it, but a user limit on channels
     * must not make the fill (and the call) shorter than NCCL's default run. Without this, NCCL_MAX_NCHANNELS=16 on
     * a DGX A100 (24 channels) was predicted 1-2 % faster at large sizes, which no measurement shows (fewer channels
     * are slower once the per-channel cap binds: 2x H200 NCCL_MAX_NCHANNELS=2 and 4, see PerformanceParameters).
     */
    private static double defaultEffectiveChannels(Algorithm a, Protocol p, long nBytes, ChannelPlan plan) {
        NcclSettings d = NcclSettings.DEFAULTS;
        if (a == Algorithm.NVLS || a == Algorithm.NVLS_TREE) {
            int nvls = RuntimeChannels.nvlsChannels(plan.nvlsTuning(), d);
            int runtime = RuntimeChannels.collectiveChannels(plan.graphs(), plan.minSm(), plan.nNodes(), d);
            return a == Algorithm.NVLS && plan.nNodes() > 1 ? Math.min(nvls, runtime) : nvls;
        }
        if (a == Algorithm.COLLNET_DIRECT) {
            return 1;
        }
        int runtime = RuntimeChannels.collectiveChannels(plan.graphs(), plan.minSm(), plan.nNodes(), d);
        if (a == Algorithm.PAT) {
            return runtime;
        }
        double perChannel = (double) RuntimeChannels.maxThreads(a, p, plan.graphs(), d)
                * RuntimeChannels.threadThreshold(a, p, plan.nRanks());
        return Math.max(1.0, Math.min(runtime, nBytes / perChannel));
    }
}
