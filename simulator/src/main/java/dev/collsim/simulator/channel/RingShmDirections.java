package dev.collsim.simulator.channel;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.CpuKind;
import dev.collsim.topology.PathType;
import dev.collsim.topology.paths.PathFinder;
import java.util.List;

/**
 * Which directions of its own PCIe link each GPU of a one-node ring uses for the ring's SHM hops, over the ring
 * graph's channel orders as NCCL's search kept them, each order closed (the last GPU sends to the first): what sets
 * the share of the link SHM moves ({@code perf.ShmLinkShare}). A hop is SHM when its path goes through the CPU (PHB or
 * SYS) and is farther than the P2P level in force (NCCL 2.30.7 {@code src/graph/paths.cc ncclTopoCheckP2p}; the same
 * test as {@code perf.ShmLinkShare#shm}, hop by hop). Over SHM the sender's kernel stores into host memory (its link
 * upstream) and the receiver's kernel loads from it (its link downstream; NCCL 2.30.7 {@code src/transport/shm.cc},
 * the FIFO in the receiver's host memory). A ring rank sends to the next GPU of its channel's order and receives from
 * the previous one, whatever the collective (NCCL 2.30.7 {@code src/graph/connect.cc}: ring.prev / ring.next of each
 * channel; {@code src/device/all_reduce.h runRing}, {@code all_gather.h}, {@code reduce_scatter.h} send to next and
 * receive from prev), so each GPU's directions follow from the orders alone.
 *
 * <p>Worked example, Azure NC A100 v4 (GPUs 0-1 and 2-3 on NVLink bridges, SYS between the pairs, P2P at NVL: the
 * driver refuses P2P across the pairs). One order 0-1-2-3 on every channel: GPU 1 stores (1 to 2), GPU 2 loads, GPU 3
 * stores (3 to 0), GPU 0 loads; no GPU does both: one way. Two opposite orders 0-1-2-3 and 0-3-2-1: GPU 1 stores for
 * the first (1 to 2) and loads for the second (2 to 1): both ways. A ring whose every hop is SHM (2 GPUs on two CPU
 * nodes, 2x L40S): every GPU stores and loads: both ways. Stateless.
 */
final class RingShmDirections {

    private RingShmDirections() {
    }

    /**
     * @param h      the node
     * @param orders the GPU orders of the ring graph's channels (local indices), as {@link GraphSearch#orders}
     * @param s      settings (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL)
     * @return true when the ring has SHM hops and no GPU both sends and receives over SHM (in any channels): every
     *         GPU's link then carries SHM one way; false when some GPU's link carries it both ways, or with no SHM hop
     */
    static boolean oneWay(HostModel h, List<int[]> orders, NcclSettings s) {
        int g = h.gpus.size();
        if (orders.isEmpty() || g < 2) {
            return false;
        }
        PathType level = PathFinder.Options.of(s).p2pLevelInForce(h.cpuKind() == CpuKind.AMD_X86, g);
        boolean[] stores = new boolean[g];
        boolean[] loads = new boolean[g];
        boolean any = false;
        for (int[] order : orders) {
            for (int k = 0; k < g; k++) {
                int from = order[k];
                int to = order[(k + 1) % g];
                HostPath p = h.gpuToGpu[from][to];
                if (p != null && shm(p.type(), level)) {
                    stores[from] = true;
                    loads[to] = true;
                    any = true;
                }
            }
        }
        for (int i = 0; i < g; i++) {
            if (stores[i] && loads[i]) {
                return false;
            }
        }
        return any;
    }

    private static boolean shm(PathType t, PathType level) {
        return t.throughCpu() && !t.atMost(level);
    }
}
