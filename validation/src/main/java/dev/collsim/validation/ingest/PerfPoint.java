package dev.collsim.validation.ingest;

import dev.collsim.perf.PerfResult;
import dev.collsim.perf.PerfRow;

/**
 * One measured size read from a file: a row of the shared schema ({@link PerfRow}, with {@link PerfResult}
 * halves; "not checked" is {@code wrong == null}) and where it stands. Its accessors are the row's.
 *
 * @param row  the row (an nccl-tests row, a collsim or nccl-tests JSON result, or one entry of a reduced table)
 * @param line 1-based line of the row in the source file, 0 for JSON
 */
public record PerfPoint(PerfRow row, int line) {

    /** @throws IllegalArgumentException when both halves are missing or the size is negative */
    public PerfPoint {
        if (row.outOfPlace() == null && row.inPlace() == null) {
            throw new IllegalArgumentException("line " + line + ": a point needs an out-of-place or in-place result");
        }
        if (row.size() < 0) {
            throw new IllegalArgumentException("line " + line + ": size must be >= 0, got " + row.size());
        }
    }

    /** @return the {@code size} column, bytes (the total gathered/scattered buffer for AllGather, ...) */
    public long sizeBytes() {
        return row.size();
    }

    /** @return the {@code count} column (elements per rank passed to NCCL), -1 when not given */
    public long count() {
        return row.count();
    }

    /** @return the out-of-place result, or null when the source did not give it */
    public PerfResult outOfPlace() {
        return row.outOfPlace();
    }

    /** @return the in-place result, or null when the source did not give it (or truncated it) */
    public PerfResult inPlace() {
        return row.inPlace();
    }

    /** @return the {@code type} column */
    public String type() {
        return row.type();
    }

    /** @return the {@code redop} column, or null when the table has none */
    public String redop() {
        return row.redop();
    }

    /** @return the {@code root} column, or {@link Integer#MIN_VALUE} when the table (old format) has none */
    public int root() {
        return row.root();
    }

    /** @return {@link PerfRow#primary()} */
    public PerfResult primary() {
        return row.primary();
    }

    /** @return {@link PerfRow#peakBusBw()} */
    public double peakBusBw() {
        return row.peakBusBw();
    }

    /** @return {@link PerfRow#bestTimeUs()} */
    public double bestTimeUs() {
        return row.bestTimeUs();
    }

    /**
     * @param row a parsed row
     * @return the first negative time or bandwidth of the row ({@code out-of-place time -10.0 us}), or null
     */
    public static String negative(PerfRow row) {
        String[] half = {"out-of-place", "in-place"};
        PerfResult[] r = {row.outOfPlace(), row.inPlace()};
        for (int h = 0; h < 2; h++) {
            if (r[h] == null) {
                continue;
            }
            if (r[h].timeUs() < 0) {
                return half[h] + " time " + r[h].timeUs() + " us";
            }
            if (r[h].algBw() < 0 || r[h].busBw() < 0) {
                return half[h] + " algbw/busbw " + r[h].algBw() + "/" + r[h].busBw() + " GB/s";
            }
        }
        return null;
    }
}
