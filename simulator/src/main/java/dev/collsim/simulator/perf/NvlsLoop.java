package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.CostTable;

/**
 * The loop of NCCL's NVLS and NVLSTree AllReduce kernels, for collsim's time prediction: what NCCL's model (one
 * latency term, one bandwidth term) leaves out between small and large sizes.
 *
 * <p>NCCL 2.30.7 {@code src/device/all_reduce.h} ({@code RunWorkColl<..., NCCL_ALGO_NVLS, NCCL_PROTO_SIMPLE>} and
 * the NVLSTree one) runs each channel as a loop over its data in steps of {@code nHeads x chunkSize}; every
 * iteration passes through a scatter (copy into the NVLS buffer), a reduce-and-multicast through the NVSwitch
 * ({@code directRecvDirectSend}, which waits for every rank's data) and a gather (copy out) stage, each a
 * {@code ProtoSimple<1, 1>} step of one slice. The chunk is the one {@code src/enqueue.cc calcCollChunking} picks:
 *
 * <pre>
 *   NVLS:     min(NCCL_BUFFSIZE / 8, NVLS chunk), 32 KiB on several nodes when NCCL's NVLS
 *             AllReduce bandwidth is below 150 GB/s; then 64 KiB if nBytes &lt; 64 x ops x chunk,
 *             32 KiB if nBytes &lt; 8 x ops x chunk, 16 KiB if nBytes &lt; 2 x ops x chunk
 *   NVLSTree: min(NVLS chunk, treeMax); then 256 KiB / 128 KiB / 64 KiB / 32 KiB when nBytes &lt; 32 / 16 / 4 / 1
 *             x ops x chunk
 *   NVLS chunk NCCL_NVLS_CHUNKSIZE = 128 KiB and treeMax 64 KiB on 4 or more nodes, else the chunk; NCCL 2.30.7
 *             tunes both on several sm100 nodes ({@link NvlsTuning}, src/transport/nvls.cc); before 2.21 NVLSTree
 *             starts from NCCL_BUFFSIZE / 8 instead of the NVLS chunk ({@link NvlsTuning#treeFromStep})
 *   ops = channels x nHeads, nHeads = the NVLS graph's channels (one per head GPU); aligned down to 512 B
 * </pre>
 *
 * <p>The cost collsim adds (replacing the generic pipeline fill of {@link PipelineFill}):
 * <pre>
 *   loopBytes = channels x nHeads x chunk            (bytes of the buffer one iteration of all channels covers)
 *   loops     = ceil(nBytes / loopBytes)
 *   cost_us   = loops x nvlsLoopUs + pipelineFillChunks x fillBytes / (1000 x algBw)
 *   fillBytes = min(nBytes, loopBytes)                       (2.20 on: each channel a share)
 *             = min(nBytes, loopBytes / channels) x channels (to 2.19: strided, {@link #fillBytes})
 * </pre>
 * The first term is the per-iteration synchronisation of every rank through the switch; the second the pipeline
 * fill: one iteration's data passes the copy stages before and after the reduce stage without overlap. NVLSTree
 * pays the loop term only and keeps {@link PipelineFill}'s generic fill (one chunk per channel): with this fill,
 * whose size doubles at each chunk step, collsim's best choice on 2 DGX H100 flipped between NVLSTree and
 * Tree/LL128 several times within a factor of 4 in size, which no measurement supports. Both grow
 * with size through the chunk steps, which is why NCCL's single latency term is too small at 1-512 MiB. Stateless.
 */
public final class NvlsLoop {

    /**
     * NCCL's loop of one NVLS or NVLSTree AllReduce call, as the flow backend's hierarchical schedule pipelines it
     * ({@code schedule.HierarchicalSchedule}): the same chunk and per-iteration cost as this class charges the
     * analytical time with.
     *
     * @param chunkBytes NCCL's chunk of the call ({@link #chunk}), bytes per head and channel per iteration, &gt; 0
     * @param heads      NVLS heads, one per NIC ({@link #heads}), &gt;= 1
     * @param loopUs     fixed cost of one iteration ({@link PerformanceParameters#nvlsLoopUs}), microseconds,
     *                   &gt;= 0
     */
    public record Call(long chunkBytes, int heads, double loopUs) {

        /** @throws IllegalArgumentException on a chunk below 1, heads below 1 or a negative or NaN cost */
        public Call {
            if (chunkBytes < 1 || heads < 1 || !(loopUs >= 0)) {
                throw new IllegalArgumentException("NVLS loop: chunk " + chunkBytes + " B, heads " + heads
                        + ", loop " + loopUs + " us: chunk and heads must be >= 1, the cost >= 0");
            }
        }
    }

    /**
     * @param a        algorithm
     * @param p        protocol
     * @param func     collective
     * @param plan     channel plan
     * @param table    NCCL's cost table the time reads
     * @param buffSize NCCL_BUFFSIZE, bytes
     * @param channels channels of the call
     * @param nBytes   bytes of the call
     * @param loopUs   {@link PerformanceParameters#nvlsLoopUs} of the communicator's GPU generation, microseconds
     * @return the call's loop where {@link #applies}, else null
     */
    public static Call call(Algorithm a, Protocol p, Collective func, ChannelPlan plan, CostTable table,
            long buffSize, int channels, long nBytes, double loopUs) {
        return applies(a, p, func) ? new Call(chunk(a, plan, table, buffSize, Math.max(1, channels), nBytes),
                heads(plan), loopUs) : null;
    }

    /** Simple grain, bytes: chunks are aligned down to it (NCCL 2.30.7 {@code ncclProtoGrainSize}). */
    private static final long GRAIN = 512;

    private NvlsLoop() {
    }

