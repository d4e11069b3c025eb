package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.CostTable;

/**
 * Pipeline fill of NVLSTree AllReduce between nodes: the time before the pipeline of one channel's chunks runs at its
 * bandwidth, which NCCL's model (one latency plus bytes / bandwidth) leaves out and which the generic fill of
 * {@link PipelineFill} undercounts for NVLSTree on several nodes.
 *
 * <p>What NCCL's source fixes (read in NCCL 2.22.3, 2.26.2 and 2.30.7; the kernel and the chunking are the same in
 * all three; fact sheet §3):
 * <ol>
 *   <li>Iterations. {@code src/device/all_reduce.h}, {@code RunWorkColl<ncclFuncAllReduce, T, RedOp,
 *       NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE>::run}: each channel loops over its part of the buffer
 *       ({@code ncclCollCbdPart}: channelCount elements) in steps of {@code loopCount = nHeads x chunkCount}
 *       ({@code elemOffset += loopCount}); each head GPU (one per NIC) takes one chunk per iteration. So one
 *       iteration of a channel carries channelChunk = heads x chunk bytes and a channel has
 *       (nBytes / channels) / channelChunk iterations. The chunk ({@link NvlsLoop#chunk}) is {@code src/enqueue.cc
 *       calcCollChunking}'s NVLS_TREE branch: 128 KiB (64 KiB on 4 or more nodes; NCCL 2.30.7 tunes both on several
 *       sm100 nodes, {@code channel.NvlsTuning}; before 2.21 the start is NCCL_BUFFSIZE / 8, 512 KiB, with the
 *       same steps), 64 KiB below 4 x ops x 128 KiB,
 *       32 KiB below ops x 64 KiB, ops = channels x heads; it keeps mid sizes at 1 to 4 iterations per channel
 *       (2 x 8 H100, 16 channels x 8 heads: 1 at 4 and 8 MiB, 2 at 16 MiB, 4 at 32 and 64 MiB).</li>
 *   <li>Stages. The same function gives each stage its own warps looping over the same iterations: scatter (into
 *       the NVLS buffer), reduce (multimem reduce on the head, then {@code directRecvDirectSend} up the tree to
 *       {@code nvls->treeUp}; the root sends down instead), broadcast (receive from {@code treeUp}, send down the
 *       tree and multicast) and gather. An iteration thus passes hops + 2 stages in a row: the NVLS reduce, the
 *       network steps up and down the tree (hops = 2 x its depth, {@link NetHops#treeDepth}: ceil log2 nNodes, so
 *       2 on 2 nodes and 4 on 3 or 4; {@code src/graph/connect.cc} {@code connectNvls}, two trees alternating by
 *       channel, {@code src/graph/trees.cc ncclGetDtree}) and the NVLS multicast; the stages of different
 *       iterations run at once.</li>
 *   <li>Store and forward. Every stage is {@code ProtoSimple<1, 1>}: one slice of one step per chunk, and
 *       {@code src/device/prims_simple.h waitPeer} lets a receiver start a step only when its sender has posted the
 *       whole of it ({@code connStepCache >= step + StepPerSlice}), so an iteration leaves a stage only whole.</li>
 *   <li>No stall on buffer slots. {@code waitPeer} lets a sender run {@code NCCL_STEPS} = 8
 *       ({@code src/include/device.h}) steps ahead of its receiver, so with up to 8 iterations per channel a stage
 *       never waits for a slot: the pipe runs at the pace of its stages, not of its buffers.</li>
 * </ol>
 *
 * <p>The fill that follows. A pipe of S = hops + 2 store-and-forward stages, each taking one stage time t =
 * channelChunk / busPerChannel (the channel's share of the node's bus bandwidth, {@link PipelineFill}) when the
 * pipe is full, delivers its last iteration S - 1 = hops + 1 stage times after the bandwidth term (which counts one
 * stage time per iteration) would: once a channel has at least hops + 1 iterations every stage is busy and that is
 * the whole fill. A channel of fewer iterations never fills its pipe: at most that many stages are busy at once,
 * and how fast a stage then runs (it shares the head's NVLink and NIC with fewer stages) is not in NCCL's source;
 * the two bounds are no fill (links fully shared) and hops + 1 stage times (each stage at its full-pipe share).
 * collsim charges one stage time per iteration, the straight line from no fill at no iteration to the full pipe's
 * fill at hops + 1, with no constant of its own:
 *
 * <pre>
 *   channelChunk = min(heads x chunk, nBytes / channels)                     (bytes, one iteration of a channel)
 *   iterations   = max(1, nBytes / channels / channelChunk)                 (continuous)
 *   fill_us      = pipelineFillChunks x min(iterations, hops + 1) x channelChunk / (1000 x busPerChannel)
 * </pre>
 *
 * A last partial iteration counts as its fraction, as its stage times are that fraction of a whole one's (a whole
 * one would add a stage time for a few bytes over a whole number of iterations: an 18 us step just above 8 MiB on
 * 2 x 8). The line below hops + 1 is the part the source does not give; it was checked, not fitted, on these rows
 * (NCCL AllReduce, 8x NDR per host, xe9680 NCCL 2.26.2,
 * A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt): hops + 1 stage times at every size gave, on
 * 2 x 8, 118.7 us at 4 MiB (one iteration) against 94.4 measured (this rule 101.4), and on 4 x 8 316.4 us at 16 MiB
 * (2 iterations, 5 stages) against 259.6 (this rule 250.5), with a busbw below the 8 MiB Tree/LL128 one where
 * NCCL moves to NVLSTree; the 2 x 8 time less bytes / 250.2 GB/s (its algbw at 8-16 GiB) grows from 99 us (1
 * iteration) to 118 (2) and 134 (4) at 64 KiB chunks and stays at 198-212 us from 4 to 16 iterations at 128 KiB.
 * The generic fill
 * charges one chunk of 128 KiB, one head's part of one stage. talos NCCL 2.22.3
 * (A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt) measures 1.6-2.1x the xe9680 time at 4-16 MiB on the
 * same 2 x 8 shape with the same kernel, chunking and NVLSTree latency and enable rules; this term does not explain
 * that run's fixed part (190-360 us); its one-node table (same file, lines 15-17) has a 67-69 us floor at 1-4 MiB where
 * the model gives 29-54 us and a {@code -g 8} launch floor 37.6 us, so the run carries a host-side floor of its own
 * (its command line is not shown). Stateless and thread-safe.
 */
