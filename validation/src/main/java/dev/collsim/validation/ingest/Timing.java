package dev.collsim.validation.ingest;

/**
 * One measured half of an nccl-tests row (out-of-place or in-place).
 *
 * @param timeUs time per operation, microseconds; {@code NaN} when the source only gave bandwidths
 * @param algBw  algorithm bandwidth, GB/s (1e9 B/s): size / time (nccl-tests 2.19.6 {@code doc/PERFORMANCE.md})
 * @param busBw  bus bandwidth, GB/s: algBw x the collective's bus bandwidth factor
 * @param wrong  wrong elements ({@code #wrong}); {@link #NOT_CHECKED} when the source printed {@code N/A} or
 *               had no such column
 */
public record Timing(double timeUs, double algBw, double busBw, long wrong) {

    /** Value of {@link #wrong} when nccl-tests printed {@code N/A} (check disabled or not reported). */
    public static final long NOT_CHECKED = -1;

    /** @return true when a time was measured (not derived from a bandwidth-only table) */
    public boolean hasTime() {
        return !Double.isNaN(timeUs);
    }
}
