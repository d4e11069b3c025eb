package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.simulator.channel.ChannelPlan;

/**
 * Network hops on the critical path of one call: how many times a transport's extra one-way latency
 * ({@link NetClassProfile#hopLatencyUs}) is paid. The counts are NCCL's own inter-node step counts of its latency
 * formula (NCCL 2.30.7 {@code src/graph/tuning.cc}, fact sheet §2.4), which charge {@code hwLat[NET]} that many
 * times:
 * <ul>
 *   <li>Ring AllReduce 2 (nNodes - 1), Ring AllGather/ReduceScatter nNodes - 1, Ring Broadcast/Reduce nNodes - 1
 *       (the chain through every node);</li>
 *   <li>Tree AllReduce 2 log2(nNodes) (up and down the inter-node tree), NVLSTree the same;</li>
 *   <li>NVLS and CollNet between nodes 2 (to the switch and back), PAT log2(nNodes);</li>
 *   <li>point-to-point: 1 per round that crosses nodes ({@link P2pModel}).</li>
 * </ul>
 * log2 is NCCL's floor log2, at least 1 on two or more nodes. Zero on one node. These are the counts of NCCL's
 * latency formula; the depth its trees really have, which a pipeline's fill depends on, is {@link #treeDepth}.
 * Stateless.
 */
public final class NetHops {

    private NetHops() {
    }

    /**
     * @param func collective
     * @param a    algorithm
     * @param plan channel plan (nodes)
     * @return hops, >= 0
     */
    public static int of(Collective func, Algorithm a, ChannelPlan plan) {
        int nodes = plan.nNodes();
        if (nodes < 2) {
            return 0;
        }
        int log2 = Math.max(1, 31 - Integer.numberOfLeadingZeros(nodes));
        return switch (a) {
            case RING -> func == Collective.ALL_REDUCE ? 2 * (nodes - 1) : nodes - 1;
            case TREE, NVLS_TREE -> 2 * log2;
            case PAT -> log2;
            default -> 2;
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
