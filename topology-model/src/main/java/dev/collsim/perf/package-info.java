/**
 * The shared result schema of collsim: one nccl-tests table row ({@link PerfRow}) and one whole run
 * ({@link PerfRun} with {@link RunMetadata} and {@link GpuInfo}), measured by the executor, read from
 * nccl-tests output, or predicted by the simulator.
 *
 * <p>JSON keys are snake_case and, where nccl-tests' {@code -J} JSON (nccl-tests 2.19.6 {@code src/util.cu})
 * has the same item, use its name: {@code size}, {@code count}, {@code type}, {@code redop}, {@code root},
 * {@code out_of_place}/{@code in_place} with {@code time}, {@code alg_bw}, {@code bus_bw}, {@code nwrong}.
 * Times are microseconds, bandwidths GB/s (1e9 B/s), sizes bytes. "Not checked" (nccl-tests {@code N/A}) is
 * {@code "nwrong": null} in JSON and {@code wrong() == null} in {@link PerfResult}; older files that omit the key
 * read the same way.
 *
 * <p>nccl-tests text tables are read row by row with {@link NcclTestsRows} against the
 * {@link NcclTestsLayout} of their header; the algbw and busbw of a row follow {@code dev.collsim.nccl.BusBandwidth}.
 */
package dev.collsim.perf;
