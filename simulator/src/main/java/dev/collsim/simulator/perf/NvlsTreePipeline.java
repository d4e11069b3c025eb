package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.CostTable;

/**
 * Pipeline fill of NVLSTree AllReduce between nodes: the time before the pipeline of one channel's chunks runs at its
 * bandwidth, which NCCL's model (one latency plus bytes / bandwidth) leaves out and which the generic fill of
 * {@link PerformanceModel} undercounts for NVLSTree on several nodes.
 *
 * <p>How NCCL moves the data (NCCL 2.30.7 {@code src/device/all_reduce.h}, NVLSTree Simple; fact sheet §3):
 * each channel splits its part of the buffer over the NVLS heads, one head GPU per NIC; per iteration a head takes
 * one chunk ({@link NvlsLoop#chunk}: 128 KiB, 64 KiB below 4 x ops x 128 KiB, 32 KiB below ops x 64 KiB, ops =
 * channels x heads, {@code src/enqueue.cc calcCollChunking}), reduces it over NVLink SHARP (multimem), sends it up the
 * inter-node tree, receives the reduced chunk down the tree and multicasts it back over NVLS. One iteration of a
 * channel therefore carries heads x chunk bytes, and it passes through a pipeline of
 * {@code hops + 2} stages: the NVLS reduce, the {@link NetHops} network steps up and down the tree (2 log2 nNodes),
 * and the NVLS multicast. The kernel runs each stage in its own warps (scatter, reduce-and-send-up, receive-down-and-
 * multicast, gather), so the stages of different iterations overlap; a stage passes one iteration on only when the
 * whole of it has arrived (Simple protocol, one step per chunk: {@code ProtoSimple<1, 1>}). A channel has
 * {@code iterations = (nBytes / channels) / channelChunk} of them ({@code elemOffset += loopCount}; a last partial
 * one counts as its fraction, as its stage times are that fraction of a whole one's), and the
 * fill counts one stage time per iteration ahead of the pipe's output, up to the hops + 1 stages a full pipe holds
 * ahead of its last one:
 *
 * <pre>
 *   channelChunk = min(heads x chunk, nBytes / channels)                     (bytes, one iteration of a channel)
 *   iterations   = max(1, nBytes / channels / channelChunk)                 (continuous)
 *   fill_us      = pipelineFillChunks x min(iterations, hops + 1) x channelChunk / (1000 x busPerChannel)
 * </pre>
 *
 * where busPerChannel (GB/s) is the channel's share of the node's bus bandwidth ({@link PerformanceModel}). The
 * stage count and the iteration count are NCCL's (no fitted constant); that a channel of fewer iterations than
 * stages pays one stage time per iteration, not hops + 1, is collsim's reading of the measured rows below, not a
 * line of NCCL's source. Charging hops + 1 at every size gave, on 2 x 8 H100, 118.7 us at 4 MiB (one iteration per
 * channel) against 94.4 measured, and on 4 x 8 316.4 us at 16 MiB (2 iterations, 5 stages) against 259.6, with a
 * busbw below the 8 MiB Tree/LL128 one where NCCL moves to NVLSTree. The generic fill charges one chunk of 128 KiB,
 * one head's part of one stage. Measured (NCCL AllReduce, 8x NDR per host): xe9680 NCCL 2.26.2
 * (A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt) 2 x 8 time minus bytes / marginal bandwidth
 * 77 us at 4 MiB (32 KiB chunks), 97-127 us at 8-32 MiB (64 KiB) and 184-223 us at 64 MiB-8 GiB (128 KiB); on
 * 4 x 8 (64 KiB chunks at every size, treeMax) 157-170 us at 16-64 MiB, i.e. about the 2 x 8 figure plus NCCL's
 * latency for two more tree steps, not 2 more stage times. talos NCCL 2.22
 * (A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt) measures 2.1x the xe9680 time at 4 MiB on the same
 * 2 x 8 shape (same NVLSTree chunking in NCCL 2.22.3 and 2.26.2 {@code calcCollChunking}); this term does not
 * explain that run's fixed part (190-360 us).
 * Stateless and thread-safe.
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
                NetHops.of(Collective.ALL_REDUCE, Algorithm.NVLS_TREE, plan) + 1);
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
        return fillChunks * stagesAhead * channelChunk / (1000.0 * busPerChannel);
    }
}
