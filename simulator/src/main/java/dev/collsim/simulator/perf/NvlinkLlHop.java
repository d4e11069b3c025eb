package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.AlgoChoice;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.HardwareClass;
import dev.collsim.simulator.tuning.NcclTuningModel;

/**
 * What an LL step over NVLink costs on an A100 (sm80) host beyond NCCL's per-step figure, in microseconds, which
 * {@link PerformanceModel} adds to the call's latency. Used for collsim's time only; NCCL's choice and its own
 * estimate keep NCCL's figure.
 *
 * <p>NCCL prices an LL step over NVLink at {@code hwLat[NVLINK][Ring|Tree][LL]} = 0.6 us for every GPU generation
 * (NCCL 2.18.5 to 2.30.7 {@code src/graph/tuning.cc}; 0.47 for the Ring in v2.8.4-1), after a base of 6.6 us
 * ({@code baseLat[Ring][LL]}), so an 8-rank Ring LL AllReduce, 2 x 7 steps, is 6.6 + 14 x 0.6 = 15.0 us. Where the
 * call is all latency (every rank's chunk carries data, at most 8 KiB: one channel of at most 128 threads, the data
 * time under 1.3 us), the measured time is {@code baseLat + launchOverheadUs + nsteps x hop}. On Hopper that is
 * NCCL's hop: 8x H100 (A-allreduce-1x8xH100-dgx-nvidia-dgxc-benchmarking-nccl-recipe.txt:24) takes 15.87-17.14 us at
 * 128 B-2 KiB against 6.6 + 1.5 + 14 x 0.6 = 16.5, and 2x H200 (data/device/h200x2-2proc-2026-11-29/run4, one
 * process per GPU) 9.34 us at 32 B against 6.6 + 1.5 + 2 x 0.6 = 9.3. On A100 NVSwitch hosts, with one process per
 * GPU (no host floor), the same base leaves a hop of nearly twice NCCL's, {@link #AMPERE_HOP_US}. Why (NVLink3 and
 * the second-generation NVSwitch against NVLink4 and the third; the A100's 1410 MHz boost clock against the H100's
 * 1980 MHz for the polling and forwarding loop of {@code src/device/prims_ll.h readLL}, {@code storeLL}) no source
 * separates; the figure is measured.
 *
 * <p>What hides the added part is the links' data time, not a channel's. Every LL primitive call is one ring step,
 * and it opens and closes with a barrier of the whole CTA ({@code src/device/prims_ll.h}: {@code waitSend} ends
 * and {@code postRecv} starts with {@code barrier()}, NCCL v2.8.4-1 to v2.29.7-1 alike), so a step ends when its
 * slowest thread's line has arrived: a channel's step costs the hop plus its own lines at the channel's rate,
 * one after the other, and its steps follow one another. Those per-channel data times add to the hops; only
 * the data time beyond them (the links, with every channel's lines on them, slower than the channels alone) can
 * hide the added hops. collsim adds {@code max(0, nsteps x (AMPERE_HOP_US - hwLat) - (data time - channel data
 * time) / latencyScale)}, the channel data time being the bytes at the channels' per-channel cap ({@link
 * PerformanceParameters#perChannelCap}) alone. Where the channels bind (one LL channel of 8 ranks up to 32 KiB,
 * then as many channels as 32 KiB blocks, each step of each channel 4 KiB: thanos run 2 at 32-512 KiB, 27.7-31.9 us
 * measured, NCCL's latency plus its data 25.0-27.2) the whole excess is added; where the links bind (8 ranks at 1
 * MiB on 24 channels, 20.9 us of data against 6.4 at the channels' cap) it is hidden as before; the time never
 * falls as the size grows (both terms grow with it). Applied to one host, LL, an NVLink ring graph
 * ({@link PerformanceModel#linkClass}), every GPU sm80, the unrooted Ring (AllReduce, AllGather, ReduceScatter:
 * NCCL's nsteps, {@link NcclTuningModel#nSteps}, fewer where a tiny AllReduce leaves rank-chunks empty,
 * {@link RingLlEmptySteps}) and the one-host Tree chain of AllReduce (2 (nRanks - 1) steps).
 * Not between hosts: the RoCE class's hop ({@link NetClassDefaults}) was read off the 2x8 A100 OCI floors with NCCL's
 * 0.6 inside each host, so an A100 hop there would need that figure read again; rooted rings (Broadcast, Reduce) keep
 * NCCL's rooted pipeline latency. Stateless.
 */
public final class NvlinkLlHop {

