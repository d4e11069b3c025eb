package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import org.junit.jupiter.api.Test;

/**
 * Network links on the critical path of a Ring AllGather/ReduceScatter/AllReduce between nodes, worked from NCCL
 * 2.28.9 {@code src/device/all_gather.h runRing} (a chunk is sent at step 0, received and sent on for nRanks - 2
 * steps, received at the last: nRanks - 1 consecutive links of the ring, all but the one into its origin) and NCCL
 * 2.28.9 / 2.30.7 {@code src/device/all_reduce.h runRing} (chunk c is first sent by rank c + 1 at step 0, reduced
 * along the ring to rank c, which finishes it and sends it on, copied along to rank c - 1, which receives it last:
 * 2 (nRanks - 1) consecutive links from the one out of rank c + 1), with the ring entering and leaving each node once
 * (ranks r of node r / ppn consecutive).
 */
class RingCrossingsTest {

    /**
     * By hand. 2 nodes x 4 ranks, ring 0-1-2-3 | 4-5-6-7, network links 3-4 and 7-0: the chunk of rank 1 goes
     * 1-2-3-4-5-6-7-0 and crosses both (2 hops; NCCL's latency formula counts nNodes - 1 = 1); only the chunks of
     * ranks 0 and 4 skip a network link. 4 nodes x 1 rank: every link is a network link, a chunk crosses 3 of the 4
     * (NCCL's nNodes - 1). 4 nodes x 2 ranks: the chunk of rank 1 skips link 0-1 (intra-node) and crosses all 4.
     * Broadcast, Reduce: NCCL's count, nNodes - 1.
     */
    @Test
    void crossingsByHand() {
        assertEquals(2, NetHops.ringCrossings(Collective.ALL_GATHER, 2, 8));
        assertEquals(2, NetHops.ringCrossings(Collective.REDUCE_SCATTER, 2, 16));
        assertEquals(3, NetHops.ringCrossings(Collective.ALL_GATHER, 4, 4));
        assertEquals(4, NetHops.ringCrossings(Collective.ALL_GATHER, 4, 8));
        assertEquals(1, NetHops.ringCrossings(Collective.BROADCAST, 2, 8));
    }

    /**
     * AllReduce by hand. 2 nodes x 1 rank, ring 0-1, both links network: chunk 0 goes 1-0 (reduce) then 0-1
     * (broadcast): 2 hops, NCCL's 2 (nNodes - 1). 2 nodes x 2 ranks, ring 0-1 | 2-3, network links 1-2 and 3-0: chunk
     * 0 goes 1-2-3-0 (crosses 1-2, 3-0) then 0-1-2-3 (crosses 1-2): 3; chunk 1 goes 2-3-0-1 (3-0) then 1-2-3-0 (1-2,
     * 3-0): 3; every chunk 3 = 2 nNodes - 1 (NCCL counts 2). 2 nodes x 4 ranks, ring 0-1-2-3 | 4-5-6-7, network 3-4
     * and 7-0: chunk 1 goes 2-3-4-5-6-7-0-1 (3-4, 7-0) then 1-2-3-4-5-6-7-0 (3-4, 7-0): 4 = 2 nNodes (NCCL counts 2).
     * 4 nodes x 1 rank: 2 x 3 = 6. 3 nodes x 2 ranks: 2 x 3 - 1 = 5 (rank 1 of ring 0-1 | 2-3 | 4-5: chunk 1 goes
     * 2-3-4-5-0-1 (3-4, 5-0) then 1-2-3-4-5-0 (1-2, 3-4, 5-0)). 3 nodes x 3 ranks: 6 (the middle rank's chunk crosses
     * the 3 network links twice).
     */
    @Test
    void allReduceCrossingsByHand() {
        assertEquals(2, NetHops.ringCrossings(Collective.ALL_REDUCE, 2, 2));
        assertEquals(3, NetHops.ringCrossings(Collective.ALL_REDUCE, 2, 4));
        assertEquals(4, NetHops.ringCrossings(Collective.ALL_REDUCE, 2, 8));
        assertEquals(6, NetHops.ringCrossings(Collective.ALL_REDUCE, 4, 4));
        assertEquals(5, NetHops.ringCrossings(Collective.ALL_REDUCE, 3, 6));
        assertEquals(6, NetHops.ringCrossings(Collective.ALL_REDUCE, 3, 9));
    }

    /**
     * Walks every chunk of the ring (AllGather: origin o crosses links o, o+1, ..., o+nRanks-2; AllReduce: chunk c
     * crosses the 2 (nRanks - 1) links from c+1 on; link i joins rank i to i+1 mod nRanks, a network link when i and
     * i+1 sit on different nodes) and takes the most network links any chunk crosses: the same count for every shape
     * of 2-8 nodes and 1-8 ranks per node.
     */
    @Test
    void crossingsMatchAWalkOfEveryChunk() {
        for (int nodes = 2; nodes <= 8; nodes++) {
            for (int ppn = 1; ppn <= 8; ppn++) {
                int n = nodes * ppn;
                assertEquals(mostCrossed(nodes, ppn, 0, n - 1), NetHops.ringCrossings(Collective.ALL_GATHER, nodes, n),
                        "AllGather " + nodes + "x" + ppn);
                assertEquals(mostCrossed(nodes, ppn, 1, 2 * (n - 1)),
                        NetHops.ringCrossings(Collective.ALL_REDUCE, nodes, n), "AllReduce " + nodes + "x" + ppn);
            }
        }
    }

    /** @return the most network links any chunk c crosses on the hops consecutive links from link c + shift */
    private static int mostCrossed(int nodes, int ppn, int shift, int hops) {
        int n = nodes * ppn;
        int most = 0;
        for (int chunk = 0; chunk < n; chunk++) {
            int crossed = 0;
            for (int k = 0; k < hops; k++) {
                int from = (chunk + shift + k) % n;
                int to = (from + 1) % n;
                crossed += from / ppn != to / ppn ? 1 : 0;
            }
            most = Math.max(most, crossed);
        }
        return most;
    }
}
