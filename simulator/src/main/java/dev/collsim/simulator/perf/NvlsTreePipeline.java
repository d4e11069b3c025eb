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
 * and the NVLS multicast. A pipeline of D stages delivers its first iteration only after D - 1 iterations' worth of
 * stage time; the bandwidth term already counts one. So:
 *
 * <pre>
 *   channelChunk = min(heads x chunk, nBytes / channels)                     (bytes, one iteration of a channel)
 *   fill_us      = pipelineFillChunks x (hops + 1) x channelChunk / (1000 x busPerChannel)
 * </pre>
 *
 * where busPerChannel (GB/s) is the channel's share of the node's bus bandwidth ({@link PerformanceModel}). The
 * generic fill charges one chunk of 128 KiB, i.e. one head's part of one stage; on 2 x 8 H100 with 8 heads that is
 * 1/24 of this figure. Measured (NCCL AllReduce, 2 x 8 H100, 8x NDR): xe9680 NCCL 2.26.2
 * (A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt run 1) the time minus bytes / marginal
 * bandwidth is 99-134 us at 8-32 MiB (64 KiB chunks) and 199-223 us at 64 MiB-8 GiB (128 KiB chunks), doubling with
 * the chunk as this term does; talos NCCL 2.22 (A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt) has a larger
 * fixed part (190-360 us) that this term explains only in part. The stage count is structural, not fitted.
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
        int stagesAhead = Math.min(iterations(nBytes, channels, channelChunk),
                NetHops.of(Collective.ALL_REDUCE, Algorithm.NVLS_TREE, plan) + 1);
        return fillUs(stagesAhead, fillChunks, channelChunk, busPerChannel);
    }

    /**
     * Iterations of one channel's loop: ceil((nBytes / channels) / channelChunk), at least 1.
     *
     * @param nBytes       bytes of the call
     * @param channels     channels of the call, >= 1
     * @param channelChunk {@link #channelChunkBytes}, bytes, > 0
     * @return iterations, >= 1
     */
    static int iterations(long nBytes, int channels, double channelChunk) {
        double perChannel = (double) nBytes / Math.max(1, channels);
        return (int) Math.max(1, Math.ceil(perChannel / channelChunk - 1e-9));
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
    static double fillUs(int stagesAhead, double fillChunks, double channelChunk, double busPerChannel) {
        return fillChunks * stagesAhead * channelChunk / (1000.0 * busPerChannel);
    }
}
