package dev.collsim.validation.compare;

/** Size regimes of the accuracy report: latency-bound below 64 KiB, bandwidth-bound above 64 MiB. */
public enum Regime {
    /** size < 64 KiB. */
    LATENCY("< 64 KiB"),
    /** 64 KiB <= size <= 64 MiB. */
    MID("64 KiB - 64 MiB"),
    /** size > 64 MiB. */
    BANDWIDTH("> 64 MiB");

    /**
     * The size splitting collsim's two headline error regimes, bytes: 1 MiB. At and above it the accuracy table's
     * {@code >= 1 MiB} column, {@link PredictionBand}'s at-least-1-MiB band and compare's large points; below it the
     * {@code < 1 MiB} column and band. Apart from the three regimes of {@link #of}.
     */
    public static final long ONE_MIB = 1L << 20;

    private final String label;

    Regime(String label) {
        this.label = label;
    }

    /** @return the range, for tables */
    public String label() {
        return label;
    }

    /** @param sizeBytes nccl-tests size, bytes; @return its regime */
    public static Regime of(long sizeBytes) {
        if (sizeBytes < 64L << 10) {
            return LATENCY;
        }
        return sizeBytes > 64L << 20 ? BANDWIDTH : MID;
    }
}
