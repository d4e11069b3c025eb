package dev.collsim.simulator.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.tuning.NcclVersion;
import org.junit.jupiter.api.Test;

/** The Tree schedule's chunk follows the modelled NCCL release: halved for small calls before 2.20, not after. */
class TreeChunkTest {

    /**
     * NCCL 2.19's Tree/Simple chunk (v2.19.4-1 src/enqueue.cc computeColl, TreeUpDown): from 512 KiB, halve while
     * nBytes / (nChannels x chunk) < 8 x depth (down to 128 KiB), < 4 x depth (down to 64 KiB), < depth (down to
     * 32 KiB). 8 MiB, 16 channels, depth 9: 8 MiB / (16 x 512 KiB) = 1 < 72 -> 256 KiB (2) -> 128 KiB (4, floor of
     * the first loop); 4 < 36 -> 64 KiB (8, floor); 8 < 9 -> 32 KiB (16). 1 GiB, 16 channels, depth 9: 1 GiB /
     * (16 x 512 KiB) = 128 >= 72, no halving.
     */
    @Test
    void preTwoTwentyChunkFollowsNccl() {
        assertEquals(32768, TreeSchedule.chunkBytes(8L << 20, 16, 9));
        assertEquals(512 * 1024, TreeSchedule.chunkBytes(1L << 30, 16, 9));
        // 64 MiB, 16 channels, depth 9: 8 < 72 -> 256 KiB (16) -> 128 KiB (32, floor); 32 >= 36? no -> 64 KiB (64)
        assertEquals(65536, TreeSchedule.chunkBytes(64L << 20, 16, 9));
    }

    /**
     * The Tree halving loop is in src/enqueue.cc at v2.18.5-1, v2.19.3-1 and v2.19.4-1 and gone from v2.20.3-1
     * (computeCollChunkInfo: only CollNet Direct/Chain keep "Optimize chunkSize / nSteps") through v2.28.9-1
     * (calcCollChunking). At v2.19.4-1 it sits under {@code algorithm == NCCL_ALGO_TREE && protocol ==
     * NCCL_PROTO_SIMPLE}: LL and LL128 never halve.
     */
    @Test
    void onlySimpleBeforeTwoTwentyHalves() {
        assertTrue(TreeSchedule.halvesTreeChunk(NcclVersion.V2_18_5, Protocol.SIMPLE));
        assertTrue(TreeSchedule.halvesTreeChunk(NcclVersion.V2_19_4, Protocol.SIMPLE));
        assertFalse(TreeSchedule.halvesTreeChunk(NcclVersion.V2_19_4, Protocol.LL128));
        assertFalse(TreeSchedule.halvesTreeChunk(NcclVersion.V2_19_4, Protocol.LL));
        assertFalse(TreeSchedule.halvesTreeChunk(NcclVersion.V2_21_5, Protocol.SIMPLE));
        assertFalse(TreeSchedule.halvesTreeChunk(NcclVersion.V2_28_9, Protocol.SIMPLE));
        assertFalse(TreeSchedule.halvesTreeChunk(NcclVersion.V2_30_7, Protocol.SIMPLE));
    }

    /**
     * 1 MiB AllReduce over 2 ranks on 2 hosts, 1 channel (both trees on channel 0): tree depth 1, each tree carries
     * 512 KiB. NCCL 2.20+ (default 2.30.7): chunk 512 KiB, 1 chunk per tree, chunks + 2 x depth - 1 = 1 + 2 - 1 = 2
     * steps, each transfer 512 KiB. NCCL 2.19: 1 MiB / 512 KiB = 2 < 8 x 1 -> 256 KiB (4 < 8) -> 128 KiB (floor of
     * the first loop; 8 >= 4 and 8 >= 1 stop the others): 512 KiB / 128 KiB = 4 chunks, 4 + 2 - 1 = 5 steps of
     * 128 KiB transfers; 2.19 Tree/LL128 keeps 512 KiB (2 steps).
     */
    @Test
    void scheduleUsesTheReleasesChunk() {
        ScheduleRequest r = new ScheduleRequest(Collective.ALL_REDUCE, 1L << 20, 2, 1, 1);
        Schedule modern = new TreeSchedule().schedule(r);
        assertEquals(2, modern.stepCount());
        assertEquals(512 * 1024, modern.steps().get(0).transfers().get(0).bytes(), 1e-9);
        Schedule v230 = new TreeSchedule(NcclVersion.V2_30_7, Protocol.SIMPLE).schedule(r);
        assertEquals(2, v230.stepCount());
        Schedule v219 = new TreeSchedule(NcclVersion.V2_19_4, Protocol.SIMPLE).schedule(r);
        assertEquals(5, v219.stepCount());
        assertEquals(131072, v219.steps().get(0).transfers().get(0).bytes(), 1e-9);
        assertEquals(2, new TreeSchedule(NcclVersion.V2_19_4, Protocol.LL128).schedule(r).stepCount());
    }
}
