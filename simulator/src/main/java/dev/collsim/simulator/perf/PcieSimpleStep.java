package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.AlgoChoice;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.HardwareClass;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.simulator.tuning.TuningConstants;

/**
 * The part of NCCL's per-step latency that a one-host Simple Ring over PCIe with P2P does not wait, in microseconds,
 * which {@link PerformanceModel} takes off the call's latency: NCCL charges each ring step its PCI Simple figure,
 * collsim the step's two dependent P2P store flights. Used for collsim's time prediction only; NCCL's choice and its
 * own estimate keep NCCL's latency. The LL counterpart is {@link PcieLlStream}.
 *
 * <p>NCCL prices a Ring as {@code baseLat + nsteps x hwLat + nBytes / bw} (NCCL 2.28.9 and 2.30.7
 * {@code src/graph/tuning.cc ncclTopoTuneModel}; hwLat[PCI][Ring][Simple] = 5.7 us, one figure for every PCIe
 * transport). What a Simple step over P2P waits (NCCL 2.30.7 {@code src/device/prims_simple.h}): the sender's threads
 * store the slice into the receiver's FIFO in the receiver's GPU memory (P2P write mode on PCIe,
 * {@code src/graph/paths.cc ncclTopoCheckP2p}), then {@code postPeer} orders those stores before the step counter
 * with a system-scope fence ({@code fence_acq_rel_sys}) and stores the counter; the receiver's {@code waitPeer} polls
 * that counter in its own memory and loads the slice from its own memory. So a step's wait is two dependent posted
 * writes across the link, the slice's and the counter's, each one P2P store's flight, which NCCL's own PCI LL step
 * prices (hwLat[PCI][Ring][LL] = 1.0 us: an LL line carries its flag, one flight, {@link PcieLlStream}): 2 x 1.0 =
 * 2.0 us a step. Over SHM the receiver polls and loads host memory across its link instead (two round trips,
 * {@link ShmHostReads#simpleDataReadsUs}), which NCCL's 5.7 covers: measured SHM intercepts meet it
 * ({@link ShmLinkShare}); this class leaves SHM alone.
 *
 * <p>Measured, checked, not fitted (the time less the bytes at the plateau rate, less NCCL's base 8.4 us and the
 * launch's 1 us, over the ring's steps): 4x RTX PRO 6000 patched P2P on PCIe Gen5 (A-allreduce-1x4xRTXPRO6000-dual-
 * turin-shm-vs-p2p-nccl2.29-pr2080.txt "Patched (P2P)") 21-24 us at 1-16 MiB on 6 steps, 2.0-2.4 us a step; 8x RTX PRO
 * 6000 behind two Gen5 switches (A-allreduce-1x8xRTXPRO6000-wrx90-cpayne-pcie-switches-torchdist-ring-nccl2.27.txt)
 * 24.5 us at 4 MiB on 14 steps, 1.1 us a step, where the same page's flag ping-pong measured 0.63-0.73 us a flight
 * inside a switch and 1.06-1.08 across; 4x RTX 4090 P2P on two sockets (A-allreduce-1x4xRTX4090-p2p-driver-8gpu-box
 * .txt) 24-27 us from 16 to 64 MiB on 6 steps, 2.4-2.9 us a step. That box's 56-62 us at 1-4 MiB is not a per-step
 * cost (the same ring leaves 24-27 us above 16 MiB) and is not modelled. Applied as {@link PcieLlStream} is: one
 * host, Ring AllReduce, AllGather or ReduceScatter (rooted rings keep NCCL's rooted pipeline), link class PCI
 * ({@link PerformanceModel#linkClass}), P2P (not {@link ShmLinkShare#shm}). Stateless and thread-safe.
 */
public final class PcieSimpleStep {

    /** Dependent P2P store flights a Simple step waits: the slice's stores, then the step counter's. */
    static final int FLIGHTS_PER_STEP = 2;

    private PcieSimpleStep() {
    }

    /**
     * @param plan   the channel plan
     * @param s      settings (P2P level, for SHM)
     * @param table  NCCL's cost table of the communicator (its hwLat table, by release)
     * @param func   collective
     * @param choice NCCL's (algorithm, protocol)
     * @return microseconds of NCCL's latency (before {@link PerformanceParameters#latencyScale()}) a P2P Simple ring
     *         does not wait: nsteps x (hwLat[PCI][Ring][Simple] - 2 x hwLat[PCI][Ring][LL]), >= 0; 0 where it does
     *         not apply
     */
    public static double overchargeUs(ChannelPlan plan, NcclSettings s, CostTable table, Collective func,
            AlgoChoice choice) {
        if (!applies(plan, s, func, choice.algorithm(), choice.protocol())) {
            return 0;
        }
        TuningConstants c = table.input().constants();
        double step = c.hwLatency(HardwareClass.PCI, Algorithm.RING, Protocol.SIMPLE);
        double flights = FLIGHTS_PER_STEP * c.hwLatency(HardwareClass.PCI, Algorithm.RING, Protocol.LL);
        return NcclTuningModel.nSteps(func, plan.nRanks()) * Math.max(0, step - flights);
    }

    /** @return true for a one-host Ring Simple AllReduce, AllGather or ReduceScatter over PCIe with P2P */
    static boolean applies(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p) {
        boolean unrooted = func == Collective.ALL_REDUCE || func == Collective.ALL_GATHER
                || func == Collective.REDUCE_SCATTER;
        return unrooted && a == Algorithm.RING && p == Protocol.SIMPLE && plan.nNodes() == 1 && plan.nRanks() > 1
                && PerformanceModel.linkClass(plan) == HardwareClass.PCI && !ShmLinkShare.shm(plan, s);
    }
}
