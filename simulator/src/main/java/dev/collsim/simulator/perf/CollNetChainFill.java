package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.TreeChunk;
import dev.collsim.simulator.tuning.TuningInput;

/**
 * Pipeline fill of a CollNet chain AllReduce between nodes (CollNetChain/Simple; NCCL 2.8's one CollNet algorithm):
 * the store-and-forward trip of one chunk up the node's chain of GPUs to its head, through the network to the switch
 * and back, and down the chain again. It replaces the generic fill of {@link PipelineFill}, whose piece (nBytes /
 * (channels x nRanks)) is a ring's: a chain channel's data is not cut into nRanks parts ({@code nchunksPerLoop} 1 for
 * the CollNet patterns, v2.8.4-1 {@code src/enqueue.cc getLoopInfo}).
 *
 * <p>What NCCL's source fixes:
 * <ol>
 *   <li>The chain. Every rank of a node is one link of it: {@code collTree.up} / {@code down[0]} are the previous
 *       and next rank of the collNet graph's intra-node order and the head's up is the network (v2.8.4-1
 *       {@code src/graph/connect.cc} lines 56-57 and 172-199; v2.28.9-1 {@code connect.cc} line 464 sets the depth
 *       nRanks / nNodes): nRanks / nNodes - 1 intra-node hops up, one network hop to the switch, one back, and as
 *       many intra-node hops down.</li>
 *   <li>Store and forward. The CollNet kernels run Simple with one slice per chunk ({@code ncclPrimitives<UNROLL,
 *       1, 1, ...>}, v2.8.4-1 {@code src/collectives/device/all_reduce.h} lines 225 and 242; {@code chunkSteps}
 *       and {@code sliceSteps} 1, {@code enqueue.cc} lines 377-378): a rank waits once for the whole chunk and
 *       posts it once written ({@code primitives.h} lines 146-166; {@code prims_simple.h waitPeer} v2.28.9-1), so
 *       every hop forwards a whole chunk.</li>
 *   <li>The chunk, halved for calls of few chunks per channel ({@link TreeChunk#collNetChain}); NCCL 2.8 divides by
 *       half the communicator's channels, one channel up and one down (v2.8.4-1 {@code enqueue.cc} line 305).</li>
 * </ol>
 * The stage times and the few-chunk scaling are {@link TreeSimpleFill}'s (the same store-and-forward chain with
 * one network level): intra-node hops at its intra rate, the network hops at the call's per-channel bus rate.
 * What it moved (bare model, at &gt;= 1 MiB): the ABCI 2 x 8 A100 SHARP run of NCCL 2.8
 * (A-allreduce-2x8xA100-40GB-abci-anode-hdr-sharp-collnet-nccl2.8.txt), whose measured time meets 0 bytes at about
 * 157 us on the line through 2 and 8 MiB where NCCL's latency and the generic fill gave 69 us (docs/nccl-releases.md).
 * Stateless and thread-safe.
 */
public final class CollNetChainFill {

    private CollNetChainFill() {
    }

    /** @return true for a CollNetChain/Simple AllReduce on more than one node */
    static boolean applies(Collective func, Algorithm a, Protocol p, ChannelPlan plan) {
        return func == Collective.ALL_REDUCE && a == Algorithm.COLLNET_CHAIN && p == Protocol.SIMPLE
                && plan.nNodes() > 1;
    }

    /**
     * The fill of a CollNet chain AllReduce between nodes, or {@code otherFill} for any other call.
     *
     * @param otherFill     the fill otherwise charged, microseconds (returned when this class does not apply)
     * @param plan          channel plan
     * @param pp            performance parameters (fill chunks)
     * @param func          collective
     * @param a             algorithm
     * @param p             protocol
     * @param s             NCCL settings (NCCL_BUFFSIZE, NCCL_NET_GDR_LEVEL)
     * @param nBytes        bytes of the call
     * @param channels      channels the call's data occupies, >= 1
     * @param busPerChannel bus bandwidth of one channel between nodes, GB/s, > 0
     * @param perChannelCap bus bandwidth one channel can move at most, GB/s
     * @param callChannels  NCCL's channels for the call ({@code info->nChannels} from 2.14)
     * @param in            the communicator's tuning input (its rules' run minor release)
     * @return microseconds
     */
    static double fillUs(double otherFill, ChannelPlan plan, PerformanceParameters pp, Collective func, Algorithm a,
            Protocol p, NcclSettings s, long nBytes, double channels, double busPerChannel, double perChannelCap,
            int callChannels, TuningInput in) {
        if (!applies(func, a, p, plan)) {
            return otherFill;
        }
        int ppn = plan.nRanks() / plan.nNodes();
        return pp.pipelineFillChunks() * TreeSimpleFill.fillUs(chunk(plan, s, nBytes, callChannels,
                in.constants().rules().runMinor()), nBytes, channels, ppn - 1, TreeSimpleFill.netLegs(plan, s),
                TreeSimpleFill.intraRate(plan, pp, perChannelCap), busPerChannel, TreeSimpleFill.ownIntraRate(plan));
    }

    /**
     * NCCL's CollNet chain chunk of the call ({@link TreeChunk#collNetChain}); NCCL 2.8 divides by half its
     * communicator's channels (the runtime channels), later releases by the call's.
     *
     * @param plan         channel plan (ranks, nodes, runtime channels)
     * @param s            NCCL settings (NCCL_BUFFSIZE)
     * @param nBytes       bytes of the call
     * @param callChannels NCCL's channels for the call, >= 1
     * @param runMinor     the run's NCCL 2 minor release
     * @return bytes
     */
    static long chunk(ChannelPlan plan, NcclSettings s, long nBytes, int callChannels, int runMinor) {
        long step = CalcCollChunking.chunk(Algorithm.COLLNET_CHAIN, Protocol.SIMPLE, Collective.ALL_REDUCE, s);
        int nc = runMinor <= TreeChunk.LAST_CHAIN_2_8_MINOR ? Math.max(1, plan.runtimeChannels() / 2) : callChannels;
        return TreeChunk.collNetChain(runMinor, step, nBytes, nc, plan.nRanks() / plan.nNodes());
    }
}
