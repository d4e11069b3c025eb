package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.PathType;

/**
 * The link rate of a call whose ring path goes through the CPU ({@link ShmLinkShare#throughCpu}: PHB or SYS, over
 * NCCL's SHM transport or, where the P2P level allows it, P2P; on one node or several, the network's hops bounded
 * apart): the rate of the links its bytes cross, with
 * the link between two CPUs at its physical rate
 * ({@link ChannelPlan#ringPathBw}, {@link ChannelPlan#pairPathBw}; the channel package's {@code CpuPathRates} says
 * why and how), in place of NCCL's graph bandwidth, which NCCL's inter-CPU constant and its search's speed steps set
 * (NCCL 2.29.2 {@code src/graph/topo.cc ncclTopoGetInterCpuBw}, {@code src/graph/search.cc}). Only the time uses it:
 * NCCL's cost table, and so NCCL's algorithm, protocol and channels, keep NCCL's figures. A one-host ring over
 * NVLinks from GPU to GPU (no NVSwitch) is timed the same way, its NVLinks at the datasheet rate before sm80 and at
 * NCCL's figure from sm80 on, as through NVSwitches (scale 1; {@link #directNvlinkRing}).
 *
 * <p>Worked example, 2x L40S on two CPU nodes of a Sapphire Rapids host (NCCL 22 GB/s between them, UPI 96): NCCL's
 * ring graph is 1 channel x 20 GB/s; each GPU's Gen4 x16 link (NCCL 24 GB/s) carries its ring hop once per direction
 * and the UPI link 96 once, so the ring moves 24 GB/s per direction: scale 24 / 20 = 1.2; Ring/Simple AllReduce
 * busbw 24 x 0.98 (bwEfficiencySimple) x 0.666 (SHM duplex share, {@link ShmLinkShare}) = 15.66 GB/s, measured 15.67
 * (validation/src/test/resources/data/A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt line 47).
 * Stateless and thread-safe.
 */
public final class CpuRouteRate {

    private CpuRouteRate() {
    }

    /**
     * The factor on NCCL's ring-graph bandwidth for a call whose link bandwidth comes from the ring graph: Ring (every
     * collective) and the one-host Tree chain, which runs on the ring's links ({@link IntraNodeChain}). P2P and SHM
     * rings over the same paths get the same factor: both move each byte over the same links once per hop (the
     * transports differ in the share of it they move, {@link ShmLinkShare#factor}, not in the links' rate).
     *
     * @param plan  the channel plan
     * @param a     algorithm
     * @param chain true for the one-host Tree AllReduce chain
     * @return ringPathBw / (nChannels x bwIntra of the ring graph) for a ring through the CPU or over direct NVLinks
     *         ({@link #directNvlinkRing}); 1 otherwise or when
     *         the path rate is unknown
     */
    public static double ringScale(ChannelPlan plan, Algorithm a, boolean chain) {
        GraphSummary ring = plan.graphs().ring();
        if (a != Algorithm.RING && !chain || plan.ringPathBw() <= 0
                || !ShmLinkShare.throughCpu(plan) && !directNvlinkRing(plan)) {
            return 1.0;
        }
        return plan.ringPathBw() / ring.totalIntra();
    }

    /**
     * A one-host ring over NVLinks straight from GPU to GPU: no NVSwitch, ring path NVL (or NVB, through another
     * GPU's NVLinks); its hops count in {@link ChannelPlan#ringPathBw} at the NVLink datasheet rate before sm80 and
     * at NCCL's figure from sm80 on (the channel package's {@code CpuPathRates}). DGX-1 V100, 8 ranks: 6 channels x
     * 20 GB/s in NCCL's graph, 6 links x 25 GB/s physical: scale 1.25; 2x A100 PCIe over NVLink bridges (NV12): 12
     * channels x 20 GB/s, 12 links x 20: scale 1.
     *
     * @param plan the channel plan
     * @return true for such a ring
     */
    static boolean directNvlinkRing(ChannelPlan plan) {
        GraphSummary ring = plan.graphs().ring();
        return plan.nNodes() == 1 && !plan.hasNvSwitch() && ring != null && ring.present()
                && (ring.typeIntra() == PathType.NVL || ring.typeIntra() == PathType.NVB);
    }

    /**
     * @param plan the channel plan
     * @return GB/s per direction of one GPU sending alone to a node peer: through the CPU the pair path's rate
     *         ({@link ChannelPlan#pairPathBw}), NCCL's best pair path ({@link ChannelPlan#gpuPathBw}) otherwise
     */
    public static double pairBw(ChannelPlan plan) {
        return plan.pairPathBw() > 0 && ShmLinkShare.throughCpu(plan) ? plan.pairPathBw() : plan.gpuPathBw();
    }

    /**
     * The rate one rank sends to its node peers at while every rank of the node sends at once: over SHM the paths
     * cross links every rank's path crosses too (two GPUs behind one PCIe switch both send up and receive down its
     * uplink), so at most the ring's rate, which counts every rank's hop on the shared links, and each rank stores to
     * and loads from host memory at once on separate send and receive warps (NCCL 2.29.7
     * {@code src/device/sendrecv.h}), so x {@link ShmLinkShare#p2pShare}; otherwise the pair path
     * ({@link #pairBw}): P2P never routes a pair through the CPU to share a switch's uplink (NCCL 2.30.7
     * {@code src/graph/paths.cc addInterStep} only where P2P is not allowed).
     *
     * @param plan the channel plan
     * @param s    settings (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL)
     * @return GB/s per rank and direction
     */
    public static double concurrentBw(ChannelPlan plan, NcclSettings s) {
        if (plan.ringPathBw() <= 0 || !ShmLinkShare.shm(plan, s)) {
            return pairBw(plan);
        }
        return Math.min(pairBw(plan), plan.ringPathBw()) * ShmLinkShare.p2pShare();
    }
}
