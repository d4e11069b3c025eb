package dev.collsim.perf;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The nccl-tests settings of a run, with the keys of nccl-tests' {@code -J} {@code config} object where it has
 * them (nccl-tests 2.19.6 {@code src/util.cu writeDeviceReport}).
 *
 * @param nThreads       threads per process ({@code -t}; collsim always 1)
 * @param nGpus          GPUs per process ({@code -g})
 * @param minBytes       smallest size, bytes ({@code -b})
 * @param maxBytes       largest size, bytes ({@code -e}, after any reduction for memory)
 * @param stepFactor     multiplicative step ({@code -f}), or 0 when the step is additive
 * @param stepBytes      additive step, bytes ({@code -i}), used when stepFactor is 0
 * @param warmupIters    warm-up iterations per size ({@code -w})
 * @param iters          timed iterations ({@code -n})
 * @param aggIters       operations aggregated per iteration ({@code -m})
 * @param validation     data-check iterations ({@code -c}); 0 = no check
 * @param graph          CUDA graph launches ({@code -G}); 0 = no graph
 * @param blocking       blocking mode ({@code -z}, 0..3)
 * @param average        cross-rank time reduction ({@code -a}: 0 rank 0, 1 avg, 2 min, 3 max)
 * @param timeoutSeconds per-test timeout ({@code -T}); 0 = none
 * @param reportCpuTime  {@code -C 1} ({@code report_cputime}): each result's time is the host's time to enqueue the
 *                       calls, not the collective's, and the JSON keys it {@code cpu_time} instead of {@code time}
 *                       as nccl-tests {@code -J} does (2.19.6 {@code src/util.cu writeBenchmarkLineBody});
 *                       {@link PerfJson} renames the key on write and back on read. nccl-tests' own {@code config}
 *                       has no such key (the {@code cpu_time} key alone says it); absent (false) in older files
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record RunConfig(
        @JsonProperty("nthreads") int nThreads,
        @JsonProperty("ngpus") int nGpus,
        @JsonProperty("minimum_bytes") long minBytes,
        @JsonProperty("maximum_bytes") long maxBytes,
        @JsonProperty("step_factor") long stepFactor,
        @JsonProperty("step_bytes") long stepBytes,
        @JsonProperty("warmup_iters") int warmupIters,
        @JsonProperty("iterations") int iters,
        @JsonProperty("aggregated_iterations") int aggIters,
        @JsonProperty("validation") int validation,
        @JsonProperty("graph") int graph,
        @JsonProperty("blocking_collectives") int blocking,
        @JsonProperty("average") int average,
        @JsonProperty("timeout_seconds") int timeoutSeconds,
        @JsonProperty("report_cputime") boolean reportCpuTime) {
}
