package dev.collsim.reports.plan;

import dev.collsim.topology.Topology;
import dev.collsim.topology.edit.ClusterEditException;
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
            if (!allowed(job, dp)) {
                continue;
            }
            long gpus = (long) dp * job.tp() * job.pp() * job.cp();
            if (gpus > maxGpus) {
                break;
            }
            buildable(job, dp).ifPresent(out::add);
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
            if (!allowed(job, dp)) {
                continue;
            }
            Optional<StepPlan> p = buildable(job, dp);
            if (p.isPresent() && p.get().tokensPerS() >= target && p.get().memory().fits()) {
                return p;
            }
        }
        return Optional.empty();
    }

    /**
     * The job on a cluster of another size, as a what-if variant that changes the host count runs it: the
     * data-parallel degree follows the GPU count, {@code dp x gpus / baseGpus} rounded down to the nearest degree the
     * job allows ({@code G % (b dp) == 0}, {@code ep | dp}); tp, pp, cp, micro-batch and global batch stay. Example:
     * tp8 pp2 dp2 planned for 32 GPUs runs at dp16 on 256 GPUs (G 128, b 1: 128 % 16 = 0).
     *
     * @param job      the job as planned for the base cluster
     * @param baseGpus the base cluster's GPUs, >= 1
     * @param gpus     the other cluster's GPUs, >= 1
     * @return the job at that degree, or empty when no allowed degree of at least 1 is left
     */
    public static Optional<TrainingJob> scaledTo(TrainingJob job, int baseGpus, int gpus) {
        long target = (long) job.dp() * gpus / baseGpus;
        for (long dp = Math.min(target, job.globalBatch() / job.microBatch()); dp >= 1; dp--) {
            if (allowed(job, (int) dp)) {
                return Optional.of(dp == job.dp() ? job : job.withDp((int) dp));
            }
        }
        return Optional.empty();
    }

    /**
     * The largest data-parallel degree the searches ({@link #curve}, {@link #smallestReaching}) may try: at most
     * {@code G / b}, allowed ({@code G % (b dp) == 0}, {@code ep | dp}) and within {@code maxGpus}. Example: G 4,
     * b 1, tp 8 under 4096 GPUs gives 4 (32 GPUs), whatever the GPU limit.
     *
     * @param job     the job
     * @param maxGpus largest GPU count to try
     * @return that degree, or 0 when none is allowed
     */
    public static int largestDp(TrainingJob job, int maxGpus) {
        long replica = (long) job.tp() * job.pp() * job.cp();
        for (long dp = Math.min(job.globalBatch() / job.microBatch(), maxGpus / replica); dp >= 1; dp--) {
            if (allowed(job, (int) dp)) {
                return (int) dp;
            }
        }
        return 0;
    }

    /** @return whether the job may run at data-parallel degree dp: {@code G % (b dp) == 0} and {@code ep | dp} */
    private static boolean allowed(TrainingJob job, int dp) {
        return job.globalBatch() % (job.microBatch() * dp) == 0 && dp % job.ep() == 0;
    }

    /**
     * @return the plan at {@code dp}, empty when the cluster cannot be built at that size (trays that NVLink domains
     *         of several trays do not hold evenly, {@code --trays-per-domain}: that size is skipped)
     */
    private Optional<StepPlan> buildable(TrainingJob job, int dp) {
        try {
            return Optional.of(planAt(job, dp));
        } catch (ClusterEditException e) {
            return Optional.empty();
        }
    }

    private StepPlan planAt(TrainingJob job, int dp) {
        TrainingJob j = job.withDp(dp);
        int hosts = (j.nGpus() + gpusPerHost - 1) / gpusPerHost;
        return planner.plan(clusterWithHosts.apply(hosts), j, peakFlops);
    }
}
