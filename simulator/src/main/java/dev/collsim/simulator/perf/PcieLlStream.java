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
 * The part of NCCL's per-step latency that a one-host LL Ring over PCIe (P2P or SHM) hides behind its own data, in
 * microseconds, which {@link PerformanceModel} takes off the call's latency. Used for collsim's time prediction only;
 * NCCL's choice and its own estimate keep NCCL's latency.
 *
 * <p>NCCL prices a Ring as {@code baseLat + nsteps x hwLat + nBytes / bw} (NCCL 2.27.5 and 2.30.7
 * {@code src/graph/tuning.cc ncclTopoTuneModel}, {@code ncclTopoGetAlgoTime}): each of the nsteps ring steps waits
 * one hop, then the data follows. LL does not wait a whole step: every 16-byte line carries its own flag, the
 * receiver polls each line and forwards it to the next rank as soon as it holds it (NCCL 2.30.7
 * {@code src/device/prims_ll.h readLL}, {@code storeLL}). A rank's link therefore carries step k+1's lines right
 * after step k's, while the hop of each line overlaps the lines behind it: once the data takes longer than the
 * hops, the call takes {@code baseLat + hwLat + nBytes / bw} (one hop for the last line), and below that
 * {@code baseLat + nsteps x hwLat} plus a little. collsim takes off {@code min((nsteps - 1) x hwLat, nBytes / bw)}
 * (the data time over {@code latencyScale}, which multiplies NCCL's latency after this): nothing for an empty
 * call, the whole overlap once the data time passes the hops, and a time that never falls as the size grows (its
 * slope in bytes is 0 or that of the data). Simple posts a whole slice per step and its wait
 * stays in the latency ({@code prims_simple.h}); LL128 is off on PCIe by default (NCCL 2.27.5 {@code tuning.cc}:
 * typeIntra up to NVB).
 *
 * <p>Physics: the hop is one P2P store's flight; on 8 RTX PRO 6000 behind two PCIe Gen5 switches a GPU-resident
 * ping-pong of a 4-byte flag measured 633-727 ns one way inside a switch and 1057-1081 ns across the two
 * (voipmonitor/rtx6kpro, hardware/wrx90-cpayne-8gpu-root-topology-comparison.md section 2b), as NCCL's PCI LL
 * hwLat of 1.0 us per step assumes. The same page's NCCL Ring AllReduce (section 7,
 * A-allreduce-1x8xRTXPRO6000-wrx90-cpayne-pcie-switches-torchdist-ring-nccl2.27.txt:20) takes 25.1 us at 256 KiB
 * and 81.1 us at 1 MiB: at NCCL's LL rate (24 GB/s bus bandwidth there) the data alone is 19.1 and 76.5 us, which
 * leaves 6.0 and 4.6 us, less than NCCL's 14 x 1.0 us of hops, but about NCCL's base latency 6.6 us: the hops
 * are hidden. Applied where collsim has measured it: one host, Ring LL, link class PCI
 * ({@link PerformanceModel#linkClass}), over P2P and over SHM ({@link ShmLinkShare#shm}); rooted rings (Broadcast,
 * Reduce), whose latency is NCCL's rooted pipeline, keep it. NVLink rings are not measured for it and keep NCCL's
 * latency.
 *
 * <p>Over SHM the kernel is the same: {@code prims_ll.h} does not know the transport, only where its FIFO lives
 * (NCCL 2.29.7 and 2.30.7 {@code src/transport/shm.cc}: the LL FIFO in the receiver's host memory,
 * NCCL_SHM_LOCALITY default 2), so each line is still forwarded as soon as its flags match, and a hop is the sender's
 * posted store to host memory and the receiver's next poll of it. What SHM changes is the rate, the receiver's loads
 * from host memory ({@link ShmHostReads#timeUs}, a lower bound on the call's time that this rule leaves as it is).
 * Measured on the FarmShare L40S host over SHM (NCCL 2.29.2, nccl-tests {@code -g 2} and {@code -g 4}, Ring/LL
 * forced, A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt:153 and
 * A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt:251; the intercept of a least-squares line of
 * time against bytes): 7.3 us on 2 ranks over 32-256 KiB (5.6 over 128 KiB-1 MiB), 9.7 us on 4 (6.1), where NCCL's
 * sum with collsim's launch is 1.5 + 6.6 + 2 x 1.0 = 10.1 and 1.5 + 6.6 + 6 x 1.0 = 14.1 us, and with the hops
 * hidden 9.1 us for both: the 4 more steps of the 4-rank ring add 0.5-2.4 us, not 4. Stateless.
 */
public final class PcieLlStream {

    private PcieLlStream() {
    }

    /**
     * NCCL's per-step LL latency above the ring's mean hop flight ({@link PcieSwitchHop}): nsteps x (NCCL's
     * hwLat[PCI][Ring][LL] - {@link PcieSwitchHop#meanFlightUs}), 0 unless P2P hops inside a PCIe switch.
     *
     * @param plan   the channel plan
     * @param s      settings (P2P level)
     * @param table  NCCL's cost table of the communicator
     * @param func   collective
     * @param choice NCCL's (algorithm, protocol)
     * @return microseconds before {@link PerformanceParameters#latencyScale()}, >= 0
     */
    static double overchargeUs(ChannelPlan plan, NcclSettings s, CostTable table, Collective func,
            AlgoChoice choice) {
        if (!applies(plan, func, choice.algorithm(), choice.protocol())) {
            return 0;
        }
        return NcclTuningModel.nSteps(func, plan.nRanks())
                * PcieSwitchHop.savedPerStepUs(plan, s, table.input().constants());
    }

    /**
     * @param plan    the channel plan
     * @param s       settings (P2P level, for the hop's flight: {@link PcieSwitchHop#meanFlightUs})
     * @param pp      performance parameters (the hidden part is at most the data time / latencyScale, so that the
     *                scaled latency never falls by more than the data time and the time never falls as size grows)
     * @param table   NCCL's cost table of the communicator (its hwLat table, by release)
     * @param func    collective
     * @param choice  NCCL's (algorithm, protocol)
     * @param nBytes  bytes of the call
     * @param algBw   the call's algorithm bandwidth, GB/s (its data time is nBytes / (1000 x algBw) us)
     * @return microseconds of NCCL's latency (before {@link PerformanceParameters#latencyScale()}) hidden behind the
     *         data, >= 0: at most nsteps - 1 hops at {@link PcieSwitchHop#meanFlightUs} (NCCL's hwLat[PCI][Ring][LL]
     *         except over P2P hops inside a PCIe switch)
     */
    public static double hiddenUs(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, CostTable table,
            Collective func, AlgoChoice choice, long nBytes, double algBw) {
        Algorithm a = choice.algorithm();
        if (!applies(plan, func, a, choice.protocol())) {
            return 0;
        }
        double hops = (NcclTuningModel.nSteps(func, plan.nRanks()) - 1)
                * PcieSwitchHop.meanFlightUs(plan, s, table.input().constants());
        return Math.max(0, Math.min(hops, BusBandwidth.timeUs(nBytes, algBw) / pp.latencyScale()));
    }

    /** @return true for a one-host Ring LL AllReduce, AllGather or ReduceScatter over PCIe (P2P or SHM) */
    static boolean applies(ChannelPlan plan, Collective func, Algorithm a, Protocol p) {
        boolean unrooted = func == Collective.ALL_REDUCE || func == Collective.ALL_GATHER
                || func == Collective.REDUCE_SCATTER;
        return unrooted && a == Algorithm.RING && p == Protocol.LL && plan.nNodes() == 1 && plan.nRanks() > 1
                && PerformanceModel.linkClass(plan) == HardwareClass.PCI;
    }
}
