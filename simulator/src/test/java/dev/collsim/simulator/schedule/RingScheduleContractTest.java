package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;

/**
 * Ring: AllGather and ReduceScatter pass n-1 parts of S/n around the ring, so each rank sends (n-1)/n S and the
 * schedule (n-1) S; AllReduce is ReduceScatter then AllGather, 2(n-1) S (nccl-tests {@code doc/PERFORMANCE.md}:
 * the bus bandwidth factors 2(n-1)/n and (n-1)/n).
 */
class RingScheduleContractTest extends ScheduleAlgorithmContract {

    @Override
    ScheduleAlgorithm algorithm() {
        return new RingSchedule();
    }

    @Override
    double expectedTotalBytes(ScheduleRequest r) {
        return (r.collective() == Collective.ALL_REDUCE ? 2.0 : 1.0) * (r.nRanks() - 1) * r.sizeBytes();
    }
}
