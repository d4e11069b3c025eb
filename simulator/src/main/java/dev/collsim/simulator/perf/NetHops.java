package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.simulator.channel.ChannelPlan;

/**
 * Network hops on the critical path of one call: how many times a transport's extra one-way latency
 * ({@link NetClassProfile#hopLatencyUs}) and an LL step's host-memory send FIFO ({@link NetTransport#llSendFifoUs})
 * are paid. The counts start from NCCL's own inter-node step counts of its latency formula (NCCL 2.28.9 and 2.30.7
 * {@code src/graph/tuning.cc ncclTopoTuneModel}, fact sheet §2.4), which charge {@code hwLat[NET]} that many times:
 * <ul>
 *   <li>Ring AllReduce 2 (nNodes - 1), Ring AllGather/ReduceScatter nNodes - 1, Ring Broadcast/Reduce nNodes - 1
 *       (the chain through every node); a Ring AllGather/ReduceScatter with more than one rank per node crosses
 *       nNodes ({@link #ringCrossings});</li>
 *   <li>Tree AllReduce 2 log2(nNodes) (up and down the inter-node tree), NVLSTree the same;</li>
 *   <li>NVLS and CollNet between nodes 2 (to the switch and back), PAT log2(nNodes);</li>
 *   <li>point-to-point: 1 per round that crosses nodes ({@link P2pModel}).</li>
 * </ul>
 * log2 is NCCL's floor log2, at least 1 on two or more nodes. Zero on one node. The depth NCCL's trees really have,
 * which a pipeline's fill depends on, is {@link #treeDepth}. Stateless.
 */
public final class NetHops {

    private NetHops() {
    }

    /**
     * @param func collective
     * @param a    algorithm
     * @param plan channel plan (nodes, ranks)
     * @return hops, >= 0
     */
    public static int of(Collective func, Algorithm a, ChannelPlan plan) {
        int nodes = plan.nNodes();
        if (nodes < 2) {
            return 0;
        }
        int log2 = Math.max(1, 31 - Integer.numberOfLeadingZeros(nodes));
        return switch (a) {
            case RING -> ringCrossings(func, nodes, plan.nRanks());
            case TREE, NVLS_TREE -> 2 * log2;
            case PAT -> log2;
            default -> 2;
        };
    }

    /**
     * Network links on the longest chain of a Ring AllGather or ReduceScatter: the hops one chunk makes from the rank
     * that puts it in to the last rank that takes it, each waiting for the one before. NCCL 2.28.9
     * {@code src/device/all_gather.h runRing}: step 0 sends the rank's own chunk, the next nRanks - 2 steps receive
     * a chunk and send it on, the last receives; so a chunk crosses nRanks - 1 consecutive links of the ring, all
     * but the one into its origin ({@code reduce_scatter.h}: the same, reducing on the way). NCCL's ring graph
     * leaves and enters each node once per channel, so the ring has nNodes network links, ppn = nRanks / nNodes
     * ranks apart, and the call ends with its slowest chunk: it crosses all nNodes of them unless every chunk's
     * skipped link is a network link, which is so only at ppn 1 (nNodes - 1, NCCL's count). Example, 2 nodes x 4
     * ranks: the chunk of rank 1 goes 1-2-3-4-5-6-7-0, crossing 3-4 and 7-0: 2 hops, where NCCL's formula counts 1.
     * AllReduce keeps NCCL's 2 (nNodes - 1) though its chain ({@code all_reduce.h}, 2 (nRanks - 1) consecutive
     * links) crosses 2 nNodes - 1 (ppn 2) or 2 nNodes (ppn >= 3): counted so, the 2x2 L40S RoCE run
     * (A-allreduce-2x1-2x2xL40S-openshift-sriov-tcp-vs-roce-nccl2.27.txt:70), already predicted slow below 1 MiB,
     * goes from +29.5 % to +53.4 % (median, signed), so something else is charged too much there; left open.
     * Broadcast and Reduce keep NCCL's nNodes - 1 (where the root sits in its node is not known here).
     *
     * @param func   collective
     * @param nodes  NCCL nodes, >= 2
     * @param nRanks ranks, >= nodes
     * @return network links on the critical path
     */
    static int ringCrossings(Collective func, int nodes, int nRanks) {
        int ppn = nRanks / nodes;
        return switch (func) {
            case ALL_GATHER, REDUCE_SCATTER -> ppn > 1 ? nodes : nodes - 1;
            case ALL_REDUCE -> 2 * (nodes - 1);
            default -> nodes - 1;
        };
    }

    /**
     * The depth of NCCL's binary tree over n nodes: the most network hops from a leaf to the root. NCCL 2.27.3 and
     * 2.30.7 {@code src/graph/trees.cc ncclGetBtree}: rank r &gt; 0 with lowest set bit b has parent (r ^ b) | (b &lt;&lt;
     * 1), or r ^ b when that is n or more; {@code ncclGetDtree}'s second tree is the first mirrored (n even) or shifted
     * by one (n odd), so both trees have this depth. It is ceil(log2 n), not NCCL's floor log2 of {@link #of}: 3 nodes
     * form the chain 0 &lt;- 2 &lt;- 1 (depth 2, where floor log2 3 = 1), 5 nodes 0 &lt;- 4 &lt;- 2 &lt;- 1 (depth 3).
     *
     * @param nodes NCCL nodes, >= 1
     * @return hops from the deepest leaf to the root, 0 on one node
     */
    public static int treeDepth(int nodes) {
        int depth = 0;
        for (int r = 1; r < nodes; r++) {
            int d = 0;
            for (int u = r; u != 0; d++) {
                int bit = Integer.lowestOneBit(u);
                int up = (u ^ bit) | (bit << 1);
                u = up >= nodes ? u ^ bit : up;
            }
            depth = Math.max(depth, d);
        }
        return depth;
    }
}
