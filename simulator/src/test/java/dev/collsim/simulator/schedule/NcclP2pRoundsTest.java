package dev.collsim.simulator.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Direct AllToAll in NCCL's p2p rounds (NCCL 2.30.7 {@code src/init.cc ncclP2pSchedule}): groups of G local ranks
 * (G = 8 on several nodes), group deltas in the quadratic order (x^2 + x) / 2 mod pow2Up(groups), round k x G + d
 * sending local rank l of group g to local (l + d) mod G of group g + delta_k.
 */
class NcclP2pRoundsTest {

    /**
     * By hand from ncclP2pSchedule: 4 groups, pow2Up = 4: deltas 0, then (0 + 1) = 1, (1 + 2) = 3, (3 + 3) mod 4 = 2;
     * 3 groups, pow2Up = 4: 0, 1, 3 (filtered out), 2; 16 ranks of one group each: NCCL's own example sequence
     * (comment in ncclP2pSchedule) 0, 1, 3, 6, 10, 15, 5, 12, 4, 13, 7, 2, 14, 11, 9, 8. Group size: 8 on several
     * nodes of 8; 4 per node gives 4; 6 per node gcd(8, 6) = 2; one node of 8: the node's 8.
     */
    @Test
    void groupDeltasAndSizesFollowNccl() {
        assertArrayEquals(new int[] {0, 1, 3, 2}, DirectAllToAllSchedule.groupDeltas(4));
        assertArrayEquals(new int[] {0, 1, 2}, DirectAllToAllSchedule.groupDeltas(3));
        assertArrayEquals(new int[] {0, 1, 3, 6, 10, 15, 5, 12, 4, 13, 7, 2, 14, 11, 9, 8},
                DirectAllToAllSchedule.groupDeltas(16));
        assertEquals(8, DirectAllToAllSchedule.groupSize(32, 8));
        assertEquals(4, DirectAllToAllSchedule.groupSize(32, 4));
        assertEquals(2, DirectAllToAllSchedule.groupSize(24, 6));
        assertEquals(8, DirectAllToAllSchedule.groupSize(8, 8));
        assertEquals(1, DirectAllToAllSchedule.groupSize(16, 1));
    }

    /**
     * 4 hosts x 8 ranks: step 0 (rounds 0-7, group delta 0) is the send to self (no transfer) and the 7 peers of the
     * rank's own host; steps 1, 2, 3 (deltas 1, 3, 2) send every rank to all 8 ranks of host h + 1, h + 3, h + 2, so
     * each step is 8 transfers into every rank of that host: with PXN onto the receiver's rail, 8 per NIC.
     */
    @Test
    void eachStepAfterTheFirstIsOneRemoteHost() {
        Schedule s = new DirectAllToAllSchedule().schedule(new ScheduleRequest(Collective.ALL_TO_ALL, 32L << 20, 32, 8,
                8));
        assertEquals(4, s.steps().size());
        int[] hostDelta = {0, 1, 3, 2};
        for (int k = 0; k < 4; k++) {
            List<Transfer> ts = s.steps().get(k).transfers();
            assertEquals(k == 0 ? 32 * 7 : 32 * 8, ts.size(), "step " + k);
            for (int i = 0; i < 32; i++) {
                int rank = i;
                Set<Integer> peers = new HashSet<>();
                ts.stream().filter(t -> t.src() == rank).forEach(t -> peers.add(t.dst()));
                int host = (rank / 8 + hostDelta[k]) % 4;
                for (int j = 0; j < 8; j++) {
                    int peer = host * 8 + j;
                    assertEquals(peer != rank, peers.contains(peer), "step " + k + " rank " + rank + " peer " + peer);
                }
            }
            for (Transfer t : ts) {
                assertEquals(1L << 20, t.bytes(), 0);
            }
        }
    }
}
