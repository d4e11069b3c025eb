package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.bound.PhysicalBound;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.SearchSpeeds;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;

/**
 * Whether a Ring channel between nodes moves no more than the one-node rate of one channel
 * ({@link PerformanceParameters#perChannelCap}), rather than NCCL's own bus bandwidth over its default runtime
 * channels, the floor {@code PerformanceModel} gives the cap of every other algorithm on several nodes.
 *
 * <p>Why: a ring channel is one CTA on each rank, and each rank's CTA copies the channel's whole share of the data
 * through its step, whatever carries the hop (NCCL 2.28.9 {@code src/device/prims_simple.h}: the same
 * {@code genericOp} loop for a P2P or a NET peer). On nodes of several NVLink GPUs most of a ring's hops are NVLink
 * hops of the kind the one-node figure was measured on, and the ring runs at its slowest step, so the one-node
 * rate binds between nodes too. Trees are not held to it: the 2x2 DGX H100 Tree run moves 24.7 GB/s of bus
 * bandwidth per channel ({@code PerformanceModel#perChannelCap}), above the one-node ring figure (a tree's bus
 * bandwidth does not count the bytes one CTA copies the way a ring's does).
 *
 * <p>Measured, nothing fitted: Hopper's figure is 20.7 GB/s per channel, read on one node of 2 H200
 * ({@code data/device/h200x2-2026-11-29/collsim-sweep-NCCL_MAX_NCHANNELS.txt} lines 28 and 62: 41.72 / 2 and
 * 82.21 / 4). NCCL doubles its 8 ring graph channels of an 8-GPU, 8-NIC Hopper node to 16 runtime channels between
 * nodes (NCCL 2.26.2 {@code src/graph/connect.cc ncclTopoPostset}, "Duplication should be complete now"; "16 coll
 * channels" in the 2 x 8 H100 log D-info-1x8-2x8xH100-aws-p5-eks-channels-excerpt.txt line 23), so a Ring between
 * such nodes carries at most 16 x 20.7 = 331.2 GB/s busbw, below the 8 x 400 Gb/s NICs. Measured at 8 GiB, on two
 * fabrics and two GPUs: 2 x 8 H200 over GCP RoCE, AllGather 325.72 and 325.52 GB/s
 * (A-allgather-2x8xH200-gcp-a3ultra-gke-gib-skypilot-nccl2.26.txt lines 60 and 112); 4 x 8 H100 over InfiniBand
 * (Voltage Park), AllGather 323.53 and AllReduce 330.93 (ZiyanIshani/vpbenchmarking
 * {@code results/nccl_multinode/nccl_multinode_summary.md}, commit 29960031; the same cluster's broadcast and reduce
 * runs are A-bcast-reduce-4x8xH100-voltagepark-ib-nccl2.24.txt). Before this rule collsim took NCCL's 8 graph
 * channels x 48 GB/s over 16, 24 GB/s per channel, so the NICs bound: 354 GB/s on the H200 runs (8 % fast) and
 * 358.6 on the Voltage Park broadcast. A second 8 x 8 H100 cluster on 400 Gb/s InfiniBand agrees on 4 and 8 nodes:
 * 324.52 and 320.70 GB/s busbw at 8 GiB, 20.3 and 20.0 per channel
 * (A-allreduce-2x8-4x8-8x8xH100-ib400-mincta24-issue-nccltests309-gjaion.txt lines 194 and 96).
 *
 * <p>Channels and NICs: NVIDIA's maintainer names the channels as the limit of such runs ("NCCL_MIN_CTAS=24 may
 * get you above 380 GB/s", NVIDIA/nccl-tests#309), and with 24 CTAs that cluster moves 391.37 GB/s on 8 nodes and
 * 392.69 on 2 under NCCL_ALGO=Ring (same file, lines 283 and 324), 48.9-49.1 GB/s per 400 Gb/s NIC: 24 x 20.7 =
 * 496.8 no longer binds, the NICs do, as the maintainers' 46-48 GB/s per NDR NIC (nccl-tests #290, #319) says. That
 * is above NCCL's own table entry, whose 48 GB/s per graph channel is the top of the Hopper search's speed array
 * (NCCL 2.26.2 {@code src/graph/search.cc sm90SpeedArrayInter}), a packing figure below the 50 GB/s NCCL gives a
 * 400 Gb/s NIC; so for these rings {@link #linkAlgBw} takes the NICs' ring share in place of the entry (with
 * collsim's Simple efficiency 0.98, 392 GB/s). On 16 channels nothing moves (331.2 binds first). Not explained:
 * the 4 x 8 H100 XE9680 AllReduce on VMware VMs with a custom NCCL_TOPO_FILE, 365.84 GB/s
 * (A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt line 143), 22.9 per channel on 16 channels,
 * 11 % above the bare-metal 4 x 8 runs of the same thread and of Voltage Park; its log prints no channel count, and
 * its hand-made topology may give NCCL more (on 24 channels 365.84 is 45.7 GB/s per NIC, under the NICs' share).
 *
 * <p>Hopper only. Blackwell's figure is Hopper's by assumption (no one-channel Blackwell measurement), and the one
 * Blackwell Ring between nodes contradicts it there: 2 x 4 GB300 (sm103) moves 357.13 and 360.42 GB/s busbw at
 * 16 and 8 GiB on 16 runtime channels (A-allgather-2x4xGB300-gcp-a4xmax-gke-gib-cross-nvl-domain-nccl2.28.txt
 * lines 51 and 89), 22.3-22.5 GB/s per channel, as the 8 x B300 Ring AllReduce's 695 GB/s on 32 channels does on
 * one node (21.7, NVIDIA/nccl#2140); Blackwell keeps NCCL's figure until its one-channel rate is measured. Volta and
 * Ampere keep it too: their figures are NCCL's Tree caps, not measured rates. Stateless.
 */
