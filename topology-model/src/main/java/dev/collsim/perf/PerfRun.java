package dev.collsim.perf;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A whole run: one nccl-tests invocation (one collective, its sizes, possibly several types, ops or roots),
 * measured or predicted.
 *
 * @param tool          what produced it: {@code collsim-run}, {@code nccl-tests} or {@code collsim-predict}
 * @param collective    nccl-tests' collective name, e.g. {@code all_reduce}
 * @param nRanks        ranks taking part
 * @param config        the nccl-tests settings
 * @param rows          table rows in printed order
 * @param avgBusBw      nccl-tests' {@code Avg bus bandwidth}: mean of busbw over every out-of-place and in-place
 *                      result, GB/s
 * @param outOfBounds   nccl-tests' {@code Out of bounds values}: number of results (out-of-place or in-place)
 *                      with #wrong > 0
 * @param metadata      versions, settings, GPUs, topology; null for predictions
 * @param errors        error messages (e.g. ncclGetLastError), empty when none
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record PerfRun(
        @JsonProperty("tool") String tool,
        @JsonProperty("collective") String collective,
        @JsonProperty("n_ranks") int nRanks,
        @JsonProperty("config") RunConfig config,
        @JsonProperty("results") List<PerfRow> rows,
        @JsonProperty("average_bus_bandwidth") double avgBusBw,
        @JsonProperty("out_of_bounds") int outOfBounds,
        @JsonProperty("metadata") RunMetadata metadata,
        @JsonProperty("errors") List<String> errors) {

    /** Copies the lists so the record stays immutable. */
    public PerfRun {
        rows = rows == null ? List.of() : List.copyOf(rows);
        errors = errors == null ? List.of() : List.copyOf(errors);
    }

    /**
     * nccl-tests' average: the arithmetic mean of busbw over every out-of-place and in-place result
     * (nccl-tests 2.19.6 {@code src/common.cu BenchTime}: {@code bw[0] += busBw; bw_count[0]++}).
     *
     * @param rows the rows
     * @return the mean in GB/s, or 0 when there are no results
     */
    public static double averageBusBw(List<PerfRow> rows) {
        double sum = 0;
        int n = 0;
        for (PerfRow r : rows) {
            for (PerfResult p : new PerfResult[] {r.outOfPlace(), r.inPlace()}) {
                if (p != null) {
                    sum += p.busBw();
                    n++;
                }
            }
        }
        return n == 0 ? 0 : sum / n;
    }

    /**
     * @param rows the rows
     * @return the number of results with #wrong > 0 (nccl-tests' {@code errors[0]})
     */
    public static int countOutOfBounds(List<PerfRow> rows) {
        int n = 0;
        for (PerfRow r : rows) {
            if (r.outOfPlace() != null && r.outOfPlace().hasErrors()) {
                n++;
            }
            if (r.inPlace() != null && r.inPlace().hasErrors()) {
                n++;
            }
        }
        return n;
    }

    /** @return true when any result had wrong elements */
    @JsonIgnore
    public boolean hasWrongResults() {
        return outOfBounds > 0 || rows.stream().anyMatch(r -> r.totalWrong() > 0);
    }

    /**
     * @param newMetadata replacement metadata
     * @return a copy with the metadata replaced
     */
    public PerfRun withMetadata(RunMetadata newMetadata) {
        return new PerfRun(tool, collective, nRanks, config, rows, avgBusBw, outOfBounds, newMetadata, errors);
    }
}