public final class NvlsTreePipeline {

    private NvlsTreePipeline() {
    }

    /**
     * @return true for NVLSTree AllReduce with Simple on more than one node (the calls this class models)
     */
    static boolean applies(Algorithm a, Protocol p, Collective func, ChannelPlan plan) {
        return a == Algorithm.NVLS_TREE && p == Protocol.SIMPLE && func == Collective.ALL_REDUCE
                && plan.nNodes() > 1;
    }

    /**
     * Bytes one channel moves per iteration: heads x chunk, or the channel's whole part of a smaller call.
     *
     * @param chunk    NCCL's NVLSTree chunk, bytes ({@link NvlsLoop#chunk})
     * @param heads    NVLS heads (one per NIC), >= 1
     * @param nBytes   bytes of the call
     * @param channels channels of the call, >= 1
     * @return bytes
     */
    static double channelChunkBytes(long chunk, int heads, long nBytes, int channels) {
        return Math.min((double) heads * chunk, (double) nBytes / Math.max(1, channels));
    }

    /**
     * The fill of an NVLSTree AllReduce between nodes (class comment), with NCCL's chunk and heads of the call.
     *
     * @param plan          channel plan (nodes, NVLS heads)
     * @param table         NCCL's cost table (for {@link NvlsLoop#chunk})
     * @param buffSize      NCCL_BUFFSIZE, bytes
     * @param channels      channels of the call, >= 1
     * @param nBytes        bytes of the call
     * @param fillChunks    {@link PerformanceParameters#pipelineFillChunks}
     * @param busPerChannel bus bandwidth of one channel, GB/s (1e9 B/s), > 0
     * @return microseconds
     */
    static double fillUs(ChannelPlan plan, CostTable table, long buffSize, int channels, long nBytes,
            double fillChunks, double busPerChannel) {
        long chunk = NvlsLoop.chunk(Algorithm.NVLS_TREE, plan, table, buffSize, channels, nBytes);
        double channelChunk = channelChunkBytes(chunk, NvlsLoop.heads(plan), nBytes, channels);
        double stagesAhead = Math.min(iterations(nBytes, channels, channelChunk),
                2 * NetHops.treeDepth(plan.nNodes()) + 1);
        return fillUs(stagesAhead, fillChunks, channelChunk, busPerChannel);
    }

    /**
     * Iterations of one channel's loop, as a continuous count: (nBytes / channels) / channelChunk, at least 1. A last
     * iteration of a fraction of channelChunk passes each stage in that fraction of a stage time, so counting it
     * whole would add a full stage time for a few bytes more than a whole number of iterations.
     *
     * @param nBytes       bytes of the call
     * @param channels     channels of the call, >= 1
     * @param channelChunk {@link #channelChunkBytes}, bytes, > 0
     * @return iterations, >= 1
     */
    static double iterations(long nBytes, int channels, double channelChunk) {
        return Math.max(1.0, (double) nBytes / Math.max(1, channels) / channelChunk);
    }

    /**
     * The fill (class comment).
     *
     * @param stagesAhead   stage times before the pipe delivers at its rate: min(iterations, hops + 1), >= 1
     * @param fillChunks    {@link PerformanceParameters#pipelineFillChunks}
     * @param channelChunk  {@link #channelChunkBytes}, bytes
     * @param busPerChannel bus bandwidth of one channel, GB/s (1e9 B/s), > 0
     * @return microseconds
     */
    static double fillUs(double stagesAhead, double fillChunks, double channelChunk, double busPerChannel) {
        return BusBandwidth.timeUs(fillChunks * stagesAhead * channelChunk, busPerChannel);
    }
}
