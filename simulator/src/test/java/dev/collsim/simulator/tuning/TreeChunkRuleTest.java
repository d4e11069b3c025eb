package dev.collsim.simulator.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Protocol;
import org.junit.jupiter.api.Test;

/**
 * NCCL's pre-2.20 Tree/Simple chunk, worked by hand from v2.17.1-1 {@code src/enqueue.cc} lines 1306-1308 and
 * {@code src/graph/connect.cc} line 139 ({@code depth = nRanks / nNodes - 1 + log2i(nNodes)}).
 */
class TreeChunkRuleTest {

    /** 2 x 8 ranks: 8 - 1 + log2i(2) = 8; 4 x 8: 7 + 2 = 9; 3 x 8: 7 + 1 = 8 (floor log2); one node of 8: 7. */
    @Test
    void depthIsNcclsApproximation() {
        assertEquals(8, TreeChunk.ncclDepth(16, 2));
        assertEquals(9, TreeChunk.ncclDepth(32, 4));
        assertEquals(8, TreeChunk.ncclDepth(24, 3));
        assertEquals(7, TreeChunk.ncclDepth(8, 1));
    }

    /**
     * The p4de run's shape (2 x 8 A100, NCCL 2.17.1, 8 channels, depth 8), from the 524288 B step:
     * 4 MiB: 4194304 / (8 x 524288) = 1 &lt; 64 -&gt; 262144 (2) -&gt; 131072 (4; the first loop stops at 131072);
     * 4 &lt; 32 -&gt; 65536 (8; the second stops at 65536); 8 &lt; 8 is false: 65536.
     * 1 MiB: 0 -&gt; 262144 (0) -&gt; 131072 (1); 1 &lt; 32 -&gt; 65536 (2); 2 &lt; 8 -&gt; 32768 (4); the third stops at
     * 32768: 32768. 1 GiB: 1073741824 / (8 x 524288) = 256 &gt;= 64, 32, 8: no halving, 524288.
     * 64 MiB: 16 &lt; 64 -&gt; 262144 (32) -&gt; 131072 (64, stops); 64 &gt;= 32, 8: 131072.
     */
    @Test
    void halvingFollowsTheThreeLoops() {
        assertEquals(65536, TreeChunk.bytes(524288, 4L << 20, 8, 8));
        assertEquals(32768, TreeChunk.bytes(524288, 1L << 20, 8, 8));
        assertEquals(524288, TreeChunk.bytes(524288, 1L << 30, 8, 8));
        assertEquals(131072, TreeChunk.bytes(524288, 64L << 20, 8, 8));
    }

    /**
     * The loops sit under {@code algorithm == NCCL_ALGO_TREE && protocol == NCCL_PROTO_SIMPLE} at v2.8.4-1 (line
     * 385), v2.17.1-1 and v2.19.4-1 (line 1352); v2.20.3-1 has none for Tree.
     */
    @Test
    void onlySimpleBeforeTwoTwenty() {
        assertTrue(TreeChunk.halves(8, Protocol.SIMPLE));
        assertTrue(TreeChunk.halves(17, Protocol.SIMPLE));
        assertTrue(TreeChunk.halves(19, Protocol.SIMPLE));
        assertFalse(TreeChunk.halves(20, Protocol.SIMPLE));
        assertFalse(TreeChunk.halves(23, Protocol.SIMPLE));
        assertFalse(TreeChunk.halves(17, Protocol.LL));
        assertFalse(TreeChunk.halves(17, Protocol.LL128));
    }
}
