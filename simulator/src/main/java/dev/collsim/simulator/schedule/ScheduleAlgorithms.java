package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import java.util.List;
import java.util.Optional;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The schedule algorithms by name, for command-line selection, and the schedule that moves an NCCL algorithm's data
 * ({@link #forNccl}); what the flow backend simulates by default is decided in {@code dev.collsim.simulator.FlowChoice}.
 */
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
     * @return {@code "schedules for C: A, B"} listing the algorithms whose {@link ScheduleAlgorithm#supports} is
     *         true for {@code c}, or {@code "no schedule here supports C"}
     */
    public static String supporting(Collective c) {
        List<String> names = ALL.stream().filter(a -> a.supports(c)).map(ScheduleAlgorithm::name).toList();
        return names.isEmpty() ? "no schedule here supports " + c.ncclName()
                : "schedules for " + c.ncclName() + ": " + String.join(", ", names);
    }

    /** @return the names, comma separated */
    public static String names() {
        return ALL.stream().map(ScheduleAlgorithm::name).collect(Collectors.joining(", "));
    }

    /**
     * The schedule that moves the data the way an NCCL algorithm does, for timing NCCL's choice on a fabric:
     * Ring as {@link RingSchedule}, Tree as {@link TreeSchedule}, PAT as {@link PatSchedule}; NVLS, NVLSTree and
     * CollNet (Direct, Chain) AllReduce as {@link HierarchicalSchedule}, the data movement they share (a reduction
     * inside each node over NVLink/NVSwitch, one exchange per NIC between nodes, the result spread inside the node;
     * NCCL 2.30 {@code src/device/all_reduce.h}); point-to-point AllToAll (no NCCL algorithm) as
     * {@link DirectAllToAllSchedule}. When that schedule does not support the collective (e.g. NVLS AllGather),
     * Ring is used if it supports the collective, else Direct.
     *
     * @param algorithm  NCCL's algorithm, or null for point-to-point collectives
     * @param collective the collective
     * @return the schedule algorithm, or empty when none here moves this collective's data (Broadcast, Reduce,
     *         SendRecv, Gather, Scatter)
     */
    public static Optional<ScheduleAlgorithm> forNccl(Algorithm algorithm, Collective collective) {
        ScheduleAlgorithm preferred = algorithm == null ? ALL.get(4) : switch (algorithm) {
            case RING -> ALL.get(0);
            case TREE -> ALL.get(1);
            case PAT -> ALL.get(3);
            case NVLS, NVLS_TREE, COLLNET_DIRECT, COLLNET_CHAIN -> ALL.get(2);
        };
        if (preferred.supports(collective)) {
            return Optional.of(preferred);
        }
        return ALL.get(0).supports(collective) ? Optional.of(ALL.get(0))
                : ALL.get(4).supports(collective) ? Optional.of(ALL.get(4)) : Optional.empty();
    }

    /**
     * @param a a schedule algorithm
     * @return the NCCL algorithm it stands for in tables (Ring, Tree, PAT), or null (Hierarchical, Direct)
     */
    public static Algorithm ncclAlgorithm(ScheduleAlgorithm a) {
        return switch (a.name()) {
            case "Ring" -> Algorithm.RING;
            case "Tree" -> Algorithm.TREE;
            case "PAT-like" -> Algorithm.PAT;
            default -> null;
        };
    }
}