public final class RingChannelRate {

    private RingChannelRate() {
    }

    /**
     * @param a   the call's algorithm
     * @param gen the communicator's GPU generation (its lowest compute capability)
     * @return true when the one-node per-channel rate caps this algorithm's channels on several nodes: Ring on Hopper
     */
    public static boolean oneNodeRateBetweenNodes(Algorithm a, GpuGeneration gen) {
        return a == Algorithm.RING && gen == GpuGeneration.HOPPER;
    }

    /**
     * The link-limited algorithm bandwidth of a Hopper Ring/Simple call between nodes of NVLink GPUs: its NICs' ring
     * share ({@link PhysicalBound#interBusBw(ChannelPlan, Collective, boolean)}, at most the bound's intra-node part,
     * {@link PhysicalBound#intraBusBw(ChannelPlan, Collective)}) where that is above NCCL's table
     * entry, which stands on the ring graph's search speed, not on a link (class comment, "Channels and NICs"). LL
     * and LL128 keep NCCL's entry: it carries their protocols' own factors (NCCL 2.26.2 {@code src/graph/tuning.cc
     * ncclTopoTuneModel}: LL x 0.5 up to llMaxBw, LL128 x 0.92 up to perChMaxRingLL128Bw per channel), which the
     * NICs' share does not; so does every other call.
     *
     * @param plan       the channel plan
     * @param func       the collective
     * @param a          the call's algorithm
     * @param p          the call's protocol
     * @param tableAlgBw NCCL's table entry (or the two-node Tree's link figure), GB/s of algorithm bandwidth
     * @return GB/s of algorithm bandwidth, before collsim's efficiencies
     */
    public static double linkAlgBw(ChannelPlan plan, Collective func, Algorithm a, Protocol p, double tableAlgBw) {
        if (!nicShareApplies(plan, a, p)) {
            return tableAlgBw;
        }
        // the NICs' share stands in for the graph's search speed between nodes only: the ring still crosses each
        // node's NVLinks, so the share is held to the bound's intra-node part (one NVLink per GPU: 25 GB/s)
        double nicBusBw = Math.min(PhysicalBound.interBusBw(plan, func, true), PhysicalBound.intraBusBw(plan, func));
        return Math.max(tableAlgBw, BusBandwidth.algBwFromBusBw(func, plan.nRanks(), nicBusBw));
    }

