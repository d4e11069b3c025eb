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
 * @param samplingBoundUs stated error bound of step sampling on {@code makespanUs} (and on the job's end),
 *                    microseconds: 0 when every step was simulated; with step sampling, 3 estimated standard errors
 *                    (see {@link FlowNetwork#FlowNetwork(boolean, int, double, int)})
 * @param windowBoundUs stated error bound of the completion window on {@code makespanUs}, microseconds: 0 with
 *                    window 0 (exact), else w / (1 - w) x (makespan - first job's start), a tested bound
 *                    ({@link CompletionWindow})
 */
public record Timing(String backend, List<JobTiming> jobs, double makespanUs, List<LinkUsage> bottlenecks,
        List<FlowRecord> timeline, long events, double samplingBoundUs, double windowBoundUs) {

    /** Exact timing (error bounds 0). */
    public Timing(String backend, List<JobTiming> jobs, double makespanUs, List<LinkUsage> bottlenecks,
            List<FlowRecord> timeline, long events) {
        this(backend, jobs, makespanUs, bottlenecks, timeline, events, 0, 0);
    }

    /** Copies the lists. */
    public Timing {
        jobs = List.copyOf(jobs);
        bottlenecks = List.copyOf(bottlenecks);
        timeline = List.copyOf(timeline);
    }

    /**
     * @return the stated error bound of {@code makespanUs} against the exact simulation of every step,
     *         microseconds: the sampling bound plus the completion window's bound (0 when exact)
     */
    public double makespanBoundUs() {
        return samplingBoundUs + windowBoundUs;
    }
}
