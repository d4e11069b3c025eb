package dev.collsim.perf;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.collsim.nccl.Collective;

/**
 * One row of an nccl-tests table, measured or predicted: collsim's one measured-row schema. The executor writes
 * it ({@link PerfRun} JSON), {@link NcclTestsRows} reads it from nccl-tests text, and validation builds its
 * datasets on it. "Not checked" is {@code wrong == null} in a half ({@link PerfResult}).
 *
 * @param collective   nccl-tests' name of the collective, e.g. {@code all_reduce} ({@link Collective#testName()});
 *                     {@code ""} when the source row does not say (a text table row)
 * @param type         nccl-tests' datatype name, e.g. {@code float}
 * @param redop        nccl-tests' op name ({@code sum}..{@code avg}), or {@code none} for collectives without one;
 *                     null when the source has no such column
 * @param root         root rank, or -1 for collectives without a root (as nccl-tests prints);
 *                     {@link Integer#MIN_VALUE} when the source table has no root column (before nccl-tests 2.11)
 * @param nRanks       number of ranks taking part; 0 when the source row does not say
 * @param size         the {@code size} column: max(send, recv) bytes of one rank (total bytes for AllGather,
 *                     ReduceScatter, AllToAll), bytes; it is also the algbw numerator
 *                     ({@link dev.collsim.nccl.BusBandwidth})
 * @param count        the {@code count} column: element count passed to NCCL; -1 when the source did not give it
 *                     (a reduced table)
 * @param outOfPlace   out-of-place result; null when not run
 * @param inPlace      in-place result; null when not run
 * @param ncclEstimateUs NCCL's own estimate of the time (ncclGroupSimulateEnd estimatedTime, microseconds), or
 *                     null when not available (NCCL older than 2.22, one rank, point-to-point)
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record PerfRow(
        @JsonProperty("collective") String collective,
        @JsonProperty("type") String type,
        @JsonProperty("redop") String redop,
        @JsonProperty("root") int root,
        @JsonProperty("n_ranks") int nRanks,
        @JsonProperty("size") long size,
        @JsonProperty("count") long count,
        @JsonProperty("out_of_place") PerfResult outOfPlace,
        @JsonProperty("in_place") PerfResult inPlace,
        @JsonProperty("nccl_estimate_us") Double ncclEstimateUs) {

    /** @return the out-of-place half when present, else the in-place one (null when neither) */
    @JsonIgnore
    public PerfResult primary() {
        return outOfPlace != null ? outOfPlace : inPlace;
    }

    /** @return the larger busbw of the two halves, GB/s (nccl-tests INDEX convention for "peak") */
    @JsonIgnore
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
    @JsonIgnore
    public double bestTimeUs() {
        double a = outOfPlace != null && outOfPlace.hasTime() ? outOfPlace.timeUs() : Double.NaN;
        double b = inPlace != null && inPlace.hasTime() ? inPlace.timeUs() : Double.NaN;
        if (Double.isNaN(a)) {
            return b;
        }
        return Double.isNaN(b) ? a : Math.min(a, b);
    }

    /**
     * @param newCollective nccl-tests' collective name
     * @param newRanks      ranks taking part
     * @return a copy that names its run's collective and rank count
     */
    public PerfRow withRun(String newCollective, int newRanks) {
        return new PerfRow(newCollective, type, redop, root, newRanks, size, count, outOfPlace, inPlace,
                ncclEstimateUs);
    }

    /** @return wrong elements of both halves (N/A counted as 0) */
    @JsonIgnore
    public long totalWrong() {
        long w = 0;
        if (outOfPlace != null && outOfPlace.wrong() != null) {
            w += outOfPlace.wrong();
        }
        if (inPlace != null && inPlace.wrong() != null) {
            w += inPlace.wrong();
        }
        return w;
    }
}
