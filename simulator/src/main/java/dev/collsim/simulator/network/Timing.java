package dev.collsim.simulator.network;

import java.util.List;

/**
 * The result of timing one or more jobs on a fabric.
 *
 * @param backend     backend name ({@code analytical} or {@code flow})
 * @param jobs        per-job times, in input order
 * @param makespanUs  end of the last job, microseconds
 * @param bottlenecks the busiest links, most utilized first (at most a few)
 * @param timeline    per-flow records when asked for, else empty
 * @param events      rate recomputations the flow backend made (0 for analytical), a cost measure
 * @param makespanBoundUs stated error bound of {@code makespanUs} (and of the job's end), microseconds: 0 when
 *                    every step was simulated; with step sampling, 3 estimated standard errors (see
 *                    {@link FlowNetwork#FlowNetwork(boolean, int, double, int)})
 */
public record Timing(String backend, List<JobTiming> jobs, double makespanUs, List<LinkUsage> bottlenecks,
        List<FlowRecord> timeline, long events, double makespanBoundUs) {

    /** Exact timing (error bound 0). */
    public Timing(String backend, List<JobTiming> jobs, double makespanUs, List<LinkUsage> bottlenecks,
            List<FlowRecord> timeline, long events) {
        this(backend, jobs, makespanUs, bottlenecks, timeline, events, 0);
    }

    /** Copies the lists. */
    public Timing {
        jobs = List.copyOf(jobs);
        bottlenecks = List.copyOf(bottlenecks);
        timeline = List.copyOf(timeline);
    }
}
