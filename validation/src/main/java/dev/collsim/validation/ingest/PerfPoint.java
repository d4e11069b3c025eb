package dev.collsim.validation.ingest;

/**
 * One measured size: an nccl-tests row, or one entry of a reduced table.
 *
 * @param sizeBytes  nccl-tests {@code size} column, bytes (the total gathered/scattered buffer for AllGather,
 *                   ReduceScatter and AllToAll)
 * @param count      {@code count} column (elements per rank passed to NCCL), -1 when not given
 * @param outOfPlace out-of-place result, or null when the source did not give it
 * @param inPlace    in-place result, or null when the source did not give it (or truncated it)
 * @param line       1-based line of the row in the source file
 */
public record PerfPoint(long sizeBytes, long count, Timing outOfPlace, Timing inPlace, int line) {

    /** @throws IllegalArgumentException when both halves are missing or the size is negative */
    public PerfPoint {
        if (outOfPlace == null && inPlace == null) {
            throw new IllegalArgumentException("line " + line + ": a point needs an out-of-place or in-place result");
        }
        if (sizeBytes < 0) {
            throw new IllegalArgumentException("line " + line + ": size must be >= 0, got " + sizeBytes);
        }
    }

    /** @return the out-of-place result when present, else the in-place one */
    public Timing primary() {
        return outOfPlace != null ? outOfPlace : inPlace;
    }

    /** @return the larger busbw of the two halves, GB/s (nccl-tests INDEX convention for "peak") */
    public double peakBusBw() {
        double a = outOfPlace == null ? Double.NEGATIVE_INFINITY : outOfPlace.busBw();
        double b = inPlace == null ? Double.NEGATIVE_INFINITY : inPlace.busBw();
        return Math.max(a, b);
    }

    /**
     * Best time of the two halves, microseconds (the smaller of out-of-place and in-place when both were timed).
     *
     * @return the time, or NaN when neither half carries a time
     */
    public double bestTimeUs() {
        double a = outOfPlace != null && outOfPlace.hasTime() ? outOfPlace.timeUs() : Double.NaN;
        double b = inPlace != null && inPlace.hasTime() ? inPlace.timeUs() : Double.NaN;
        if (Double.isNaN(a)) {
            return b;
        }
        return Double.isNaN(b) ? a : Math.min(a, b);
    }
}
