package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;
import java.util.List;

/**
 * A collective algorithm: maps a request to a {@link Schedule} in rank space, knowing nothing about bandwidth
 * (style.md 2.5). Implementations are immutable and thread-safe.
 */
public interface ScheduleAlgorithm {

    /** @return the algorithm's name as printed in tables, e.g. {@code Ring} */
    String name();

    /**
     * @param collective a collective
     * @return true when this algorithm can build a schedule for it
     */
    boolean supports(Collective collective);

    /**
     * Builds the schedule.
     *
     * @param request collective, size and rank shape
     * @return the schedule (no steps when there is nothing to move: one rank, or zero bytes)
     * @throws IllegalArgumentException when {@link #supports} is false for the collective
     */
    Schedule schedule(ScheduleRequest request);

    /**
     * @param request the request
     * @param steps   the steps (none when {@link ScheduleRequest#movesData} is false)
     * @return this algorithm's schedule of the request: its name with the request's collective, ranks, channels and
     *         size
     */
    default Schedule scheduleOf(ScheduleRequest request, List<Step> steps) {
        return new Schedule(name(), request.collective(), request.nRanks(), request.nChannels(), request.sizeBytes(),
                steps);
    }

    /**
     * @param request the request
     * @throws IllegalArgumentException naming the algorithm, the collective and the algorithms that support it
     */
    default void checkSupported(ScheduleRequest request) {
        if (!supports(request.collective())) {
            throw new IllegalArgumentException(name() + " has no schedule for " + request.collective().ncclName()
                    + "; " + ScheduleAlgorithms.supporting(request.collective()));
        }
    }
}
