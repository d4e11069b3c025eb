package dev.collsim.simulator.perf;

import static dev.collsim.units.DecimalText.fixed;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.topology.NetworkClass;
import java.util.Optional;

/**
 * The header note for GPUDirect RDMA on a multi-node communicator: what collsim does with the GDR settings
 * (NCCL_NET_GDR_LEVEL, NCCL_NET_GDR_READ, NCCL_NET_GDR_C2C), and on NCCL's socket transport that there is no GDR to
 * set. The settings act on the path table NCCL's channel search reads (a GPU-NIC path beyond the level is routed
 * through the CPU, NCCL 2.30 {@code src/graph/paths.cc} {@code ncclTopoCheckGdr}), so the Channels line shows PHB/SYS
 * for the network side and Ring's time follows the search's bandwidth; the network proxy then keeps its buffers in
 * host memory ({@code src/transport/net.cc}), so every algorithm's network part (the NIC bound of Ring, Tree, PAT,
 * NVLSTree, the point-to-point collectives, and the bound column) is limited to what the paths through the CPU carry
 * ({@link ChannelPlan#nodeNetBw}). The socket transport offers host memory only (NCCL 2.30.7 {@code
 * src/transport/net_socket.cc}: {@code ptrSupport = NCCL_PTR_HOST}), so its NICs have no GDR whatever the level
 * ({@code src/graph/topo.cc}: a NIC's {@code gdr} is {@code ptrSupport & NCCL_PTR_CUDA}): there the note says the
 * settings change nothing, and gives the staged figure even when none is set. Stateless.
 */
public final class GdrNote {

    private GdrNote() {
    }

    /**
     * @param plan the channel plan (nodes, network class, NIC and staged network bandwidth)
     * @param s    the settings
     * @return the note on several nodes when a GDR setting is given or the transport is sockets; empty otherwise
     */
    public static Optional<String> note(ChannelPlan plan, NcclSettings s) {
        boolean set = s.netGdrLevel().isPresent() || s.netGdrRead().isPresent() || !s.netGdrC2c();
        boolean socket = plan.netClass() == NetworkClass.SOCKET;
        if (plan.nNodes() < 2 || !set && !socket) {
            return Optional.empty();
        }
        String limit = plan.nodeNetBw() < plan.nodeNicBw()
                ? "every algorithm's network part and the bound column are limited to what those paths carry: "
                        + fixed(plan.nodeNetBw(), 1) + " GB/s per node each way, of the NICs' "
                        + fixed(plan.nodeNicBw(), 1)
                : "the GPU-NIC paths of these ranks carry at least the NICs' " + fixed(plan.nodeNicBw(), 1)
                        + " GB/s per node each way, so the NICs stay the limit";
        if (socket) {
            return Optional.of("socket NICs have no GPUDirect RDMA (NCCL's socket transport offers host memory only),"
                    + (set ? " so NCCL_NET_GDR_LEVEL, NCCL_NET_GDR_READ and NCCL_NET_GDR_C2C change nothing;" : "")
                    + " every GPU-NIC path goes through the CPU and host memory (Channels line: PHB/SYS on the"
                    + " network side); " + limit);
        }
        return Optional.of("the GPUDirect RDMA settings route GPU-NIC paths beyond the level through the CPU and host"
                + " memory in NCCL's channel search (Channels line: PHB/SYS on the network side); " + limit);
    }
}
