package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.RuntimeChannels;
import dev.collsim.simulator.tuning.AlgoChoice;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.HardwareClass;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.simulator.tuning.ReleaseRules;
import dev.collsim.simulator.tuning.TuningConstants;

/**
 * The ring steps a tiny Ring LL AllReduce waits for, one call after another as nccl-tests times them, when fewer
 * than nRanks of its rank-chunks hold data. Used for collsim's time only; NCCL's choice keeps NCCL's latency.
 *
 * <p>NCCL's source: the ring AllReduce cuts each loop into nRanks chunks and every rank runs the same 2 (nRanks - 1)
 * steps, chunk {@code c} of each step at {@code c x chunkCount} ({@code src/device/all_reduce.h runRing}); a chunk
 * past the data has {@code nelem <= 0}, and an LL step of no elements neither polls for a line nor stores one
 * ({@code src/device/prims_ll.h LLGenericOp}: {@code nelem = nelem < 0 ? 0 : nelem}, the line loop skipped, only
 * the step counters move), so it does not wait for the previous rank. From v2.22.3-1 a chunk is {@code
 * alignUp(divUp(count, nRanks), 16 / sizeof(T))} elements ({@code runRing}, v2.30.7-1), so with floats 8-16 B fill one
 * chunk, 32 B two, 64 B four and 128 B all eight of 8 ranks. Up to v2.21.5-1 a chunk is rounded up to 8 bytes a
 * thread of the call ({@code minChunkSize = nthreads * sizeof(uint64_t) / sizeof(T)}, v2.8.4-1 and v2.19.4-1 {@code
 * all_reduce.h}; v2.20.5-1 and v2.21.5-1 {@code src/enqueue.cc computeCollAlignCount}, {@code
 * NCCL_LL_ALIGNMENT_PER_THREAD} = 8), the threads halved from 512 while {@code nBytes < nc x nt x threshold} and
 * {@code nt % 128 == 0} ({@code getAlgoInfo}), at least 3 warps from v2.18.5-1 and 64 threads before it.
 *
 * <p>The time: nccl-tests issues its calls back to back, so a rank starts the next call as soon as its last step
 * with data is done. Solved as a max-plus recurrence (each rank's steps in order; a step with data waits for the
 * previous rank's previous step plus one hop; an empty step waits for nothing), the period of k chunks with data
 * is {@code min(2 (nRanks - 1), 2 nRanks - nRanks / ceil(k / 2))} hops: nRanks hops for one or two chunks, NCCL's
 * 2 (nRanks - 1) once all hold data. Measured against it (base 6.6 + launch 1.5 = 8.1 us, hops of {@link
 * NvlinkLlHop}): 8x A100 (A-allreduce-1x8xA100-80GB-sxm-thanos-g8-vs-mpirun-sweep.txt:74) 17.90 / 17.77 us at 16 B
 * (one chunk: 8.1 + 8 x 1.2 = 17.7), 22.30 / 23.21 at 64 B (four: 8.1 + 12 x 1.2 = 22.5), 23.91 / 24.08 at 128 B
 * (all: 24.9); 8x H100 (A-allreduce-1x8xH100-dgx-nvidia-dgxc-benchmarking-nccl-recipe.txt:24) 13.67 / 13.00 us at
 * 8-16 B (one: 8.1 + 8 x 0.6 = 12.9), 14.92 at 64 B (four: 15.3), 15.87 at 128 B (all: 16.5); 4x A100 of NCCL 2.8.4
 * (A-allreduce-1x4-1x8xA100-40GB-abci-anode-nccl2.8.txt:21, 64-thread chunks of 512 B) 11.89-13.23 us at 8-512 B
 * (one: 8.1 + 4 x 1.2 = 12.9). Not fitted: the period is the recurrence's. Applied where it was measured: one host
 * whose ring graph is NVLink ({@link PerformanceModel#linkClass}). The kernel is the same over PCIe P2P and SHM, but
 * no one-process-per-GPU PCIe file has sizes below nRanks x 16 B (the -g runs' host floor hides them) and SHM's LL
 * steps have their own host-read term ({@link ShmHostReads}); between hosts the steps are network hops. AllGather
 * and ReduceScatter give every rank's chunk data. Stateless.
 */
public final class RingLlEmptySteps {

    /** Bytes a chunk is aligned to from v2.22.3-1 ({@code runRing}: 16 / sizeof(T) elements). */
    static final int ALIGN_BYTES = 16;

    /** First NCCL 2 minor release that aligns a chunk to 16 bytes rather than to 8 bytes a thread. */
    static final int FIRST_16_BYTE_CHUNK_MINOR = 22;

