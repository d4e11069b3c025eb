package dev.collsim.validation.ingest;

/** What kind of source a {@link Dataset} came from, which says how much it can be trusted for timing. */
public enum DatasetKind {
    /** nccl-tests text table with time, algbw, busbw per size. */
    NCCL_TESTS_TABLE,
    /** nccl-tests {@code -J} JSON output. */
    NCCL_TESTS_JSON,
    /** collsim's own run JSON (executor). */
    COLLSIM_RUN_JSON,
    /** A published table reduced to size and busbw (or algbw/time) by its author; times are derived. */
    REDUCED_TABLE,
    /** Only summary numbers (max/avg busbw), no per-size rows. */
    SUMMARY,
    /** Only nccl-tests' {@code Avg bus bandwidth} footer survived (table elided by the author). */
    FOOTER_ONLY
}
