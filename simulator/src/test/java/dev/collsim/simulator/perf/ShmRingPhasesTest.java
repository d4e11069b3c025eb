package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import org.junit.jupiter.api.Test;

/**
 * The LL128 Ring's phase limit over SHM, values worked out by hand from NCCL 2.29.2's runRing (one send-only
 * primitive, R - 1 receive-and-send ones, a receive-only one per chunk) and prims_ll128.h (one store, two loads per
 * line).
 */
class ShmRingPhasesTest {

    /** AllReduce receives 2 (n - 1) chunks per loop, AllGather and ReduceScatter n - 1, a rooted ring none here. */
    @Test
    void receivesPerLoop() {
        assertEquals(2, ShmRingPhases.receivesPerLoop(Collective.ALL_REDUCE, 2));
        assertEquals(6, ShmRingPhases.receivesPerLoop(Collective.ALL_REDUCE, 4));
        assertEquals(3, ShmRingPhases.receivesPerLoop(Collective.ALL_GATHER, 4));
        assertEquals(7, ShmRingPhases.receivesPerLoop(Collective.REDUCE_SCATTER, 8));
        assertEquals(0, ShmRingPhases.receivesPerLoop(Collective.BROADCAST, 4));
    }

    /**
     * Line passes per loop: send 1, each middle step 2, the last 2. 2 ranks: 1 + 2 + 2 = 5 for 2 chunks (0.4);
     * 4 ranks: 1 + 5 x 2 + 2 = 13 for 6 (0.4615).
     */
    @Test
    void phaseShare() {
        assertEquals(0.4, ShmRingPhases.ll128PhaseShare(2), 1e-12);
        assertEquals(6.0 / 13, ShmRingPhases.ll128PhaseShare(6), 1e-12);
        assertEquals(1.0 / 3, ShmRingPhases.ll128PhaseShare(1), 1e-12);
    }

    /**
     * The factor on collsim's LL128 link rate (24 x 0.92 x 0.96 = 21.197 GB/s on Gen4): 0.98 x 120/128 / (0.92 x
     * 0.96) = 0.918750 / 0.883200 = 1.040251 times the lower limit. 2 ranks, Gen4: 1.040251 x min(0.4, 0.444) =
     * 0.41610, 8.820 GB/s; 4 ranks: 1.040251 x 0.444 = 0.46187, 9.790 GB/s; a Broadcast keeps the share alone, 0.444.
     */
    @Test
    void factorOnTheLinkRate() {
        assertEquals(1.040251, ShmRingPhases.LINE_RATE_OVER_LL128_RATE, 1e-6);
        assertEquals(0.41610, ShmRingPhases.ll128RingFactor(Collective.ALL_REDUCE, 2, 0.666), 1e-5);
        assertEquals(8.820, 24 * 0.92 * 0.96 * ShmRingPhases.ll128RingFactor(Collective.ALL_REDUCE, 2, 0.666), 1e-3);
        assertEquals(0.46187, ShmRingPhases.ll128RingFactor(Collective.ALL_REDUCE, 4, 0.666), 1e-5);
        assertEquals(9.790, 24 * 0.92 * 0.96 * ShmRingPhases.ll128RingFactor(Collective.ALL_REDUCE, 4, 0.666), 1e-3);
        assertEquals(0.444, ShmRingPhases.ll128RingFactor(Collective.BROADCAST, 4, 0.666), 1e-12);
    }
}