    /**
     * @param a algorithm
     * @param p protocol
     * @param func collective
     * @return true for NVLS and NVLSTree AllReduce with Simple (the kernels this class models)
     */
    public static boolean applies(Algorithm a, Protocol p, Collective func) {
        return (a == Algorithm.NVLS || a == Algorithm.NVLS_TREE) && p == Protocol.SIMPLE
                && func == Collective.ALL_REDUCE;
    }

    /**
     * NCCL's chunk for this call (class comment).
     *
     * @param a        NVLS or NVLS_TREE
     * @param plan     channel plan (nodes, NVLS heads)
     * @param table    NCCL's cost table (NVLS AllReduce bandwidth, for the several-node 32 KiB cap)
     * @param buffSize NCCL_BUFFSIZE, bytes
     * @param channels channels of the call
     * @param nBytes   bytes of the call
     * @return bytes
     */
    public static long chunk(Algorithm a, ChannelPlan plan, CostTable table, long buffSize, int channels,
            long nBytes) {
        long ops = (long) channels * heads(plan);
        long c;
        if (a == Algorithm.NVLS) {
            c = Math.min(buffSize / NcclDevice.NCCL_STEPS, plan.nvlsTuning().chunk());
            if (plan.nNodes() > 1 && table.bandwidth(Collective.ALL_REDUCE, Algorithm.NVLS, Protocol.SIMPLE) < 150) {
                c = Math.min(c, 32 << 10);
            }
            c = shrink(c, nBytes, ops, 64, 64 << 10);
            c = shrink(c, nBytes, ops, 8, 32 << 10);
            c = shrink(c, nBytes, ops, 2, 16 << 10);
        } else {
            c = plan.nvlsTuning().treeChunk(buffSize / NcclDevice.NCCL_STEPS);
            c = shrink(c, nBytes, ops, 32, 256 << 10);
            c = shrink(c, nBytes, ops, 16, 128 << 10);
            c = shrink(c, nBytes, ops, 4, 64 << 10);
            c = shrink(c, nBytes, ops, 1, 32 << 10);
        }
        return Math.max(GRAIN, c / GRAIN * GRAIN);
    }

    private static long shrink(long c, long nBytes, long ops, long times, long to) {
        return nBytes < times * ops * c && c > to ? to : c;
    }

    /** @return NVLS heads: the NVLS graph's channels (one per head GPU), at least 1 */
    static int heads(ChannelPlan plan) {
        return Math.max(1, plan.graphs().nvls().nChannels());
    }

    /**
     * @param a        NVLS or NVLS_TREE
     * @param plan     channel plan
     * @param table    NCCL's cost table
     * @param buffSize NCCL_BUFFSIZE, bytes
     * @param channels channels of the call, >= 1
     * @param nBytes   bytes of the call
     * @return bytes one loop iteration of all channels covers
     */
    public static long loopBytes(Algorithm a, ChannelPlan plan, CostTable table, long buffSize, int channels,
            long nBytes) {
        return (long) Math.max(1, channels) * heads(plan) * chunk(a, plan, table, buffSize, channels, nBytes);
    }

    /**
     * The time the loop adds to NCCL's latency and bandwidth terms (class comment).
     *
     * @param loopBytes  {@link #loopBytes}
     * @param nBytes     bytes of the call
     * @param algBw      the call's algorithm bandwidth, GB/s
     * @param loopUs     cost of one iteration, microseconds ({@link PerformanceParameters#nvlsLoopUs})
     * @param fillLoops  iterations of pipeline fill ({@link PerformanceParameters#pipelineFillChunks})
     * @param channels   channels of the call, &gt;= 1
     * @param strided    whether the release strides its channels through the buffer
     *                   ({@link dev.collsim.simulator.tuning.ReleaseRules#nvlsStridedChannels})
     * @return microseconds
     */
    public static double costUs(long loopBytes, long nBytes, double algBw, double loopUs, double fillLoops,
            int channels, boolean strided) {
        return loops(loopBytes, nBytes) * loopUs
                + BusBandwidth.timeUs(fillLoops * fillBytes(loopBytes, nBytes, channels, strided), algBw);
    }

    /**
     * The bytes of the fill at the call's whole rate: one channel's piece of the first iteration at its own rate,
     * {@code algBw / channels}, is {@code piece x channels} bytes at {@code algBw}. A channel is one CTA and
     * runs no faster alone: the per-channel NVLS cap ({@link PerformanceParameters#perChannelCapNvls}, the plateau
     * over NCCL's default 16 channels) is its share when all run. Spread over every channel (2.20 on) the piece is
     * {@code min(nBytes, loopBytes) / channels}, which gives back {@code min(nBytes, loopBytes)}; strided (up to
     * 2.19) the first channels each take a whole {@code nHeads x chunk = loopBytes / channels} before the next takes
     * any, so the piece is {@code min(nBytes, loopBytes / channels)}: the fill of a call of 128 KiB is already that
     * of a whole loop (8 heads x 16 KiB).
     *
     * @param loopBytes {@link #loopBytes}
     * @param nBytes    bytes of the call
     * @param channels  channels of the call, &gt;= 1
     * @param strided   {@link dev.collsim.simulator.tuning.ReleaseRules#nvlsStridedChannels}
     * @return bytes
     */
    static double fillBytes(long loopBytes, long nBytes, int channels, boolean strided) {
        int c = Math.max(1, channels);
        return strided ? (double) Math.min(nBytes, loopBytes / c) * c : Math.min(nBytes, loopBytes);
    }

    /**
     * @param loopBytes {@link #loopBytes}
     * @param nBytes    bytes of the call
     * @return iterations of the loop, ceil(nBytes / loopBytes), at least 1
     */
    public static long loops(long loopBytes, long nBytes) {
        return Math.max(1, (nBytes + loopBytes - 1) / loopBytes);
    }
}
