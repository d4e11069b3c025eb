package dev.collsim.simulator.perf;

import static dev.collsim.units.DecimalText.fixed;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import java.util.Optional;

/**
 * The header note for the GPUDirect RDMA settings (NCCL_NET_GDR_LEVEL, NCCL_NET_GDR_READ, NCCL_NET_GDR_C2C) on a
 * multi-node communicator: what collsim does with them. They act on the path table NCCL's channel search reads
 * (a GPU-NIC path beyond the level is routed through the CPU, NCCL 2.30 {@code src/graph/paths.cc}
 * {@code ncclTopoCheckGdr}), so the Channels line shows PHB/SYS for the network side and Ring's time follows the
 * search's bandwidth; the network proxy then keeps its buffers in host memory ({@code src/transport/net.cc}), so
 * every algorithm's network part (the NIC bound of Ring, Tree, PAT, NVLSTree and the bound column) is limited to
 * what the paths through the CPU carry ({@link ChannelPlan#nodeNetBw}). Stateless.
 */
public final class GdrNote {

    private GdrNote() {
    }

    /**
     * @param plan the channel plan (nodes, NIC and staged network bandwidth)
     * @param s    the settings
     * @return the note when a GDR setting is given on several nodes; empty otherwise
     */
    public static Optional<String> note(ChannelPlan plan, NcclSettings s) {
        boolean set = s.netGdrLevel().isPresent() || s.netGdrRead().isPresent() || !s.netGdrC2c();
        if (plan.nNodes() < 2 || !set) {
            return Optional.empty();
        }
        String limit = plan.nodeNetBw() < plan.nodeNicBw()
                ? "every algorithm's network part and the bound column are limited to what those paths carry: "
                        + fixed(plan.nodeNetBw(), 1) + " GB/s per node each way, of the NICs' "
                        + fixed(plan.nodeNicBw(), 1)
                : "no GPU-NIC path of these ranks crosses the CPU, so the NICs stay the limit";
        return Optional.of("the GPUDirect RDMA settings route GPU-NIC paths beyond the level through the CPU and host"
                + " memory in NCCL's channel search (Channels line: PHB/SYS on the network side); " + limit);
    }
}
