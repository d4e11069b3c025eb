package dev.collsim.validation.compare;

/** Size regimes of the accuracy report: latency-bound below 64 KiB, bandwidth-bound above 64 MiB. */
public enum Regime {
    /** size < 64 KiB. */
    LATENCY("< 64 KiB"),
    /** 64 KiB <= size <= 64 MiB. */
    MID("64 KiB - 64 MiB"),
    /** size > 64 MiB. */
    BANDWIDTH("> 64 MiB");

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
