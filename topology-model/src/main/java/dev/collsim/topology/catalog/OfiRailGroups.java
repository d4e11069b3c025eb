package dev.collsim.topology.catalog;

import dev.collsim.topology.NetworkClass;

/**
 * The network devices NCCL sees on an EFA host whose net plugin, aws-ofi-nccl, runs its RDMA protocol: one device
 * per GPU, made of the EFA devices (the plugin's "rails") that share that GPU's PCIe switch, at the rails' summed
 * speed. collsim builds the catalog host as NCCL sees it, so its rings, trees and NVLS heads cross the network on 8
 * devices of 4 x 100 Gb/s on a p5.48xlarge, not on 32 of 100 Gb/s.
 *
 * <p>What the plugin does (aws/aws-ofi-nccl v1.9.2-aws; the same in v1.16.3): its platform table runs the RDMA
 * protocol on p5.48xlarge ({@code src/platform-aws.c platform_data_map}, {@code default_protocol "RDMA"}; v1.16.3
 * {@code src/platform-aws.cpp}: p5, p5e and p5en), SENDRECV on the EFA generation 1 hosts (p3dn, p4d, p4de, g5).
 * Under RDMA, {@code nccl_net_ofi_rdma_init} ({@code src/nccl_ofi_rdma.c}) groups the EFA devices by the hardware
 * topology ({@code nccl_ofi_topo_group}, {@code src/nccl_ofi_topo.c}: each NIC is lifted to the nearest PCIe subtree
 * that holds a GPU, and that subtree's NICs are split into one group per GPU), makes one NCCL device per group
 * ({@code nccl_ofi_topo_num_info_lists}) and reports its speed as the first rail's times the rails
 * ({@code get_properties}: {@code props->port_speed *= device->num_rails}). Measured: the 2 x p5.48xlarge NCCL log
 * prints "16 coll channels, 16 nvls channels, 16 p2p channels, 2 p2p channels per peer"
 * (validation data D-info-1x8-2x8xH100-aws-p5-eks-channels-excerpt.txt): 8 ring channels at NCCL's 48 GB/s over 8
 * devices, doubled, where 32 devices of 12 GB/s gave collsim 32 channels and 64 at run time.
 *
 * <p>The rule reads the plugin's table by the GPU, as {@code simulator.channel.AwsOfiNcclProto} does: an EFA host
 * with GPUDirect and a Hopper or newer GPU (sm 90 and up) runs RDMA. Stateless.
 */
public final class OfiRailGroups {

    /**
     * First compute capability (x10) of the EFA hosts aws-ofi-nccl runs with its RDMA protocol (p5 and later; below it
     * SENDRECV: the plugin's {@code src/platform-aws.c} platform table, v1.6.0-aws on): the one home of that rule, read
     * also by {@code simulator.channel.AwsOfiNcclProto} and {@code simulator.perf.OfiRdmaCtrlWait}.
     */
    public static final int RDMA_MIN_SM = 90;

    private OfiRailGroups() {
    }

    /**
     * @param entry        the system's row
     * @param nicsPerGroup the row's NICs behind one GPU group's PCIe switch
     * @return EFA devices per NCCL device: {@code nicsPerGroup} where the plugin runs RDMA (EFA, GPUDirect, sm 90 and
     *         up), else 1 (every NIC its own device)
     */
    public static int rails(SystemEntry entry, int nicsPerGroup) {
        boolean rdma = entry.network() == NetworkClass.EFA && entry.gpuDirect()
                && entry.gpu().model().sm() >= RDMA_MIN_SM;
        return rdma && nicsPerGroup > 1 ? nicsPerGroup : 1;
    }
}
