package dev.collsim.simulator.perf;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import java.util.Optional;

/**
 * The header note for the GPUDirect RDMA settings (NCCL_NET_GDR_LEVEL, NCCL_NET_GDR_READ, NCCL_NET_GDR_C2C) on a
 * multi-node communicator: what collsim does with them. They act on the path table NCCL's channel search reads
 * (a GPU-NIC path beyond the level is routed through the CPU, NCCL 2.30 {@code src/graph/paths.cc}
 * {@code ncclTopoCheckGdr}), so the Channels line shows PHB/SYS for the network side and Ring's time follows the
 * search's bandwidth; the Tree and NVLSTree time models and the bound column do not use those paths yet, so with
 * either algorithm a GDR-off what-if predicts no change. Stateless.
 */
public final class GdrNote {

    private GdrNote() {
    }

    /**
     * @param plan the channel plan (nodes)
     * @param s    the settings
     * @return the note when a GDR setting is given on several nodes; empty otherwise
     */
    public static Optional<String> note(ChannelPlan plan, NcclSettings s) {
        boolean set = s.netGdrLevel().isPresent() || s.netGdrRead().isPresent() || !s.netGdrC2c();
        if (plan.nNodes() < 2 || !set) {
            return Optional.empty();
        }
        return Optional.of("the GPUDirect RDMA settings route GPU-NIC paths beyond the level through the CPU in NCCL's"
                + " channel search (Channels line: PHB/SYS on the network side) and Ring's time follows it; the Tree"
                + " and NVLSTree times and the bound column do not model the staging through the CPU yet");
    }
}
