package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import org.junit.jupiter.api.Test;

/**
 * Network links on the critical path of a Ring AllGather/ReduceScatter between nodes, worked from NCCL 2.28.9
 * {@code src/device/all_gather.h runRing} (a chunk is sent at step 0, received and sent on for nRanks - 2 steps,
 * received at the last: nRanks - 1 consecutive links of the ring, all but the one into its origin), with the ring
 * entering and leaving each node once (ranks r of node r / ppn consecutive).
 */
class RingCrossingsTest {

    /**
     * By hand. 2 nodes x 4 ranks, ring 0-1-2-3 | 4-5-6-7, network links 3-4 and 7-0: the chunk of rank 1 goes
     * 1-2-3-4-5-6-7-0 and crosses both (2 hops; NCCL's latency formula counts nNodes - 1 = 1); only the chunks of
     * ranks 0 and 4 skip a network link. 4 nodes x 1 rank: every link is a network link, a chunk crosses 3 of the 4
     * (NCCL's nNodes - 1). 4 nodes x 2 ranks: the chunk of rank 1 skips link 0-1 (intra-node) and crosses all 4.
     * AllReduce, Broadcast, Reduce: NCCL's counts, 2 (nNodes - 1) and nNodes - 1.
     */
    @Test
    void crossingsByHand() {
        assertEquals(2, NetHops.ringCrossings(Collective.ALL_GATHER, 2, 8));
        assertEquals(2, NetHops.ringCrossings(Collective.REDUCE_SCATTER, 2, 16));
        assertEquals(3, NetHops.ringCrossings(Collective.ALL_GATHER, 4, 4));
        assertEquals(4, NetHops.ringCrossings(Collective.ALL_GATHER, 4, 8));
        assertEquals(2, NetHops.ringCrossings(Collective.ALL_REDUCE, 2, 8));
        assertEquals(1, NetHops.ringCrossings(Collective.BROADCAST, 2, 8));
    }

    /**
     * Walks every chunk of the ring (origin o crosses links o, o+1, ..., o+nRanks-2, link i joining rank i to i+1
     * mod nRanks, a network link when i and i+1 sit on different nodes) and takes the most network links any chunk
     * crosses: the same count for every shape of 2-8 nodes and 1-8 ranks per node.
     */
    @Test
    void crossingsMatchAWalkOfEveryChunk() {
        for (int nodes = 2; nodes <= 8; nodes++) {
            for (int ppn = 1; ppn <= 8; ppn++) {
                int n = nodes * ppn;
                int most = 0;
                for (int origin = 0; origin < n; origin++) {
                    int crossed = 0;
                    for (int k = 0; k < n - 1; k++) {
                        int from = (origin + k) % n;
                        int to = (from + 1) % n;
                        crossed += from / ppn != to / ppn ? 1 : 0;
                    }
                    most = Math.max(most, crossed);
                }
                assertEquals(most, NetHops.ringCrossings(Collective.ALL_GATHER, nodes, n), nodes + "x" + ppn);
            }
        }
    }
}