    /** First NCCL 2 minor release that launches at least 3 warps ({@code getAlgoInfo}, v2.18.5-1). */
    static final int FIRST_THREE_WARP_MINOR = 18;

    private RingLlEmptySteps() {
    }

    /**
     * @param plan   the channel plan
     * @param s      settings (NCCL_NTHREADS)
     * @param func   collective
     * @param a      algorithm
     * @param p      protocol
     * @param nBytes bytes of the call
     * @param rules  the run's release rules
     * @return the steps the call waits for in nccl-tests' loop: NCCL's nsteps unless a one-host NVLink Ring LL
     *         AllReduce leaves some rank-chunks empty; 0 for an empty call (no step has elements)
     */
    public static double steps(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p,
            long nBytes, ReleaseRules rules) {
        int n = plan.nRanks();
        int nsteps = NcclTuningModel.nSteps(func, n);
        if (func != Collective.ALL_REDUCE || a != Algorithm.RING || p != Protocol.LL || plan.nNodes() != 1 || n < 2
                || PerformanceModel.linkClass(plan) != HardwareClass.NVLINK) {
            return nsteps;
        }
        long k = dataChunks(plan, s, nBytes, rules);
        if (k >= n) {
            return nsteps;
        }
        if (k == 0) {
            return 0;
        }
        long pairs = (k + 1) / 2;
        return Math.min(nsteps, 2.0 * n - (double) n / pairs);
    }

    /**
     * @param plan   the channel plan
     * @param s      settings
     * @param table  NCCL's cost table of the communicator (its hwLat table, by release)
     * @param func   collective
     * @param choice NCCL's (algorithm, protocol)
     * @param nBytes bytes of the call
     * @return microseconds of NCCL's latency (before {@link PerformanceParameters#latencyScale()}) the call does not
     *         wait: the steps {@link #steps} leaves out at NCCL's hwLat for the host's link class, >= 0
     */
    public static double savedUs(ChannelPlan plan, NcclSettings s, CostTable table, Collective func,
            AlgoChoice choice, long nBytes) {
        Algorithm a = choice.algorithm();
        double left = NcclTuningModel.nSteps(func, plan.nRanks())
                - steps(plan, s, func, a, choice.protocol(), nBytes, table.input().constants().rules());
        if (left <= 0) {
            return 0;
        }
        TuningConstants c = table.input().constants();
        // a P2P hop inside a PCIe switch waits its flight, not NCCL's figure (PcieSwitchHop; 0 elsewhere)
        return left * (c.hwLatency(PerformanceModel.linkClass(plan), Algorithm.RING, Protocol.LL)
                - PcieSwitchHop.savedPerStepUs(plan, s, c));
    }

    /**
     * Below nRanks x the chunk grain a chunk is one grain, so {@code ceil(nBytes / grain)} hold data; from there on
     * all nRanks are taken to. NCCL's own count dips below nRanks just past it ({@code alignUp(divUp(count, n), 4)}
     * floats: 132 B on 8 ranks fills 5 chunks of 32 B), which would make a larger call faster; not modelled, so that
     * the time never falls as the size grows.
     *
     * @return how many of the nRanks chunks of the call's one loop hold data, 0 (an empty call) to nRanks
     */
    static long dataChunks(ChannelPlan plan, NcclSettings s, long nBytes, ReleaseRules rules) {
        if (nBytes <= 0) {
            return 0;
        }
        int n = plan.nRanks();
        long grain = rules.runMinor() >= FIRST_16_BYTE_CHUNK_MINOR ? ALIGN_BYTES
                : 8L * threads(plan, s, nBytes, rules);
        return nBytes >= n * grain ? n : (nBytes + grain - 1) / grain;
    }

    /** @return the call's LL threads ({@code getAlgoInfo}: halved from maxThreads, a floor by release) */
    static int threads(ChannelPlan plan, NcclSettings s, long nBytes, ReleaseRules rules) {
        int nc = RuntimeChannels.perCall(Algorithm.RING, Protocol.LL, nBytes, plan, s);
        int nt = RuntimeChannels.maxThreads(Algorithm.RING, Protocol.LL, plan.graphs(), s);
        long thr = RuntimeChannels.threadThreshold(Algorithm.RING, Protocol.LL, plan.nRanks());
        while (nBytes < (long) nc * nt * thr && nt % 128 == 0) {
            nt /= 2;
        }
        return rules.runMinor() >= FIRST_THREE_WARP_MINOR ? Math.max(nt, 3 * NcclDevice.WARP_SIZE) : nt;
    }
}
