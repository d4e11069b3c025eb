package dev.collsim.sweep.point;

import java.io.Serializable;
import java.util.List;

/**
 * One point of a design sweep: a design timed on a workload, with its cost. A number that does not apply (a plan's
 * busbw, a collective's tokens per second, anything of a failed point) is NaN. Immutable.
 *
 * @param point       point index ({@code design x workloads + workload})
 * @param design      design index
 * @param workload    workload name
 * @param kind        {@code collective} or {@code plan}
 * @param label       the design, e.g. {@code hosts=8 fabric=fat-tree}
 * @param axes        the design's value per grid axis, in spec order (empty strings for a listed variant)
 * @param status      {@link #OK}, {@link #NO_FIT} (a plan needing more GPUs than the design has, or more memory per
 *                    GPU than its GPUs hold) or {@link #FAILED}
 * @param reason      why a point failed or does not fit; for a plan that fits, how compute time was obtained
 * @param gpus        GPUs of the design
 * @param hosts       hosts of the design
 * @param sizeBytes   collectives: message size, bytes (0 for plans)
 * @param timeUs      collectives: time per call, microseconds
 * @param busBw       collectives: bus bandwidth, GB/s (nccl-tests' busbw)
 * @param algorithm   collectives: NCCL's algorithm and protocol, e.g. {@code Ring/Simple}
 * @param stepMs      plans: step time, milliseconds
 * @param tokensPerS  plans: tokens per second
 * @param memoryGib   plans: memory one GPU needs (first pipeline stage), GiB = 2^30 B, also when it does not fit
 * @param bottleneck  collectives: the model's bottleneck; plans: the largest part of the step and its share
 * @param nicPorts    compute NIC ports cabled to the fabric
 * @param switchPorts switch ports in use
 * @param cables      network cables
 * @param capital     cost of the parts, currency units
 * @param running     GPU-hour rent and energy over the run time, currency units
 * @param cost        capital + running
 * @param powerKw     GPU power, kW (0 without a power figure)
 */
public record PointResult(long point, long design, String workload, String kind, String label, List<String> axes,
        String status, String reason, int gpus, int hosts, long sizeBytes, double timeUs, double busBw,
        String algorithm, double stepMs, double tokensPerS, double memoryGib, String bottleneck, int nicPorts,
        int switchPorts, int cables, double capital, double running, double cost, double powerKw) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Status of a point computed. */
    public static final String OK = "ok";
    /** Status of a plan whose GPU count exceeds the design's, or whose memory per GPU exceeds the GPU's. */
    public static final String NO_FIT = "does not fit";
    /** Status of a point that could not be computed (the reason says why). */
    public static final String FAILED = "failed";

    /** Copies the list. */
    public PointResult {
        axes = List.copyOf(axes);
    }

    /** @return true when the point was computed and the workload fits the design */
    public boolean ok() {
        return OK.equals(status);
    }

    /** @return the time the Pareto front minimizes: a plan's step (ms) or a collective's call (us) */
    public double time() {
        return "plan".equals(kind) ? stepMs : timeUs;
    }
}
