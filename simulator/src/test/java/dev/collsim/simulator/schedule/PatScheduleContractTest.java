package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;

/**
 * PAT-like (Bruck): in the step of distance d every rank sends min(d, n-d) parts of S/n; over d = 1, 2, 4, ... below
 * n the counts add to n-1 (each rank's part reaches each other rank once: n = 7 gives 1 + 2 + 3, n = 12 gives
 * 1 + 2 + 4 + 4), so AllGather and ReduceScatter move (n-1) S as a ring does, AllReduce twice that.
 */
class PatScheduleContractTest extends ScheduleAlgorithmContract {

    @Override
    ScheduleAlgorithm algorithm() {
        return new PatSchedule();
    }

    @Override
    double expectedTotalBytes(ScheduleRequest r) {
        return (r.collective() == Collective.ALL_REDUCE ? 2.0 : 1.0) * (r.nRanks() - 1) * r.sizeBytes();
    }
}
