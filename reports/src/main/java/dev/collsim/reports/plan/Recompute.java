package dev.collsim.reports.plan;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Activation recomputation policy (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
 * Models", sections 4.3 and 5). It changes the FLOPs a GPU executes ({@link ModelFlops#hardwarePerToken}), never the
 * model FLOPs that MFU counts.
 */
public enum Recompute {
    /** Every activation is kept: no extra FLOPs. */
    NONE,
    /**
     * Only the attention core (softmax of Q K^T, and its product with V) is recomputed in backward: one extra
     * forward of Q K^T and softmax x V, {@code 4 s h} FLOPs per token per layer.
     */
    SELECTIVE,
    /** Only each layer's input is kept; the whole layer forward runs again in backward (Narayanan et al. 2021). */
    FULL;

    /**
     * @param text none, selective or full (case-insensitive)
     * @return the policy
     * @throws IllegalArgumentException naming the text and the allowed values
     */
    public static Recompute parse(String text) {
        for (Recompute r : values()) {
            if (r.name().equalsIgnoreCase(text == null ? "" : text.trim())) {
                return r;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a recompute policy; allowed: "
                + Arrays.stream(values()).map(Recompute::label).collect(Collectors.joining(", ")));
    }

    /** @return the lower-case name used on the command line */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