    /**
     * One LL step over NVLink between A100s, microseconds. Measured: the time of the all-latency sizes (every rank's
     * chunk carrying data, at most 8 KiB) less NCCL's Ring LL base 6.6 us and {@code launchOverheadUs} 1.5, over
     * NCCL's steps 2 (nRanks - 1); median per dataset, then the median over datasets. 8x A100-SXM4-80GB, one process
     * per GPU, NCCL of 2024 or later (A-allreduce-1x8xA100-80GB-sxm-thanos-g8-vs-mpirun-sweep.txt:74, 128 B-8 KiB both
     * columns, 14 values 23.37-25.84 us): 1.149. 8x and 4x A100-SXM4-40GB, one process per GPU, NCCL 2.8.4
     * (A-allreduce-1x4-1x8xA100-40GB-abci-anode-nccl2.8.txt:64 at 4-8 KiB, 23.80-26.35 us: 1.232; line 21 at 2-4 KiB,
     * 14.67-15.63 us: 1.196; NCCL 2.8.4 rounds each chunk up to 64 threads x 8 B, {@code src/collectives/device/
     * all_reduce.h} minChunkSize, and runs 64 threads to 4 KiB, {@code src/enqueue.cc getAlgoInfo}, so only from 4
     * KiB on 8 ranks and 2 KiB on 4 does every chunk carry data). Median of the three 1.196, rounded to 1.2, when the
     * channels' data was taken as hidden. Re-read with it added, as the class comment says (each time less the bytes
     * at the channels' cap, 12 GB/s bus bandwidth a channel, one channel: at most 1.2 us at 8 KiB on 8 ranks, 0.5 us
     * at 4 KiB on 4), the per-dataset medians are 1.133 (thanos), 1.167 (ABCI 8 GPUs) and 1.103 (ABCI 4 GPUs);
     * median 1.133, rounded to 1.13; leaving one dataset out gives 1.118-1.150. Two hosts, two NCCL releases three
     * years apart.
     */
    public static final double AMPERE_HOP_US = 1.13;

    /** The compute capability (x 10) the figure was measured on: A100. */
    static final int AMPERE_SM = 80;

    private NvlinkLlHop() {
    }

    /**
     * @param plan   the channel plan
     * @param s      settings (the call's threads, {@link RingLlEmptySteps})
     * @param pp     performance parameters (the added part is hidden by at most the data time / latencyScale)
     * @param table  NCCL's cost table of the communicator (its hwLat table, by release)
     * @param func   collective
     * @param choice NCCL's (algorithm, protocol)
     * @param nBytes bytes of the call
     * @param algBw  the call's algorithm bandwidth, GB/s (its data time is nBytes / (1000 x algBw) us)
     * @param capAlgBw the algorithm bandwidth of the call's channels at their per-channel cap alone, GB/s (>= algBw;
     *               the channels' own data time, which does not hide the added hops)
     * @return microseconds added to NCCL's latency (before {@link PerformanceParameters#latencyScale()}), >= 0; 0
     *         where it does not apply ({@link #applies})
     */
    public static double extraUs(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, CostTable table,
            Collective func, AlgoChoice choice, long nBytes, double algBw, double capAlgBw) {
        Algorithm a = choice.algorithm();
        if (!applies(plan, func, a, choice.protocol())) {
            return 0;
        }
        double steps = a == Algorithm.TREE ? 2 * (plan.nRanks() - 1) : RingLlEmptySteps.steps(plan, s, func, a,
                choice.protocol(), nBytes, table.input().constants().rules());
        double perStep = AMPERE_HOP_US - table.input().constants().hwLatency(HardwareClass.NVLINK, a, Protocol.LL);
        double excess = steps * Math.max(0, perStep);
        double dataUs = nBytes <= 0 ? 0 : BusBandwidth.timeUs(nBytes, algBw) / pp.latencyScale();
        double channelUs = nBytes <= 0 ? 0 : BusBandwidth.timeUs(nBytes, Math.max(capAlgBw, algBw)) / pp.latencyScale();
        return Math.max(0, excess - (dataUs - channelUs));
    }

    /**
     * @return true for LL on one host of 2 or more sm80 GPUs whose ring graph is NVLink: an unrooted Ring
     *         (AllReduce, AllGather, ReduceScatter) or the Tree chain of AllReduce
     */
    static boolean applies(ChannelPlan plan, Collective func, Algorithm a, Protocol p) {
        if (p != Protocol.LL || plan.nNodes() != 1 || plan.nRanks() < 2 || plan.minSm() != AMPERE_SM
                || PerformanceModel.linkClass(plan) != HardwareClass.NVLINK) {
            return false;
        }
        if (a == Algorithm.TREE) {
            return func == Collective.ALL_REDUCE;
        }
        return a == Algorithm.RING && (func == Collective.ALL_REDUCE || func == Collective.ALL_GATHER
                || func == Collective.REDUCE_SCATTER);
    }
}
