package dev.collsim.perf;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.collsim.nccl.Collective;

/**
 * One row of an nccl-tests table, measured or predicted.
 *
 * @param collective   nccl-tests' name of the collective, e.g. {@code all_reduce} ({@link Collective#testName()})
 * @param type         nccl-tests' datatype name, e.g. {@code float}
 * @param redop        nccl-tests' op name ({@code sum}..{@code avg}), or {@code none} for collectives without one
 * @param root         root rank, or -1 for collectives without a root (as nccl-tests prints)
 * @param nRanks       number of ranks taking part
 * @param size         the {@code size} column: max(send, recv) bytes of one rank (total bytes for AllGather,
 *                     ReduceScatter, AllToAll), bytes
 * @param count        the {@code count} column: element count passed to NCCL
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

    /**
     * @return the collective as an enum
     * @throws IllegalArgumentException when {@link #collective()} is not a known name
     */
    @JsonIgnore
    public Collective collectiveEnum() {
        return Collective.parse(collective);
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
