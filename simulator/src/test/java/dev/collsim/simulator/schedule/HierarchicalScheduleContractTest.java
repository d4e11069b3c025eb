package dev.collsim.simulator.schedule;

/**
 * Hierarchical AllReduce on H hosts of L ranks: a ring ReduceScatter and AllGather inside each host send
 * 2(L-1)/L S per rank; the AllReduce between hosts of each rank's S/L part, a ring over H ranks, sends
 * 2(H-1)/H x S/L per rank. Total n x (2(L-1)/L + 2(H-1)/(L H)) S = (2(L-1) H + 2(H-1)) S, with n = L H.
 * With L = 1 this is the ring's 2(n-1) S.
 */
class HierarchicalScheduleContractTest extends ScheduleAlgorithmContract {

    @Override
    ScheduleAlgorithm algorithm() {
        return new HierarchicalSchedule();
    }

    @Override
    double expectedTotalBytes(ScheduleRequest r) {
        int l = r.ranksPerHost();
        int h = r.hosts();
        return (2.0 * (l - 1) * h + 2.0 * (h - 1)) * r.sizeBytes();
    }
}
