package dev.collsim.simulator.network;

import dev.collsim.simulator.schedule.Step;
import java.util.ArrayList;
import java.util.List;

/**
 * The links backend ({@code collsim predict --backend links}), without sharing: each transfer takes its route's latency plus its bytes over the route's bottleneck bandwidth
 * ({@link Route#aloneRate()}), as if it were alone on the fabric; a step lasts as long as its slowest transfer, and
 * at least its busiest link's bytes over that link's capacity, so no link carries more than its capacity (the
 * transfers that one weighted flow stands for, e.g. one per channel on the same route, share their links); a
 * repeated step is charged {@code repeat} times; jobs do not see each other. Uses the same {@link Router} and the
 * same flows as {@link FlowNetwork}, so the two agree exactly (to floating-point rounding) whenever no link is
 * shared by two flows at once. This class is immutable and thread-safe.
 */
public final class LinksNetwork implements NetworkBackend {

    private final boolean timeline;
    private final int topLinks;

    /** No timeline, three busiest links. */
    public LinksNetwork() {
        this(false, 3);
    }

    /**
     * @param timeline record one {@link FlowRecord} per flow of the first copy of every step
     * @param topLinks number of busiest links to report, {@code >= 0}
     */
    public LinksNetwork(boolean timeline, int topLinks) {
        this.timeline = timeline;
        this.topLinks = topLinks;
    }

    @Override
    public String name() {
        return "links";
    }

    @Override
    public Timing time(List<Job> jobs, NetworkModel network) {
        Router router = new Router(network);
        double[] linkBytes = new double[network.linkCount()];
        List<JobTiming> out = new ArrayList<>();
        List<FlowRecord> records = new ArrayList<>();
        double makespan = 0;
        try (StepSource source = new StepSource(jobs, network, router, true)) {
            for (int j = 0; j < jobs.size(); j++) {
                makespan = Math.max(makespan, timeJob(j, jobs.get(j), source, network, linkBytes, records, out));
            }
        }
        return new Timing(name(), out, makespan, StepFlows.busiest(network, linkBytes, makespan, topLinks), records,
                0);
    }

    /** Times one job's steps (routed ahead by the step source), adding its link bytes and records. */
    private double timeJob(int j, Job job, StepSource source, NetworkModel network, double[] linkBytes,
            List<FlowRecord> records, List<JobTiming> out) {
        double now = job.startUs();
        List<Step> steps = job.schedule().steps();
        for (int s = 0; s < steps.size(); s++) {
            StepSource.Prepared p = source.get(j, s);
            Step step = p.step();
            List<SimFlow> flows = StepFlows.build(j, s, step, 0, p.routes(), now);
            double end = now;
            for (SimFlow f : flows) {
                double done = f.activateAt + f.bytes / f.route.aloneRate();
                end = Math.max(end, done);
                if (timeline) {
                    records.add(new FlowRecord(job.name(), s, 0, f.src, f.dst, f.channel, f.weight, f.bytes, now,
                            done, 1, 0));
                }
            }
            StepFlows.addLinkBytes(flows, step.repeat(), linkBytes);
            end = Math.max(end, now + step.latencyUs() + linkBound(flows, network));
            double duration = end - now;
            if (timeline) {
                for (int i = records.size() - flows.size(); i < records.size(); i++) {
                    FlowRecord r = records.get(i);
                    records.set(i, new FlowRecord(r.job(), r.step(), 0, r.src(), r.dst(), r.channel(), r.flows(),
                            r.bytes(), r.startUs(), r.endUs(), step.repeat(), step.repeat() > 1 ? duration : 0));
                }
            }
            now = end + (step.repeat() - 1) * duration;
        }
        out.add(new JobTiming(job.name(), job.startUs(), now, job.schedule().stepCount()));
        return now;
    }

    /**
     * Least time, microseconds, one copy of a step can take: the flows' bytes on their busiest link over its
     * capacity (bytes per microsecond). Flows merged by route carry {@code weight} identical transfers (e.g. one
     * per channel), which all cross that link; timing each alone at the route's full rate would serve them faster
     * than the link can.
     */
    private static double linkBound(List<SimFlow> flows, NetworkModel network) {
        double[] bytes = new double[network.linkCount()];
        StepFlows.addLinkBytes(flows, 1, bytes);
        double worst = 0;
        for (int l = 0; l < bytes.length; l++) {
            if (bytes[l] > 0) {
                worst = Math.max(worst, bytes[l] / network.capacity(l));
            }
        }
        return worst;
    }
}
