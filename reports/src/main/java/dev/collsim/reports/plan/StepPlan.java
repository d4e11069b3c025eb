package dev.collsim.reports.plan;

import java.util.List;

/**
 * The predicted breakdown of one optimizer step. All times in microseconds; this record is immutable.
 *
 * <p>Definitions: {@code step = compute + bubble + exposed}; {@code exposed = comm - hidden}, where
 * {@code hidden = min(overlap x overlappable comm, backward compute)} and backward is 2/3 of compute (4N of the
 * 6N FLOPs per token, Kaplan et al. 2020 section 2.1); the pipeline bubble is {@code (pp-1)/(m v)} of compute
 * (Narayanan et al. 2021 section 2.2). Scaling efficiency is {@code compute / step}: perfect scaling would spread
 * the step's FLOPs over the GPUs with no bubble and no exposed communication, so it is also
 * {@code tokensPerS / (nGpus x tokens/s of one GPU computing alone)}.
 *
 * @param job             the job
 * @param clusterName     the cluster's name
 * @param comms           per collective kind: count, bytes, time
 * @param computeUs       compute time per step per GPU
 * @param bubbleUs        pipeline bubble per step
 * @param commUs          all communication, if nothing overlapped
 * @param overlappableUs  the part frameworks can overlap with backward
 * @param hiddenUs        the part hidden behind backward compute
 * @param computeSource   how compute time was obtained (given, kernel efficiency or MFU, with the peak used)
 * @param peakFlops       peak FLOP/s per GPU used (NaN when unknown and the compute time was given)
 * @param warning         empty, or why the requested MFU cannot be reached on this cluster
 * @param memory          memory per GPU and whether it fits
 * @param idleGpus        empty, or the cluster's GPUs the job leaves idle and why ({@link GroupPlacement#idleGpus})
 */
public record StepPlan(TrainingJob job, String clusterName, List<CommTiming> comms, double computeUs,
        double bubbleUs, double commUs, double overlappableUs, double hiddenUs, String computeSource,
        double peakFlops, String warning, MemoryPlan memory, String idleGpus) {

    /** Copies the list. */
    public StepPlan {
        comms = List.copyOf(comms);
    }

    /** @return communication left on the critical path, microseconds */
    public double exposedUs() {
        return commUs - hiddenUs;
    }

    /** @return step time, microseconds */
    public double stepUs() {
        return computeUs + bubbleUs + exposedUs();
    }

    /** @return tokens per second: G s / step */
    public double tokensPerS() {
        return job.tokensPerStep() / (stepUs() * 1e-6);
    }

    /**
     * @return end-to-end model FLOPs utilisation (PaLM, Chowdhery et al. 2022, Appendix B): model FLOPs per step /
     *         (GPUs x peak x step time); NaN when the peak is unknown
     */
    public double endToEndMfu() {
        return ModelFlops.modelPerStep(job) / (job.nGpus() * peakFlops * stepUs() * 1e-6);
    }

    /**
     * @return compute-only (kernel) efficiency: hardware FLOPs per step (recomputation included) / (GPUs x peak x
     *         compute time); NaN when the peak is unknown
     */
    public double kernelEfficiency() {
        return ModelFlops.hardwarePerStep(job) / (job.nGpus() * peakFlops * computeUs * 1e-6);
    }

    /**
     * @return overlappable communication the compute windows could still take before they fill, microseconds
     *         ({@link StepCompute#headroomUs}): how far a slower fabric can stretch the gradient reduction and
     *         parameter gather before the step grows at overlap 1
     */
    public double overlapHeadroomUs() {
        return StepCompute.headroomUs(job.overlap(), computeUs, StepCompute.behind(job, comms));
    }

    /** @return scaling efficiency in (0, 1]: compute / step */
    public double efficiency() {
        return computeUs / stepUs();
    }
}
