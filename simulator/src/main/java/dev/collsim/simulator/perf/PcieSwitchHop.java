package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.HardwareClass;
import dev.collsim.simulator.tuning.TuningConstants;

/**
 * The flight of one P2P store from GPU to GPU on one host over PCIe, averaged over a ring's hops, in microseconds:
 * what one step of a one-host LL ring waits ({@link PerformanceModel}'s latency, {@link PcieLlStream}) and each of the
 * two flights of a Simple step ({@link PcieSimpleStep}). Used for collsim's time only; NCCL's choice and its own
 * estimate keep NCCL's figure.
 *
 * <p>NCCL has one PCI figure per LL step, hwLat[PCI][Ring][LL] = 1.0 us (NCCL 2.27.5, 2.28.9 and 2.30.7
 * {@code src/graph/tuning.cc}), whatever the path. Over P2P (write mode on PCIe, {@code src/graph/paths.cc
 * ncclTopoCheckP2p}) a step is the sender's posted store landing in the receiver's GPU memory and the receiver's poll of
 * its own memory seeing it ({@code src/device/prims_ll.h storeLL}, {@code readLL}): one store's flight. Between two
 * GPUs behind the same PCIe switch that store turns in the switch; between GPUs of two switches (or of two root ports)
 * it crosses the CPU's root complex. The one measurement of both on one host: 8 RTX PRO 6000 Blackwell behind four
 * c-payne PCIe Gen5 switches, a GPU-resident ping-pong of a 4-byte volatile flag in peer memory, one-way time over
 * 10^6 rounds (github.com/voipmonitor/rtx6kpro, hardware/wrx90-cpayne-8gpu-root-topology-comparison.md, section 2b,
 * commit 29f3863): inside a switch 633, 636, 726 and 727 ns (GPU pairs 0-1, 12-13, 4-5, 8-9), across two switches
 * 1057-1081 ns (eight pairs, means 1072.3 and 1062.2 ns for separate and shared root complexes). The cross-switch
 * figure is NCCL's 1.0 us within 8 %, so a hop through the root complex keeps NCCL's figure; a hop inside one switch
 * (path PIX) takes {@link #IN_SWITCH_FLIGHT_US}, the median of the four in-switch pairs. A ring's steps pass its hops in
 * turn, so a step costs the mean over the ring graph's hops ({@code ChannelPlan#ringSwitchHops}).
 *
 * <p>Applied to one host over PCIe P2P (link class PCI, {@link PerformanceModel#linkClass}; not over SHM, whose
 * stores land in host memory through the root complex, {@link ShmLinkShare#shm}); hosts whose ring has no hop inside
 * a switch keep NCCL's figure. What it checks against (not fitted): the same host's NCCL Ring AllReduce
 * (A-allreduce-1x8xRTXPRO6000-wrx90-cpayne-pcie-switches-torchdist-ring-nccl2.27.txt section 7, 8 ranks, six of the
 * ring's eight hops inside a switch): 17.3-18.7 us at 4-64 KiB in four of six points, which bounds the GPU's time of
 * a call from above (PyTorch's host loop adds to it), below NCCL's 6.6 + 14 x 1.0 = 20.6 us and collsim's 1.5 us launch
 * on top; with the mean flight (6 x 0.681 + 2 x 1.0) / 8 = 0.761 us a step, 1.5 + 6.6 + 14 x 0.761 = 18.75 us.
 * Stateless and thread-safe.
 */
public final class PcieSwitchHop {

    /**
     * One-way flight of a P2P store between two GPUs behind one PCIe switch, microseconds: the median of the four
     * in-switch pairs (633, 636, 726, 727 ns) of the ping-pong in the class note, (636 + 726) / 2.
     */
    public static final double IN_SWITCH_FLIGHT_US = 0.681;

    private PcieSwitchHop() {
    }

    /**
     * @param plan the channel plan (its ring's share of hops inside a switch)
     * @param s    settings (P2P level, for SHM)
     * @param c    NCCL's tuning constants (hwLat[PCI][Ring][LL])
     * @return microseconds: the mean flight of the ring's hops over P2P on one host's PCIe, NCCL's
     *         hwLat[PCI][Ring][LL] otherwise
     */
    public static double meanFlightUs(ChannelPlan plan, NcclSettings s, TuningConstants c) {
        double nccl = c.hwLatency(HardwareClass.PCI, Algorithm.RING, Protocol.LL);
        if (plan.nNodes() != 1 || plan.nRanks() < 2 || PerformanceModel.linkClass(plan) != HardwareClass.PCI
                || ShmLinkShare.shm(plan, s)) {
            return nccl;
        }
        double share = plan.ringSwitchHops();
        return share * Math.min(nccl, IN_SWITCH_FLIGHT_US) + (1 - share) * nccl;
    }

    /**
     * @return microseconds NCCL's hwLat[PCI][Ring][LL] is above {@link #meanFlightUs} per step, >= 0
     */
    static double savedPerStepUs(ChannelPlan plan, NcclSettings s, TuningConstants c) {
        return c.hwLatency(HardwareClass.PCI, Algorithm.RING, Protocol.LL) - meanFlightUs(plan, s, c);
    }
}
