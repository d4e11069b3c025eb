package dev.collsim.simulator.perf;

import dev.collsim.hardware.PcieGen;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.topology.NcclBandwidths;

/**
 * The network rate of a node whose one rank stages its network traffic through host memory (GPU Direct RDMA off on
 * the ring graph's GPU-NIC path, {@link ShmHostReads#hostMemoryReceive}): NCCL then keeps the connection's FIFOs in
 * host memory (NCCL 2.16.5 to 2.30.7 {@code src/transport/net.cc}: device memory only with {@code useGdr}), and the
 * rank's kernel stores its send FIFO and loads its receive FIFO over its own PCIe link, with no proxy copy. With one
 * rank on the node, that rank both sends to and receives from the network in every step of a ring (NCCL
 * {@code src/device/all_reduce.h runRing}), so its link carries the duplex pattern {@link ShmLinkShare} measured over
 * SHM, where the kernel does the same stores and loads of host memory: per direction at most
 * {@link ShmLinkShare#duplexShare} of NCCL's PCIe figure for the link ({@link NcclBandwidths#pcie}, x16 taken), the
 * share measured on one host's SHM runs, not on any network file (its note). With two or more ranks on a node the
 * rank that receives from the network and the one that sends to it differ (NCCL 2.30.7 {@code src/graph/search.cc
 * ncclTopoSearchRecNet}: a ring enters a node at one GPU and leaves at another), each one-way: not capped here. The
 * 2-rank AllGather's alternating phases ({@link ShmLinkShare#ALTERNATING_SHARE}) are not told apart (the plan is per
 * communicator). Stateless.
 */
public final class StagedNetDuplex {

    private StagedNetDuplex() {
    }

    /**
     * @param plan the channel plan
     * @param s    settings (NCCL_NET_GDR_LEVEL)
     * @return the plan with {@code nodeNetBw} held to the duplex share of the GPU's link when the rule applies (class
     *         note), else the plan as it is
     */
    public static ChannelPlan apply(ChannelPlan plan, NcclSettings s) {
        if (plan.nNodes() < 2 || plan.maxLocalRanks() != 1 || plan.gpuPcieGen() < 1 || plan.gpuPcieGen() > 6
                || !ShmHostReads.hostMemoryReceive(plan, s)) {
            return plan;
        }
        double cap = ShmLinkShare.duplexShare(plan) * NcclBandwidths.pcie(PcieGen.of(plan.gpuPcieGen()), 16).gbps();
        return cap < plan.nodeNetBw() ? plan.withNodeNetBw(cap) : plan;
    }
}
