package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.AlgoChoice;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.TimeTable;

/**
 * The share of NCCL's per-step Ring latency a Ring/Simple AllReduce on 4 or more NCCL nodes still waits for once its
 * channels run whole chunks, which {@link PerformanceModel} keeps of NCCL's latency (the base latency stays whole).
 * Used for collsim's time prediction only; NCCL's choice and its own estimate keep NCCL's latency.
 *
 * <p>NCCL's figure (2.26.2 to 2.30.7 {@code src/graph/tuning.cc ncclTopoTuneModel}): baseLat + (nsteps - nInterSteps)
 * x max(hwLat intra, 3 x netOverhead) + nInterSteps x hwLat[NET][Ring][Simple], nsteps = 2 (nRanks - 1), x1.4 from
 * sm80 ({@code ncclTopoGetAlgoTime}, "plateau effect of ring"): 4x8 H100 8.4 + 56 x 3.4 + 6 x 14 = 282.8 us, x1.4 =
 * 396 us; 8x8 819 us. It counts every step's handshake as time. The kernel (2.26.2 {@code src/device/all_reduce.h
 * runRing}) walks each channel's share in loops of nRanks chunks, 2 (nRanks - 1) steps a loop; a chunk is
 * ALLREDUCE_CHUNKSTEPS = 4 steps of buffSize / NCCL_STEPS (2 MiB by default, {@link PerformanceModel#chunk}) in
 * SlicePerChunk = 2 slices ({@code src/device/prims_simple.h genericOp}), and a loop smaller than nRanks chunks runs
 * with chunks of remCount / nRanks. A step's second slice moves while its first slice's handshake to the next rank
 * (NCCL's hwLat) runs, so a step of whole chunks (a 1 MiB slice at a channel's 20 GB/s is 52 us) hides the step's
 * latency behind its data; only the base is left, and the first slice's fill ({@link PipelineFill}). With smaller
 * chunks the step's fixed costs (proxy post, the network's store and forward of the slice, its completion) no longer
 * hide, and NCCL's per-step figure stands.
 *
 * <p>The share kept: 1 while the channel's piece of a rank, c = nBytes / (channels x nRanks), is at most half a chunk
 * C, 0 from a whole chunk on, linear between: min(1, max(0, 2 - 2 c / C)). Measured, not fitted (the line through
 * the sizes of two loops and more, relative least squares, its intercept beyond launch and fill, and each smaller
 * size's excess over it):
 * <ul>
 *   <li>4x8 H100, 16 channels, 400G IB (A-allreduce-2x8-4x8-8x8xH100-ib400-mincta24-issue-nccltests309-gjaion.txt run
 *       3, lines 189-194): intercept 66 us at 1-8 GiB (c = 2-16 MiB), where NCCL's figure is 396 us; 512 MiB (c = 1
 *       MiB) 335 us above the line, 256 MiB (c = 512 KiB) 554 us: NCCL's 396 us stands there.</li>
 *   <li>8x8 H100, 16 channels, same cluster (run 1, lines 93-96): intercept 88 us at 2-8 GiB, 1 GiB (c = 1 MiB) 699
 *       us above the line, NCCL's 819 us; 699 / 335 = 2.09, about the step ratio 126 / 62 = 2.03.</li>
 *   <li>4x8 H100 VMs, 8x NDR, NCCL 2.26.2 (A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt run 2,
 *       lines 139-143): intercept 127 us at 1-16 GiB; 512 MiB 139 us and 256 MiB 220 us above it.</li>
 *   <li>2x8 H100, NCCL_ALGO=Ring, NCCL_MIN_CTAS=24 (gjaion run 5, lines 321-324): intercept 124 us at 1-8 GiB,
 *       where NCCL's figure is 1.4 x (8.4 + 28 x 3.4 + 2 x 14) = 184 us.</li>
 * </ul>
 * Not explained: two runs of 24 channels (gjaion runs 4 and 5, NICs near their line rate, 391-393 GB/s) show no
 * excess below whole chunks (8x8: 255 us at 1-8 GiB, c = 0.7-5.3 MiB; 2x8: -46 to +33 us at 128-512 MiB, c = 0.3-1.3
 * MiB), where three channels share each NIC; collsim keeps NCCL's figure below half a chunk there too.
 *
 * <p>Charged from 4 nodes on only: on 2 nodes the runs disagree. The 2x8 H100 Ring of 24 channels above keeps 124 us,
 * but 2x8 A100 (A-allreduce-1x8-2x8xA100-80GB-meta-gcm-healthcheck-samples-nccl2.16-2.12.txt run 2, lines 66-67)
 * keeps 374 us (5693.6 us at 512 MiB, 11013 at 1 GiB: 2 t(S) - t(2S)), about NCCL's figure, and a 2x1 GH200
 * Ring over Slingshot (A-allreduce-2x1xGH200-cscs-alps-slingshot-nccl2.30.txt), every step a network step, reads
 * 10 % fast at 8 MiB with the steps hidden. Stateless and thread-safe.
 */
public final class RingStepOverlap {

    private RingStepOverlap() {
    }

    /**
     * @param plan     the channel plan
     * @param s        NCCL settings (buffSize: the chunk)
     * @param table    the time's cost table (NCCL's latency before its plateau, the base the time reads)
     * @param func     collective
     * @param choice   NCCL's (algorithm, protocol) and its latency, after the plateau
     * @param nBytes   bytes of the call
     * @param channels the call's runtime channels
     * @return microseconds of NCCL's latency (before {@link PerformanceParameters#latencyScale()}) the call does not
     *         wait: the steps' part x (1 - {@link #keptShare}); 0 where it does not apply
     */
    public static double hiddenUs(ChannelPlan plan, NcclSettings s, CostTable table, Collective func,
            AlgoChoice choice, long nBytes, int channels) {
        if (!applies(plan, func, choice.algorithm(), choice.protocol())) {
            return 0;
        }
        double raw = table.latency(func, Algorithm.RING, Protocol.SIMPLE);
        if (raw <= 0) {
            return 0;
        }
        double base = TimeTable.baseLatency(table.input(), Algorithm.RING, Protocol.SIMPLE);
        double stepsShare = Math.max(0, 1 - base / raw);
        double kept = keptShare(nBytes, Math.max(1, channels), plan.nRanks(),
                PerformanceModel.chunk(Algorithm.RING, Protocol.SIMPLE, Collective.ALL_REDUCE, s));
        return choice.latencyUs() * stepsShare * (1 - kept);
    }

    /**
     * @param nBytes   bytes of the call
     * @param channels runtime channels, >= 1
     * @param nRanks   ranks
     * @param chunk    the Ring AllReduce Simple chunk, bytes
     * @return min(1, max(0, 2 - 2 c / chunk)), c = nBytes / (channels x nRanks): 1 up to half a chunk, 0 from one
     */
    public static double keptShare(long nBytes, int channels, int nRanks, long chunk) {
        double c = (double) nBytes / ((double) channels * nRanks);
        return Math.min(1, Math.max(0, 2 - 2 * c / chunk));
    }

    /** Fewest NCCL nodes the overlap is charged on (measured on 4 and 8; 2-node runs disagree, class note). */
    static final int MIN_NODES = 4;

    /** @return true for a Ring/Simple AllReduce on {@link #MIN_NODES} or more NCCL nodes */
    static boolean applies(ChannelPlan plan, Collective func, Algorithm a, Protocol p) {
        return a == Algorithm.RING && p == Protocol.SIMPLE && func == Collective.ALL_REDUCE
                && plan.nNodes() >= MIN_NODES;
    }
}
