package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The depth of NCCL's inter-node binary tree, worked by hand from NCCL 2.27.3 {@code src/graph/trees.cc
 * ncclGetBtree} (rank r &gt; 0, lowest set bit b: parent (r ^ b) | (b &lt;&lt; 1), or r ^ b when that is out of
 * range), not from collsim's code.
 */
class TreeDepthTest {

    /**
     * 2 nodes: 1 -&gt; 0, depth 1. 3 nodes: 1 -&gt; (0 | 2) = 2, 2 -&gt; (0 | 4) = 4 out of range so 0: the chain
     * 0 &lt;- 2 &lt;- 1, depth 2 (NCCL's latency formula counts floor log2 3 = 1). 4 nodes: 1 -&gt; 2, 3 -&gt; 2, 2 -&gt;
     * 0, depth 2. 5 nodes: 4 -&gt; 8 out of range so 0: 1 -&gt; 2 -&gt; 4 -&gt; 0, depth 3. 14 nodes: the trees.cc
     * illustration, 0 - 8 - 4 - 2 - 1, depth 4. One node: no tree.
     */
    @Test
    void depthOfNcclsBinaryTreeByHand() {
        assertEquals(0, NetHops.treeDepth(1));
        assertEquals(1, NetHops.treeDepth(2));
        assertEquals(2, NetHops.treeDepth(3));
        assertEquals(2, NetHops.treeDepth(4));
        assertEquals(3, NetHops.treeDepth(5));
        assertEquals(4, NetHops.treeDepth(14));
    }
}
