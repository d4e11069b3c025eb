package dev.collsim.simulator.schedule;

/** Direct AllToAll: each rank sends S/n to each of the n-1 others, (n-1)/n S per rank, (n-1) S in all. */
class DirectAllToAllScheduleContractTest extends ScheduleAlgorithmContract {

    @Override
    ScheduleAlgorithm algorithm() {
        return new DirectAllToAllSchedule();
    }

    @Override
    double expectedTotalBytes(ScheduleRequest r) {
        return (r.nRanks() - 1.0) * r.sizeBytes();
    }
}
