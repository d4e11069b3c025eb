package dev.collsim.perf;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One half of an nccl-tests row: the out-of-place or the in-place measurement (or prediction) at one size, as
 * the executor writes it, nccl-tests prints it and validation reads it (text, {@code -J} JSON, collsim JSON,
 * reduced tables).
 *
 * <p>"Not checked" has one spelling: {@code wrong == null} (JSON {@code "nwrong": null}, or the key absent);
 * nccl-tests prints {@code N/A} for it, and a table without a {@code #wrong} column (or with the old
 * {@code error} column, which holds a maximum error, not a count) reads as not checked.
 *
 * @param timeUs average time of one operation, microseconds (nccl-tests {@code time}); {@code NaN} when the
 *               source gave only bandwidths (a reduced table), see {@link #hasTime()}
 * @param algBw  algorithm bandwidth, GB/s (1e9 B/s): bytes of the size column's base / time (nccl-tests
 *               {@code algbw}, definitions in nccl-tests 2.19.6 {@code src/<coll>.cu GetBw})
 * @param busBw  bus bandwidth, GB/s: algBw x the collective's bus bandwidth factor
 * @param wrong  number of wrong elements summed over ranks (nccl-tests {@code #wrong}); null when not checked
 *               (nccl-tests prints {@code N/A})
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record PerfResult(
        @JsonProperty("time") double timeUs,
        @JsonProperty("alg_bw") double algBw,
        @JsonProperty("bus_bw") double busBw,
        @JsonProperty("nwrong") Long wrong) {

    /** @return true when a time was measured (not derived from a bandwidth-only table) */
    @JsonIgnore
    public boolean hasTime() {
        return !Double.isNaN(timeUs);
    }

    /** @return true when the data check ran (nccl-tests printed a number, not {@code N/A}) */
    @JsonIgnore
    public boolean checked() {
        return wrong != null;
    }

    /** @return true when the data check ran and found at least one wrong element */
    @JsonIgnore
    public boolean hasErrors() {
        return wrong != null && wrong > 0;
    }
}
