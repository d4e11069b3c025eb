package dev.collsim.hardware;

import java.util.Locale;

/**
 * The GPU architecture (generation) of a compute capability, as NVIDIA names it: the name collsim prints for a GPU's
 * generation (a calibration class such as {@code ada-1host-pcie}). Source: NVIDIA CUDA C++ Programming Guide, table
 * "Compute Capabilities" (6.x Pascal, 7.0 and 7.2 Volta, 7.5 Turing, 8.0, 8.6 and 8.7 Ampere, 8.9 Ada Lovelace, 9.0
 * Hopper, 10.x, 11.0 and 12.x Blackwell). NCCL's own tables index fewer groups (sm80-89 share the Ampere row, NCCL
 * 2.30 {@code src/graph/tuning.cc}); that index is the simulator's {@code tuning.GpuGeneration}, not this.
 */
public enum GpuArchitecture {
    /** sm60-69. */
    PASCAL,
    /** sm70-74. */
    VOLTA,
    /** sm75-79. */
    TURING,
    /** sm80-88 (A100 sm80, A10/RTX 3090/RTX A6000 sm86, Jetson Orin sm87). */
    AMPERE,
    /** sm89 (L4, L40, L40S, RTX 4090, RTX 6000 Ada). */
    ADA,
    /** sm90-99. */
    HOPPER,
    /** sm100 and newer (B200 sm100, B300/GB300 sm103, RTX PRO 6000 and RTX 5090 sm120, GB10 sm121). */
    BLACKWELL;

    /**
     * @param sm compute capability x 10, e.g. 89
     * @return its architecture; below sm60 (not in the database) {@link #PASCAL}, the oldest collsim names
     */
    public static GpuArchitecture of(int sm) {
        if (sm >= 100) {
            return BLACKWELL;
        }
        if (sm >= 90) {
            return HOPPER;
        }
        if (sm == 89) {
            return ADA;
        }
        if (sm >= 80) {
            return AMPERE;
        }
        if (sm >= 75) {
            return TURING;
        }
        return sm >= 70 ? VOLTA : PASCAL;
    }

    /** @return the lower-case key, e.g. {@code ada} */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the name in words, e.g. {@code Ada} (NVIDIA: Ada Lovelace) */
    public String label() {
        return name().charAt(0) + key().substring(1);
    }
}
