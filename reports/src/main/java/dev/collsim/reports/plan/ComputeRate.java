package dev.collsim.reports.plan;

import dev.collsim.hardware.Precision;

/**
 * How a plan obtains its compute time; exactly one of three. Immutable.
 *
 * <ul>
 *   <li>{@link Kind#STEP_COMPUTE_MS}: compute time of one step per GPU, given in milliseconds; bubble and exposed
 *       communication are added on top.</li>
 *   <li>{@link Kind#MFU}: end-to-end model FLOPs utilisation as PaLM defines it (Chowdhery et al. 2022, Appendix
 *       B): {@code step = model FLOPs per step / (GPUs x peak x MFU)}. Communication and pipeline bubble are inside
 *       the MFU and are not added; the plan reports the compute-only (kernel) efficiency this step implies.</li>
 *   <li>{@link Kind#KERNEL_EFFICIENCY}: compute-only efficiency of the kernels: {@code compute = hardware FLOPs per
 *       step (recompute included) / (GPUs x peak x efficiency)}; bubble and exposed communication are added on top
 *       (bottom-up); the plan reports the end-to-end MFU this gives.</li>
 * </ul>
 *
 * @param kind      which of the three
 * @param value     milliseconds for STEP_COMPUTE_MS (> 0), a fraction in (0, 1] otherwise
 * @param precision the number format whose dense peak FLOP/s the GPU-model database gives (BF16 by default; FP8
 *                  for Transformer Engine FP8 training, whose GEMMs run at the FP8 peak)
 */
public record ComputeRate(Kind kind, double value, Precision precision) {

    /** The three ways; each names its command-line option. */
    public enum Kind {
        /** {@code --step-compute-ms}. */
        STEP_COMPUTE_MS("--step-compute-ms"),
        /** {@code --mfu}. */
        MFU("--mfu"),
        /** {@code --kernel-efficiency}. */
        KERNEL_EFFICIENCY("--kernel-efficiency");

        private final String option;

        Kind(String option) {
            this.option = option;
        }

        /** @return the command-line option */
        public String option() {
            return option;
        }
    }

    /** @throws IllegalArgumentException naming the option and its allowed range */
    public ComputeRate {
        if (kind == null || precision == null) {
            throw new IllegalArgumentException("compute kind and precision are required");
        }
        if (kind == Kind.STEP_COMPUTE_MS ? !(value > 0 && Double.isFinite(value)) : !(value > 0 && value <= 1)) {
            throw new IllegalArgumentException(kind.option() + " must be " + (kind == Kind.STEP_COMPUTE_MS
                    ? "> 0" : "in (0, 1]") + ", got " + value);
        }
    }

    /**
     * @param ms compute milliseconds per step per GPU
     * @return the rate
     */
    public static ComputeRate stepComputeMs(double ms) {
        return new ComputeRate(Kind.STEP_COMPUTE_MS, ms, Precision.BF16);
    }

    /**
     * @param mfu end-to-end model FLOPs utilisation
     * @return the rate
     */
    public static ComputeRate mfu(double mfu) {
        return new ComputeRate(Kind.MFU, mfu, Precision.BF16);
    }

    /**
     * @param efficiency compute-only efficiency
     * @return the rate
     */
    public static ComputeRate kernelEfficiency(double efficiency) {
        return new ComputeRate(Kind.KERNEL_EFFICIENCY, efficiency, Precision.BF16);
    }

    /**
     * @param p number format of the peak
     * @return a copy using that format's peak
     */
    public ComputeRate withPrecision(Precision p) {
        return new ComputeRate(kind, value, p);
    }

    /** @return true when the step time needs the GPU's peak FLOP/s */
    public boolean needsPeak() {
        return kind != Kind.STEP_COMPUTE_MS;
    }
}
