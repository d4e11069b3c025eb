package dev.collsim.simulator.tuning;

/**
 * NCCL's compute-capability index for its per-architecture tables (NCCL 2.30 {@code src/graph/tuning.cc}):
 * 0 Volta (below sm80), 1 Ampere (sm80-89), 2 Hopper (sm90-99), 3 Blackwell (sm100 and up). NCCL takes the
 * index of the <em>minimum</em> compute capability in the communicator.
 */
public enum GpuGeneration {
    /** Below sm80 (Volta, Pascal, Turing). */
    VOLTA,
    /** sm80 to sm89. */
    AMPERE,
    /** sm90 to sm99. */
    HOPPER,
    /** sm100 and newer. */
    BLACKWELL;

    /**
     * @param sm compute capability x 10 (e.g. 90)
     * @return the generation index NCCL uses for that compute capability
     */
    public static GpuGeneration of(int sm) {
        if (sm >= 100) {
            return BLACKWELL;
        }
        if (sm >= 90) {
            return HOPPER;
        }
        return sm >= 80 ? AMPERE : VOLTA;
    }
}
