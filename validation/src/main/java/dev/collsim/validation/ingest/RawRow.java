package dev.collsim.validation.ingest;

/**
 * One parsed nccl-tests row before the dataset's collective is known.
 *
 * @param point the numbers
 * @param type  the {@code type} column
 * @param redop the {@code redop} column, or null when the table has none
 * @param root  the {@code root} column, or {@link Integer#MIN_VALUE} when the table (old format) has none
 */
record RawRow(PerfPoint point, String type, String redop, int root) {
}
