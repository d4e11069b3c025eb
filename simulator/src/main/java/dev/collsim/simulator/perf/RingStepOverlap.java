package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.AlgoChoice;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.TimeTable;

/**
 * The part of NCCL's per-step Ring latency a Ring/Simple AllReduce between NCCL nodes does not wait, which {@link
 * PerformanceModel} takes off NCCL's latency (the base latency stays whole). Used for collsim's time prediction
 * only; NCCL's choice and its own estimate keep NCCL's latency. Two mechanisms: the steps' waits hide behind the
 * slices of whole chunks (the ramp, 4 nodes and more), and behind the other channels' data on a NIC the channels
 * outrun (the backlog, 2 nodes and more).
 *
 * <p>NCCL's figure (2.26.2 to 2.30.7 {@code src/graph/tuning.cc ncclTopoTuneModel}): baseLat + (nsteps - nInterSteps)
 * x max(hwLat intra, 3 x netOverhead) + nInterSteps x hwLat[NET][Ring][Simple], nsteps = 2 (nRanks - 1), x1.4 from
 * sm80 ({@code ncclTopoGetAlgoTime}, "plateau effect of ring"): 4x8 H100 8.4 + 56 x 3.4 + 6 x 14 = 282.8 us, x1.4 =
 * 396 us; 8x8 819 us. It counts every step's handshake as time. The kernel (2.26.2 {@code src/device/all_reduce.h
 * runRing}) walks each channel's share in loops of nRanks chunks, 2 (nRanks - 1) steps a loop; a chunk is
 * ALLREDUCE_CHUNKSTEPS = 4 steps of buffSize / NCCL_STEPS (2 MiB by default, {@link CalcCollChunking#chunk}) in
 * SlicePerChunk = 2 slices of half the chunk whatever its size ({@code src/device/prims_simple.h genericOp}: sliceSize
 * = divUp(nelem, 16 x SlicePerChunk) x 16), and a loop smaller than nRanks chunks runs with chunks of remCount /
 * nRanks.
 *
 * <p>Ramp, derived shape. Slice j of step k on a rank waits for slice j of step k - 1 of the previous rank (the
 * data) and for its own slice j - 1 (the channel's copy): the longest path through the 2 (nRanks - 1) steps costs each
 * step t + max(t, L), t a slice's copy time, L the step's handshake, so a step waits max(0, L - t) beyond its data;
 * the network steps dominate. With NCCL's own per-step figures (14 x 1.4 us a network step) that hides every step
 * from c = nBytes / (channels x nRanks) of about 0.8 MB on; the data keep the steps longer. On the 4x8 H100 VMs
 * (A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt run 2, lines 139-143, 16 channels at 22.9
 * GB/s, t = 11.4, 22.9 and 45.8 us at c = 0.5, 1 and 2 MiB) the excess over the line through 1-16 GiB (intercept 127
 * us, relative least squares) is 220, 139 and -4 us, over the 6 network steps L = 48.0, 46.1 and at most 45.8 us:
 * the shape holds with a network step of about 47 us, 2.4 x NCCL's, a figure NCCL's source does not give (the
 * proxy's poll of the tail, the isend after the whole slice, the RDMA write, its completion, the GPUDirect flush:
 * {@code src/transport/net.cc}). The bare-metal runs of the same thread give 76-105 us (A-allreduce-2x8-4x8-8x8xH100-
 * ib400-mincta24-issue-nccltests309-gjaion.txt: 4x8 run 3, lines 189-194, 554 and 335 us above its line, intercept
 * 66 us, at c = 0.5 and 1 MiB; 8x8 run 1, lines 93-96, 699 us at 1 MiB over 14 network steps, intercept 88 us),
 * so no one L holds both (those logs do not name NCCL's choice; the first Ring sizes of a default run may be
 * NVLSTree's); collsim keeps the measured ramp, which does: the share kept is 1 up to half a chunk C, 0
 * from a whole chunk on, linear between, min(1, max(0, 2 - 2 c / C)) ({@link #keptShare}). From 4 nodes on only:
 * on 2 nodes the one run of whole chunks on NCCL's default channels keeps its steps (2x8 A100, A-allreduce-1x8-
 * 2x8xA100-80GB-meta-gcm-healthcheck-samples-nccl2.16-2.12.txt run 2, lines 66-67: 2 t(S) - t(2S) = 374 us at 512
 * MiB-1 GiB, c = 2-4 MiB on 16 channels, about NCCL's figure).
 *
 * <p>Backlog, derived. A channel waiting on a step's handshake does not stop its NIC while other channels have data
 * for it: the proxy posts each connection's isend as soon as the GPU's tail shows the slice (2.26.2 {@code
 * src/transport/net.cc sendProxyProgress}), for every channel on the NIC. Where the channels' copies are faster than
 * the NIC's share, the call takes max(the NIC's time, the channels' time with their waits), not their sum: the waits
 * hide up to nBytes / algBw - nBytes / channels' algBw ({@link #spareUs}). Measured: 24 channels on 8 x 400 Gb/s
 * (NCCL_MIN_CTAS=24; 24 x 20.7 = 496.8 GB/s of copies for 392 of NICs) show no wait below whole chunks (the same
 * gjaion file, run 4 8x8, lines 280-283: 1 GiB at c = 0.7 MiB 38 us above the line through 2-8 GiB, where NCCL's
 * steps are 807 us; run 5 2x8 Ring, lines 318-324: 128-512 MiB, c = 0.3-1.3 MiB, -46 to +33 us off the line through
 * 1-8 GiB, whose intercept 124 us is under NCCL's 184). Only
 * where the channels' rate and the NICs' share are both known: a Hopper Ring between nodes of NVLink GPUs at the
 * search ceiling ({@link RingChannelRate#nicShareApplies}); elsewhere the rate between nodes is NCCL's figure (the
 * 2x8 A100 run above, NIC-bound at 183 GB/s of 200, keeps its 374 us) or the ring's hops are all network hops (a
 * 2x1 GH200 Ring over Slingshot, A-allreduce-2x1xGH200-cscs-alps-slingshot-nccl2.30.txt, reads 10 % fast at 8 MiB
 * with its steps hidden). Stateless and thread-safe.
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
     * @param spareUs  the channels' spare time behind the slower link, microseconds of NCCL's latency (before
     *                 {@link PerformanceParameters#latencyScale()}): {@link #spareUs}
     * @return microseconds of NCCL's latency (before {@link PerformanceParameters#latencyScale()}) the call does not
     *         wait: the steps' part x (1 - {@link #keptShare}) on {@link #MIN_NODES} or more nodes, and of the rest
     *         at most spareUs where a Hopper ring's NICs bind (the backlog, class comment); 0 where it does not apply
     */
    public static double hiddenUs(ChannelPlan plan, NcclSettings s, CostTable table, Collective func,
            AlgoChoice choice, long nBytes, int channels, double spareUs) {
        if (!appliesBetweenNodes(plan, func, choice.algorithm(), choice.protocol())) {
            return 0;
        }
        double raw = table.latency(func, Algorithm.RING, Protocol.SIMPLE);
        if (raw <= 0) {
            return 0;
        }
        double base = TimeTable.baseLatency(table.input(), Algorithm.RING, Protocol.SIMPLE);
        double stepsUs = choice.latencyUs() * Math.max(0, 1 - base / raw);
        double kept = plan.nNodes() < MIN_NODES ? 1 : keptShare(nBytes, Math.max(1, channels), plan.nRanks(),
                CalcCollChunking.chunk(Algorithm.RING, Protocol.SIMPLE, Collective.ALL_REDUCE, s));
        double backlog = RingChannelRate.nicShareApplies(plan, Algorithm.RING, Protocol.SIMPLE)
                ? Math.min(stepsUs * kept, Math.max(0, spareUs)) : 0;
        return stepsUs * (1 - kept) + backlog;
    }

    /**
     * The time the channels' copies would idle behind a slower link over the call, which the steps' waits hide in (class
     * comment, "Backlog"): nBytes / (1000 x algBw) - nBytes / (1000 x channels' algBw), where algBw is the call's
     * rate with every bound and the channels' is theirs alone ({@code PerformanceModel}'s capAlgBw).
     *
     * @param nBytes         bytes of the call
     * @param algBw          the call's algorithm bandwidth, GB/s
     * @param channelsAlgBw  the algorithm bandwidth its channels' copies allow, GB/s
     * @return microseconds, 0 where the channels bind (or a rate is not positive)
     */
    public static double spareUs(long nBytes, double algBw, double channelsAlgBw) {
        if (!(algBw > 0) || !(channelsAlgBw > algBw)) {
            return 0;
        }
        return BusBandwidth.timeUs(nBytes, algBw) - BusBandwidth.timeUs(nBytes, channelsAlgBw);
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

    /** Fewest NCCL nodes the ramp of {@link #keptShare} is charged on (measured on 4 and 8; class comment). */
    static final int MIN_NODES = 4;

    /** @return true for a Ring/Simple AllReduce between NCCL nodes (the backlog from 2 nodes, the ramp from 4) */
    static boolean appliesBetweenNodes(ChannelPlan plan, Collective func, Algorithm a, Protocol p) {
        return a == Algorithm.RING && p == Protocol.SIMPLE && func == Collective.ALL_REDUCE && plan.nNodes() >= 2;
    }
}
