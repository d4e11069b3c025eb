package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The schedule algorithms by name, for command-line selection. */
public final class ScheduleAlgorithms {

    private static final List<ScheduleAlgorithm> ALL = List.of(new RingSchedule(), new TreeSchedule(),
            new HierarchicalSchedule(), new PatSchedule(), new DirectAllToAllSchedule());

    private ScheduleAlgorithms() {
    }

    /** @return every algorithm */
    public static List<ScheduleAlgorithm> all() {
        return ALL;
    }

    /**
     * @param name algorithm name, case-insensitive ({@code ring}, {@code tree}, {@code hierarchical},
     *             {@code pat}/{@code pat-like}, {@code direct})
     * @return the algorithm
     * @throws IllegalArgumentException naming the allowed values
     */
    public static ScheduleAlgorithm byName(String name) {
        String k = name.toLowerCase(Locale.ROOT);
        if (k.equals("pat")) {
            k = "pat-like";
        }
        for (ScheduleAlgorithm a : ALL) {
            if (a.name().toLowerCase(Locale.ROOT).equals(k)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown algorithm '" + name + "'; allowed: " + names());
    }

    /**
     * @param c a collective
     * @return the default algorithm for it: Direct for AllToAll, Ring for the others it supports
     * @throws IllegalArgumentException when no algorithm here supports the collective
     */
    public static ScheduleAlgorithm defaultFor(Collective c) {
        for (ScheduleAlgorithm a : List.of(ALL.get(0), ALL.get(4))) {
            if (a.supports(c)) {
                return a;
            }
        }
        throw new IllegalArgumentException("no schedule for " + c.ncclName() + "; supported: AllReduce, AllGather,"
                + " ReduceScatter, AllToAll");
    }

    /** @return the names, comma separated */
    public static String names() {
        return ALL.stream().map(ScheduleAlgorithm::name).collect(Collectors.joining(", "));
    }
}
