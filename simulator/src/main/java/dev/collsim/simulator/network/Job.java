package dev.collsim.simulator.network;

import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.topology.Gpu;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * One collective running on a fabric: its schedule, the GPU of each rank, and when it starts.
 *
 * @param name     job name, for tables
 * @param schedule the schedule, in rank space
 * @param ranks    GPU of each rank (rank i = ranks.get(i)); exactly {@code schedule.nRanks()} distinct GPUs
 * @param startUs  start time in microseconds, {@code >= 0}
 * @param nets     the NICs each ring channel crosses hosts by ({@link ChannelNets}), or {@link ChannelNets#NONE}
 */
public record Job(String name, Schedule schedule, List<Gpu> ranks, double startUs, ChannelNets nets) {

    /** A job whose NICs the router picks ({@link ChannelNets#NONE}). */
    public Job(String name, Schedule schedule, List<Gpu> ranks, double startUs) {
        this(name, schedule, ranks, startUs, ChannelNets.NONE);
    }

    /** @throws IllegalArgumentException when the rank count differs from the schedule's, a GPU repeats, or the
     *                                  start is negative */
    public Job {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(nets, "nets");
        ranks = List.copyOf(ranks);
        if (ranks.size() != schedule.nRanks()) {
            throw new IllegalArgumentException("job " + name + ": schedule has " + schedule.nRanks() + " ranks but "
                    + ranks.size() + " GPUs were placed");
        }
        if (new HashSet<>(ranks).size() != ranks.size()) {
            throw new IllegalArgumentException("job " + name + ": a GPU holds two ranks");
        }
        if (!(startUs >= 0) || Double.isInfinite(startUs)) {
            throw new IllegalArgumentException("job " + name + ": start must be >= 0 us, got " + startUs);
        }
    }
}
