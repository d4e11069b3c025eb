package dev.collsim.simulator.network;

import java.util.List;

/**
 * Times schedules on a physical fabric (style.md 2.5). Implementations do not know which collective they carry.
 */
public interface NetworkBackend {

    /** @return {@code links} (the {@code --backend links} of {@code collsim predict}) or {@code flow} */
    String name();

    /**
     * Times jobs that share one fabric.
     *
     * @param jobs    the jobs (each with its own start time)
     * @param network the indexed fabric with its failures and routing options
     * @return per-job times, busiest links and (if asked) the timeline
     * @throws IllegalArgumentException when a job's GPU is not in the fabric, a transfer names a rank outside the
     *                                  job, or no working path joins two ranks (the message names them)
     */
    Timing time(List<Job> jobs, NetworkModel network);
}
