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
 * The part of NCCL's per-step latency that a one-host Simple Ring over PCIe does not wait, in microseconds, which
 * {@link PerformanceModel} takes off the call's latency: NCCL charges each ring step its PCI Simple figure, collsim
 * the step's dependent transfers, by transport. Used for collsim's time prediction only; NCCL's choice and its own
 * estimate keep NCCL's latency. The LL counterpart is {@link PcieLlStream}.
 *
 * <p>NCCL prices a Ring as {@code baseLat + nsteps x hwLat + nBytes / bw} (NCCL 2.28.9 and 2.30.7
 * {@code src/graph/tuning.cc ncclTopoTuneModel}; hwLat[PCI][Ring][Simple] = 5.7 us, one figure for every PCIe
 * transport). What a Simple step waits (NCCL 2.29.2 and 2.30.7 {@code src/device/prims_simple.h}): the sender's
 * threads store the slice into the receiver's FIFO, then {@code postPeer} orders those stores before the step
 * counter with a system-scope fence ({@code fence_acq_rel_sys}) and stores the counter; the receiver's
 * {@code waitPeer} polls that counter and then loads the slice.
 * <ul>
 *   <li>P2P (write mode on PCIe, {@code src/graph/paths.cc ncclTopoCheckP2p}): FIFO and counter are in the
 *       receiver's GPU memory, so the step is two dependent posted writes across the link, the slice's and the
 *       counter's, each one P2P store's flight, which NCCL's own PCI LL step prices (hwLat[PCI][Ring][LL] = 1.0 us:
 *       an LL line carries its flag, one flight, {@link PcieLlStream}): 2 x 1.0 = 2.0 us a step.</li>
 *   <li>SHM ({@link ShmLinkShare#shm}): FIFO and counter are in host memory on the receiver's side (NCCL 2.29.2 and
 *       2.30.7 {@code src/transport/shm.cc shmRecvConnect}: {@code recv->conn.tail = &devHostMem->tail} and
 *       {@code conn.buffs} in its own host segment, NCCL_SHM_LOCALITY default 2; {@code shmSendConnect} points the
 *       sender's {@code conn.tail} and buffers at the same segment). The sender's two stores are the same two posted
 *       flights (into host memory); the receiver's poll that sees the counter is then a read of host memory across its
 *       link, one round trip ({@link ShmHostReads#READ_ROUND_TRIP_US}, 1.364 us), where over P2P it is a load of its
 *       own memory, and the slice's loads another round trip, which {@link ShmHostReads#simpleDataReadsUs} adds:
 *       2 x 1.0 + 2 x 1.364 = 4.73 us a step. This class takes off 5.7 - (2.0 + 1.364) = 2.336 us a step, so the
 *       call's latency is 8.4 + nsteps x 4.73 us.</li>
 * </ul>
 *
 * <p>Measured, checked, not fitted (the time less the bytes at the plateau rate, less NCCL's base 8.4 us and the
 * launch's 1 us, over the ring's steps). P2P: 4x RTX PRO 6000 patched P2P on PCIe Gen5 (A-allreduce-1x4xRTXPRO6000-
 * dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt "Patched (P2P)") 21-24 us at 1-16 MiB on 6 steps, 2.0-2.4 us a step; 8x
 * RTX PRO 6000 behind two Gen5 switches (A-allreduce-1x8xRTXPRO6000-wrx90-cpayne-pcie-switches-torchdist-ring-
 * nccl2.27.txt) 24.5 us at 4 MiB on 14 steps, 1.1 us a step, where the same page's flag ping-pong measured 0.63-0.73
 * us a flight inside a switch and 1.06-1.08 across; 4x RTX 4090 P2P on two sockets (A-allreduce-1x4xRTX4090-p2p-
 * driver-8gpu-box.txt) 24-27 us from 16 to 64 MiB on 6 steps, 2.4-2.9 us a step. That box's 56-62 us at 1-4 MiB is
 * not a per-step cost (the same ring leaves 24-27 us above 16 MiB) and is not modelled. SHM, every Simple ring over
 * SHM the project holds (files under validation/src/test/resources/data), per step: the same RTX PRO 6000 host
 * "Stock (SHM)" 4.9, 6.2, 4.9, 3.3 us at 1, 2, 4, 16 MiB (plateau 37.60 GB/s busbw), 2.7 us a step above its P2P
 * steps, two round trips; 4x L40S (A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt run 8,
 * NCCL_PROTO=simple, 128 and 256 KiB, plateau 14.61) 5.3 and 4.8; 2x RTX 2080 Ti behind one Gen3 switch
 * (A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt, AllReduce 256 KiB to 4 MiB,
 * plateau 4.00) 5.6, 4.9, 4.0, 3.0, 3.6; 2x L40S on two NUMA nodes (A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-
 * sweep-nccl2.29.txt run 6, 32 to 256 KiB, plateau 15.69) 7.3-7.7, the one run above NCCL's 5.7 (both its hops
 * cross between NUMA nodes; no source found for a cost of that size, docs/single-host-guesses.md section 1). Median
 * of the four hosts 5.0 us; NCCL's 5.7 plus the second round trip, which collsim charged before, 7.06.
 * Applied as {@link PcieLlStream} is: one host, Ring AllReduce, AllGather or ReduceScatter (rooted rings keep NCCL's
 * own rooted latency), link class PCI ({@link PerformanceModel#linkClass}). Stateless and thread-safe.
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
     * @return microseconds of NCCL's latency (before {@link PerformanceParameters#latencyScale()}) a Simple ring
     *         does not wait: nsteps x (hwLat[PCI][Ring][Simple] - {@link #stepUs}), >= 0; 0 where it does not apply
     */
    public static double overchargeUs(ChannelPlan plan, NcclSettings s, CostTable table, Collective func,
            AlgoChoice choice) {
        if (!applies(plan, s, func, choice.algorithm(), choice.protocol())) {
            return 0;
        }
        TuningConstants c = table.input().constants();
        double step = c.hwLatency(HardwareClass.PCI, Algorithm.RING, Protocol.SIMPLE);
        return NcclTuningModel.nSteps(func, plan.nRanks()) * Math.max(0, step - stepUs(plan, s, c));
    }

    /**
     * The wait of one step before the slice's loads (see the class note): two store flights, and over SHM the
     * receiver's poll of the counter in host memory, one round trip. The loads' own round trip over SHM is
     * {@link ShmHostReads#simpleDataReadsUs}'s.
     *
     * @return microseconds: 2 x hwLat[PCI][Ring][LL] (over P2P hops inside a PCIe switch their flight, {@link
     *         PcieSwitchHop#meanFlightUs}), + {@link ShmHostReads#READ_ROUND_TRIP_US} over SHM
     */
    static double stepUs(ChannelPlan plan, NcclSettings s, TuningConstants c) {
        double flights = FLIGHTS_PER_STEP * PcieSwitchHop.meanFlightUs(plan, s, c);
        return flights + (ShmLinkShare.shm(plan, s) ? ShmHostReads.READ_ROUND_TRIP_US : 0);
    }

    /** @return true for a one-host Ring Simple AllReduce, AllGather or ReduceScatter over PCIe (P2P or SHM) */
    static boolean applies(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p) {
        boolean unrooted = func == Collective.ALL_REDUCE || func == Collective.ALL_GATHER
                || func == Collective.REDUCE_SCATTER;
        return unrooted && a == Algorithm.RING && p == Protocol.SIMPLE && plan.nNodes() == 1 && plan.nRanks() > 1
                && PerformanceModel.linkClass(plan) == HardwareClass.PCI;
    }
}
