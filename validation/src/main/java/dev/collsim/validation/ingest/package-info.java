/**
 * Readers of measured collective performance: nccl-tests text output (any version), nccl-tests {@code -J} JSON,
 * collsim's run JSON, reduced bus-bandwidth tables published by vendors, and NCCL_DEBUG=INFO logs. Every reader
 * turns a file into {@link dev.collsim.validation.ingest.Dataset}s, one per measured run, or fails with a
 * {@link dev.collsim.io.InputException} naming the line; nothing is dropped silently.
 */
package dev.collsim.validation.ingest;
