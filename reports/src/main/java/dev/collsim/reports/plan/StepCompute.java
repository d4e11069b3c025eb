package dev.collsim.reports.plan;

import java.util.List;
import java.util.Locale;

/**
 * Compute time, pipeline bubble and hidden communication of one step, from the job's {@link ComputeRate} and the
 * communication already timed. Definitions (all times per step, microseconds):
 * {@code step = compute + bubble + comm - hidden}, {@code bubble = (pp-1)/(m v) x compute} (Narayanan et al. 2021
 * section 2.2), {@code hidden = min(overlap x behind-backward, 2/3 x compute) + min(overlap x behind-forward, 1/3 x
 * compute)}: as Megatron-LM schedules them ({@code --overlap-grad-reduce}, {@code --overlap-param-gather}), gradient
 * reductions run behind backward (2/3 of compute: 4 of the 6 FLOPs per weight per token, Kaplan et al. 2020
 * section 2.1) and parameter gathers behind the next forward (1/3).
 *
 * <p>With an end-to-end MFU the step is fixed first, {@code model FLOPs / (GPUs x peak x MFU)} (PaLM, Chowdhery et
 * al. 2022, Appendix B), and the compute time is what is left once bubble and exposed communication are taken out:
 * the equation above solved for compute (non-decreasing in compute; solved by bisection). When that leaves a
 * compute time shorter than the hardware FLOPs need at peak, the MFU cannot be reached on this cluster: compute is
 * then set to the peak's time, the step is built bottom-up and the result says so.
 *
 * @param computeUs compute time per step per GPU
 * @param bubbleUs  pipeline bubble
 * @param hiddenUs  communication hidden behind backward
 * @param source    how the compute time was obtained, in words
 * @param warning   empty, or why the requested MFU is not reachable, or that a given compute time beats the peak
 */
public record StepCompute(double computeUs, double bubbleUs, double hiddenUs, String source, String warning) {

    /**
     * @param job            the job
     * @param peakFlops      peak FLOP/s per GPU (NaN: unknown, allowed only with a given compute time)
     * @param commUs         all communication per step
     * @param backwardUs     communication that runs behind backward (gradient reductions)
     * @param forwardUs      communication that runs behind forward (parameter gathers)
     * @return the compute figures
     */
    public static StepCompute of(TrainingJob job, double peakFlops, double commUs, double backwardUs,
            double forwardUs) {
        ComputeRate rate = job.compute();
        double beta = (job.pp() - 1.0) / ((double) job.microBatches() * job.virtualStages());
        double[] canHide = {job.overlap() * backwardUs, job.overlap() * forwardUs};
        double n = job.nGpus();
        double hw = ModelFlops.hardwarePerStep(job);
        double peakUs = hw / (n * peakFlops) * 1e6;
        return switch (rate.kind()) {
            case STEP_COMPUTE_MS -> at(rate.value() * 1000.0, beta, canHide,
                    String.format(Locale.ROOT, "given: %.4g ms per step", rate.value()),
                    rate.value() * 1000.0 < peakUs ? String.format(Locale.ROOT, "the given compute time %.4g ms is"
                    + " shorter than the %.4g ms the step's FLOPs need at the GPU's peak (kernel efficiency %.2f > 1)",
                    rate.value(), peakUs / 1e3, peakUs / (rate.value() * 1000.0)) : "");
            case KERNEL_EFFICIENCY -> at(peakUs / rate.value(), beta, canHide, String.format(Locale.ROOT,
                    "%.3g hardware FLOPs per step / (%d GPUs x %.4g TFLOP/s x kernel efficiency %.2f)", hw,
                    job.nGpus(), peakFlops / 1e12, rate.value()), "");
            case MFU -> fromMfu(job, peakFlops, commUs, beta, canHide, peakUs);
        };
    }