    /**
     * @param plan the channel plan
     * @param a    the call's algorithm
     * @param p    the call's protocol
     * @return true where {@link #linkAlgBw} may take the NICs' ring share: a Hopper Ring/Simple between nodes of
     *         NVLink GPUs whose ring graph's inter-node speed is the search's ceiling (its channels' measured rate
     *         and its NICs' share both known) and whose GPUs reach their NICs directly (GPUDirect RDMA: the ring's
     *         typeInter before PHB). Without GPUDirect RDMA the network data is staged in host memory and crosses the
     *         GPU's PCIe switch uplink twice each way (the GPU's copy and the NIC's DMA), which NCCL's search charges
     *         to that uplink: the NICs' line rate does not bound such a ring, so NCCL's entry stays
     */
    public static boolean nicShareApplies(ChannelPlan plan, Algorithm a, Protocol p) {
        return p == Protocol.SIMPLE && plan.nNodes() >= 2 && oneNodeRateBetweenNodes(a, GpuGeneration.of(plan.minSm()))
                && plan.graphs().ring().typeIntra() == PathType.NVL
                && plan.graphs().ring().typeInter().compareTo(PathType.PHB) < 0 && atTopSearchSpeed(plan);
    }

    /**
     * @return true when the ring graph's speed between nodes, as the search found it before {@code
     *         ncclTopoDupChannels} split its channels ({@link dev.collsim.simulator.tuning.GraphSummary#searchBwInter}),
     *         is the top of NCCL's sm90 inter-node speed array (48 GB/s, {@link SearchSpeeds}; the same array in every
     *         release collsim models): the search stopped at its ceiling, not at a link. A ring of 4 channels or fewer
     *         at 48 is duplicated into twice the channels at 24 (NCCL 2.30.7 {@code src/graph/search.cc
     *         ncclTopoDupChannels}: bwIntra 48 >= 25, and the sm90 exception needs more than 4 channels), so 2 x 2
     *         DGX H100 ranks get 4 x 24 from the 48 ceiling. Below the ceiling a link set the speed, and NCCL's entry
     *         stands on that link
     */
    private static boolean atTopSearchSpeed(ChannelPlan plan) {
        double ceiling = SearchSpeeds.of(plan.minSm(), true, NcclVersion.V2_30_7)[0];
        return plan.graphs().ring().searchBwInter() >= ceiling - 1e-9 && nicsStoppedTheSearch(plan, ceiling);
    }

    /**
     * @return true when the NICs' line rate explains why the search found no more channels at the ceiling: one more
     *         channel per NIC at the ceiling would exceed a NIC (2 x 2 DGX H100: 1 channel per 50 GB/s NIC, a second
     *         needs 96). Where a NIC could take another (one 800 Gb/s NIC, 100 GB/s, carrying NCCL's 1 channel of 48,
     *         duplicated into 2 x 24), a path to it (the NIC's PCIe link, 48 GB/s in NCCL's view) stopped the search,
     *         and the NIC's line rate is not the ring's limit
     */
    private static boolean nicsStoppedTheSearch(ChannelPlan plan, double ceiling) {
        int nics = Math.max(1, plan.nicsPerNode());
        // NCCL's view of a NIC (its port speed), not the physical figure held to its PCIe link
        double perNic = plan.nodeNicPortBw() / nics;
        double found = (double) plan.graphs().ring().nChannels() / plan.graphs().ring().dupFactor();
        return perNic < (Math.ceil(found / nics) + 1) * ceiling;
    }
}
