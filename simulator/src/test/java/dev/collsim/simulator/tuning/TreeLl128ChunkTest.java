package dev.collsim.simulator.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * NCCL's Tree/LL128 chunk, worked by hand from v2.30.7-1 {@code src/enqueue.cc calcCollChunking} (lines 2225-2227:
 * the LL128 step 4,915,200 / 8 = 614,400 bytes of lines, 614,400 / 16 x 15 = 576,000 bytes of data; lines
 * 2286-2294: the two halving loops; line 2321: aligned down to {@code ncclProtoGrainSize(LL128)} = 32 x 8 / 16 x 15
 * x 8 = 1920 bytes).
 */
class TreeLl128ChunkTest {

    private static final long STEP = 576_000;

    /**
     * 2 nodes x 8 ranks, 16 channels: ppn 8, nsteps 1 + 1 + 0.8 = 2.8, bounds 2.8 x 64 / 8 = 22.4 and 2.8 x 16 / 8
     * = 5.6. 8 MiB: 8388608 / (16 x 576000) = 0 -&gt; 288000 (1) -&gt; 144000 (3) -&gt; 72000 (the first loop stops:
     * 72000 &lt;= 131072); 8388608 / (16 x 72000) = 7 &gt;= 5.6: 72000, aligned 37 x 1920 = 71040. 1 MiB: -&gt; 72000
     * (0 &lt; 5.6) -&gt; 36000 (1) -&gt; 18000 (stops at &lt;= 32768), aligned 9 x 1920 = 17280. 128 MiB: 14 &lt; 22.4 -&gt;
     * 288000 (29): 288000 = 150 x 1920. 1 GiB: 116: 576000.
     */
    @Test
    void twoNodesOfEight() {
        assertEquals(71_040, TreeChunk.ll128(STEP, 8L << 20, 16, 16, 2));
        assertEquals(17_280, TreeChunk.ll128(STEP, 1L << 20, 16, 16, 2));
        assertEquals(288_000, TreeChunk.ll128(STEP, 128L << 20, 16, 16, 2));
        assertEquals(576_000, TreeChunk.ll128(STEP, 1L << 30, 16, 16, 2));
    }

    /**
     * 4 nodes x 8 ranks, 16 channels: nsteps 1 + 2 + 0.8 = 3.8, bounds 30.4 and 7.6. 64 MiB: 67108864 / (16 x
     * 576000) = 7 -&gt; 288000 (14) -&gt; 144000 (29 &lt; 30.4) -&gt; 72000; 67108864 / (16 x 72000) = 58 &gt;= 7.6:
     * 72000, aligned 71040 (on 2 nodes the first loop stops at 144000: 29 &gt;= 22.4).
     */
    @Test
    void moreNodesHalveFurther() {
        assertEquals(71_040, TreeChunk.ll128(STEP, 64L << 20, 16, 32, 4));
        assertEquals(144_000, TreeChunk.ll128(STEP, 64L << 20, 16, 16, 2));
    }

    /**
     * 2 nodes x 4 ranks, 4 channels: ppn 4, nsteps 1 + 1 + 0.4 = 2.4, bounds 38.4 and 9.6. 32 MiB: 33554432 / (4 x
     * 576000) = 14 -&gt; 288000 (29) -&gt; 144000 (58 &gt;= 38.4): 144000 = 75 x 1920.
     */
    @Test
    void fewerRanksPerNodeRaiseTheBounds() {
        assertEquals(144_000, TreeChunk.ll128(STEP, 32L << 20, 4, 8, 2));
    }
}
