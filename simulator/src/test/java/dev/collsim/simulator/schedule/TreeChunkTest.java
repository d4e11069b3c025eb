package dev.collsim.simulator.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The Tree schedule's chunk shrinks for small calls as NCCL's does. */
class TreeChunkTest {

    /**
     * NCCL's Tree/Simple chunk (NCCL 2.30.7 src/enqueue.cc calcCollChunking, TreeUpDown): from 512 KiB, halve while
     * nBytes / (nChannels x chunk) < 8 x depth (down to 128 KiB), < 4 x depth (down to 64 KiB), < depth (down to
     * 32 KiB). 8 MiB, 16 channels, depth 9: 8 MiB / (16 x 512 KiB) = 1 < 72 -> 256 KiB (2) -> 128 KiB (4, floor of
     * the first loop); 4 < 36 -> 64 KiB (8, floor); 8 < 9 -> 32 KiB (16). 1 GiB, 16 channels, depth 9: 1 GiB /
     * (16 x 512 KiB) = 128 >= 72, no halving.
     */
    @Test
    void treeChunkFollowsNccl() {
        assertEquals(32768, TreeSchedule.chunkBytes(8L << 20, 16, 9));
        assertEquals(512 * 1024, TreeSchedule.chunkBytes(1L << 30, 16, 9));
        // 64 MiB, 16 channels, depth 9: 8 < 72 -> 256 KiB (16) -> 128 KiB (32, floor); 32 >= 36? no -> 64 KiB (64)
        assertEquals(65536, TreeSchedule.chunkBytes(64L << 20, 16, 9));
    }
}
