package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.PathType;

/**
 * The pipeline fill of a Ring or Tree collective on one host whose ring runs over NVLink, from the granularity at
 * which NCCL's kernels hand data to the next rank; used for collsim's <em>time</em> prediction only, in place of
 * {@link IntraNodeFill}'s 2 / nRanks form on such hosts.
 *
 * <p>What the kernels do (NCCL 2.30.7). Each channel loops over its part of the buffer; a Ring AllReduce loop is
 * nRanks chunks, moved in 2(nRanks - 1) steps plus a final receive ({@code src/device/all_reduce.h runRing}). The
 * Simple protocol moves a step's chunk in slices: for each slice the threads wait for the peer's flag, copy (and
 * reduce) the whole slice, meet at a barrier and only then post the slice to the next rank
 * ({@code src/device/prims_simple.h genericOp}: waitPeer, reduceCopy, barrier, postPeer). The slice is
 * {@code stepSize x SLICESTEPS} with stepSize = buffSize / NCCL_STEPS, NCCL_STEPS = 8 ({@code src/include/device.h});
 * SLICESTEPS = NCCL_STEPS / 4 = 2 and CHUNKSTEPS = NCCL_STEPS / 2 = 4 for Ring AllReduce, AllGather and
 * ReduceScatter, 1 and 1 otherwise ({@code src/include/collectives.h}; {@code src/enqueue.cc calcCollChunking} uses
 * chunkSteps and sliceSteps only for Ring/Simple). So with NCCL_BUFFSIZE = 4 MiB a Ring AllReduce slice is 1 MiB,
 * half the 2 MiB chunk; when a rank's share of a channel is smaller than a chunk, the kernel shrinks the chunk to
 * that share and still cuts it into SLICESTEPS-sized halves ({@code prims_simple.h}: sliceSize = max(divUp(nelem,
 * 16 x SlicePerChunk) x 16, stepSize x StepPerSlice / 32)). LL and LL128 have one slice per chunk (their chunk is
 * the step: LL buffSize / 8 / 2 data bytes, LL128 buffSize / 8 x 120 / 128).
 *
 * <p>The fill charged here is one slice at the per-channel rate: the bytes a rank must have posted before its
 * successor can start on them, paid once per call and independent of the rank count (every rank posts its first
 * slice at the same time). It replaces the chunk x 2 / nRanks of {@link IntraNodeFill}, which the 2 / nRanks form
 * was chosen on: for 2 ranks it halves the fill, for 4 it is equal, for 8 it doubles it. No constant is fitted; the
 * factor {@link PerformanceParameters#pipelineFillChunks} still multiplies it.
 *
 * <p>Only NVLink rings (ring graph typeIntra NVL or NVB): on PCIe hosts the 2 / nRanks fill also stands in for a
 * steady-state rate collsim over-predicts (1x2 L40S: measured plateau 15.7 GB/s busbw against 23.4 modelled,
 * A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt), so there a smaller fill only moves the error.
 *
 * <p>Stateless and thread-safe.
 */
public final class IntraNodeSlicePipeline {

    private IntraNodeSlicePipeline() {
    }

    /**
     * @param a      algorithm
     * @param nNodes NCCL nodes of the communicator
     * @param nRanks ranks
     * @param ring   the communicator's ring graph
     * @return true for Ring and Tree on one host with at least 2 ranks whose ring runs over NVLink
     */
    public static boolean applies(Algorithm a, int nNodes, int nRanks, GraphSummary ring) {
        boolean nvlink = ring.typeIntra() == PathType.NVL || ring.typeIntra() == PathType.NVB;
        return (a == Algorithm.RING || a == Algorithm.TREE) && nNodes == 1 && nRanks >= 2 && nvlink;
    }

    /**
     * Slices per chunk: CHUNKSTEPS / SLICESTEPS (NCCL 2.30.7 {@code src/include/collectives.h}).
     *
     * @return 2 for Ring/Simple AllReduce, AllGather and ReduceScatter, else 1
     */
    public static int slicesPerChunk(Algorithm a, Protocol p, Collective func) {
        boolean ringSimple = a == Algorithm.RING && p == Protocol.SIMPLE;
        boolean twoSlices = func == Collective.ALL_REDUCE || func == Collective.ALL_GATHER
                || func == Collective.REDUCE_SCATTER;
        return ringSimple && twoSlices ? 2 : 1;
    }

    /**
     * The slice the fill is charged on: the protocol's chunk ({@link PerformanceModel#chunk}), or a rank's share of
     * a channel when smaller, over {@link #slicesPerChunk}.
     *
     * @param nBytes   bytes of the call
     * @param channels channels the call runs on (may be fractional, {@link PerformanceModel})
     * @param nRanks   ranks
     * @return bytes, at least 1
     */
    public static double sliceBytes(Algorithm a, Protocol p, Collective func, NcclSettings s, long nBytes,
            double channels, int nRanks) {
        double share = nBytes / (channels * nRanks);
        return Math.max(1, Math.min(PerformanceModel.chunk(a, p, func, s), share) / slicesPerChunk(a, p, func));
    }

    /**
     * @param fillSlices    slices of fill ({@link PerformanceParameters#pipelineFillChunks})
     * @param sliceBytes    {@link #sliceBytes}
     * @param busPerChannel bus bandwidth one channel moves, GB/s (> 0)
     * @return microseconds: fillSlices x sliceBytes / (1000 x busPerChannel)
     */
    public static double fillUs(double fillSlices, double sliceBytes, double busPerChannel) {
        return fillSlices * sliceBytes / (1000.0 * busPerChannel);
    }
}