    private static StepCompute fromMfu(TrainingJob job, double peakFlops, double commUs, double beta,
            double[] canHide, double peakUs) {
        double mfu = job.compute().value();
        double model = ModelFlops.modelPerStep(job);
        double stepUs = model / (job.nGpus() * peakFlops * mfu) * 1e6;
        double c = solve(stepUs, commUs, beta, canHide);
        String source = String.format(Locale.ROOT, "step = %.3g model FLOPs / (%d GPUs x %.4g TFLOP/s x MFU %.2f)"
                + " = %.2f ms; compute is what bubble and exposed communication leave", model, job.nGpus(),
                peakFlops / 1e12, mfu, stepUs / 1e3);
        if (!(c >= peakUs)) {
            StepCompute atPeak = at(peakUs, beta, canHide, source, "");
            double reached = stepUs * mfu / (atPeak.computeUs * (1 + beta) + commUs - atPeak.hiddenUs);
            return new StepCompute(atPeak.computeUs, atPeak.bubbleUs, atPeak.hiddenUs, String.format(Locale.ROOT,
                    "kernels at peak: %.3g hardware FLOPs / (%d GPUs x %.4g TFLOP/s)", ModelFlops.hardwarePerStep(job),
                    job.nGpus(), peakFlops / 1e12), String.format(Locale.ROOT, "MFU %.2f is not reachable on this"
                    + " cluster: the step would be %.2f ms, but bubble and exposed communication alone leave too"
                    + " little time for the FLOPs even at peak; at peak the end-to-end MFU is %.3f", mfu,
                    stepUs / 1e3, reached));
        }
        return at(c, beta, canHide, source, "");
    }

    /** @return the compute time c with c (1 + beta) + comm - hidden(c) = step; NaN when comm alone reaches it */
    private static double solve(double stepUs, double commUs, double beta, double[] canHide) {
        if (commUs >= stepUs) {
            return Double.NaN;
        }
        double lo = 0;
        double hi = stepUs;
        for (int i = 0; i < 200 && hi - lo > 1e-12 * stepUs; i++) {
            double mid = (lo + hi) / 2;
            if (mid * (1 + beta) + commUs - hidden(mid, canHide) >= stepUs) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * The overlappable communication of a step split by the compute it hides behind: gradient reductions behind
     * backward; parameter gathers behind the next forward (ZeRO-3 gathers half its calls in forward, half in
     * backward; stages 1-2 gather once, before the next forward).
     *
     * @param job     the job
     * @param timings the step's collectives, timed
     * @return {behind backward, behind forward}, microseconds per step
     */
    public static double[] behind(TrainingJob job, List<CommTiming> timings) {
        double[] b = new double[2];
        for (CommTiming t : timings) {
            if (t.op().kind().overlappable()) {
                boolean gather = t.op().kind() == CommKind.DP_ALLGATHER || t.op().kind() == CommKind.EDP_ALLGATHER;
                double forward = gather ? (job.zero() >= 3 ? t.totalUs() / 2 : t.totalUs()) : 0;
                b[1] += forward;
                b[0] += t.totalUs() - forward;
            }
        }
        return b;
    }

    /**
     * How much more overlappable communication the compute windows could take before they fill: for each window
     * (2/3 of compute behind backward, 1/3 behind forward) the room left, {@code window - overlap x behind}, over the
     * overlap; beyond it every further microsecond of that communication adds a microsecond to the step (below it,
     * {@code 1 - overlap} of it does).
     *
     * @param overlap   the job's overlap in [0, 1]
     * @param computeUs compute per step
     * @param behind    {behind backward, behind forward} ({@link #behind}), microseconds
     * @return microseconds of communication, summed over both windows; 0 at overlap 0 (nothing hides)
     */
    public static double headroomUs(double overlap, double computeUs, double[] behind) {
        if (!(overlap > 0)) {
            return 0;
        }
        return Math.max(0, computeUs * 2.0 / 3.0 - overlap * behind[0]) / overlap
                + Math.max(0, computeUs / 3.0 - overlap * behind[1]) / overlap;
    }

    private static double hidden(double computeUs, double[] canHide) {
        return Math.min(canHide[0], computeUs * 2.0 / 3.0) + Math.min(canHide[1], computeUs / 3.0);
    }

    private static StepCompute at(double computeUs, double beta, double[] canHide, String source, String warning) {
        return new StepCompute(computeUs, beta * computeUs, hidden(computeUs, canHide), source, warning);
    }
}
