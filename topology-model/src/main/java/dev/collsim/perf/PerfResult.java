package dev.collsim.perf;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One half of an nccl-tests row: the out-of-place or the in-place measurement (or prediction) at one size.
 *
 * @param timeUs average time of one operation, microseconds (nccl-tests {@code time})
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

    /** @return true when the data check ran and found at least one wrong element */
    public boolean hasErrors() {
        return wrong != null && wrong > 0;
    }
}
