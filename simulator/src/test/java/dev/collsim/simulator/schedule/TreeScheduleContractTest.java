package dev.collsim.simulator.schedule;

/**
 * Double binary tree AllReduce: each of the two trees spans the n ranks with n-1 edges and carries half the buffer,
 * once up (reduce) and once down (broadcast) every edge: 2 trees x (n-1) edges x 2 directions x S/2 = 2(n-1) S.
 * Leaves move less than interior ranks, so ranks are not symmetric.
 */
class TreeScheduleContractTest extends ScheduleAlgorithmContract {

    @Override
    ScheduleAlgorithm algorithm() {
        return new TreeSchedule();
    }

    @Override
    double expectedTotalBytes(ScheduleRequest r) {
        return 2.0 * (r.nRanks() - 1) * r.sizeBytes();
    }

    @Override
    boolean symmetricRanks() {
        return false;
    }
}
