package dev.collsim.reports.plan;

import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Strong scaling of a job: keeps the model, tp, pp, micro-batch and global batch, varies the data-parallel degree
 * over every value the global batch allows ({@code G % (b dp) == 0}, {@code ep | dp}), and plans each on a cluster
 * of just enough hosts. Answers the smallest GPU count that reaches a target throughput. With a given per-step
 * compute time, compute per GPU scales as {@code dp_0 / dp} (the same global batch spread over more replicas).
 * Instances are immutable.
 */
public final class ScalingSearch {

    private final StepPlanner planner;
    private final IntFunction<Topology> clusterWithHosts;
    private final int gpusPerHost;
    private final double peakFlops;

    /**
     * @param planner          the planner
     * @param clusterWithHosts builds the cluster with a given host count (same host type and fabric)
     * @param gpusPerHost      GPUs per host of that cluster, >= 1
     * @param peakFlops        peak FLOP/s per GPU, or NaN to look the GPU model up
     */
    public ScalingSearch(StepPlanner planner, IntFunction<Topology> clusterWithHosts, int gpusPerHost,
            double peakFlops) {
        if (gpusPerHost < 1) {
            throw new IllegalArgumentException("gpusPerHost must be >= 1, got " + gpusPerHost);
        }
        this.planner = planner;
        this.clusterWithHosts = clusterWithHosts;
        this.gpusPerHost = gpusPerHost;
        this.peakFlops = peakFlops;
    }

    /**
     * @param job    the job at its given size
     * @param maxGpus stop above this many GPUs
     * @return the plan at every allowed data-parallel degree up to {@code maxGpus}, by GPU count
     */
    public List<StepPlan> curve(TrainingJob job, int maxGpus) {
        List<StepPlan> out = new ArrayList<>();
        int maxDp = job.globalBatch() / job.microBatch();
        for (int dp = 1; dp <= maxDp; dp++) {
            if (job.globalBatch() % (job.microBatch() * dp) != 0 || dp % job.ep() != 0) {
                continue;
            }
            long gpus = (long) dp * job.tp() * job.pp() * job.cp();
            if (gpus > maxGpus) {
                break;
            }
            out.add(planAt(job, dp));
        }
        return out;
    }

    /**
     * @param job    the job
     * @param target tokens per second to reach, > 0
     * @param maxGpus largest GPU count to try
     * @return the plan with the fewest GPUs whose throughput reaches the target and whose memory fits, empty when
     *         none up to maxGpus
     */
    public Optional<StepPlan> smallestReaching(TrainingJob job, double target, int maxGpus) {
        int maxDp = job.globalBatch() / job.microBatch();
        for (int dp = 1; dp <= maxDp && (long) dp * job.tp() * job.pp() * job.cp() <= maxGpus; dp++) {
            if (job.globalBatch() % (job.microBatch() * dp) != 0 || dp % job.ep() != 0) {
                continue;
            }
            StepPlan p = planAt(job, dp);
            if (p.tokensPerS() >= target && p.memory().fits()) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private StepPlan planAt(TrainingJob job, int dp) {
        TrainingJob j = job.withDp(dp);
        int hosts = (j.nGpus() + gpusPerHost - 1) / gpusPerHost;
        return planner.plan(clusterWithHosts.apply(hosts), j, peakFlops);
    }
}
