package dev.collsim.simulator.channel;

import dev.collsim.topology.PathType;
import java.util.List;

/**
 * The share of a one-node ring's GPU-to-GPU hops that stay inside one PCIe switch (NCCL path type PIX: the two GPUs
 * behind the same switch, the hop never reaching the CPU's root complex), over the ring graph's channel orders as
 * NCCL's search kept them, each order closed (the last GPU sends to the first). What it is for: a P2P store between
 * two GPUs of one switch lands sooner than one through the root complex, which NCCL's one PCI step figure stands for
 * ({@code perf.PcieSwitchHop}). NVLink hops, hops through several switches (PXB) and hops through a CPU count as
 * not inside a switch. Stateless.
 */
final class RingSwitchHops {

    private RingSwitchHops() {
    }

    /**
     * @param h      the node
     * @param orders the GPU orders of the ring graph's channels (local indices), as {@link GraphSearch#orders}
     * @return hops of type PIX over all hops, 0 to 1; 0 without orders or with fewer than two GPUs
     */
    static double share(HostModel h, List<int[]> orders) {
        int g = h.gpus.size();
        if (orders.isEmpty() || g < 2) {
            return 0;
        }
        List<HostPath> hops = h.ringHops(orders);
        long inSwitch = hops.stream().filter(p -> p != null && p.type() == PathType.PIX).count();
        return (double) inSwitch / hops.size();
    }
}
