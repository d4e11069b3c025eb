/**
 * Runs NCCL collectives on real GPUs as nccl-tests does (same options, timing, busbw and output), and records
 * everything needed to compare a run with a prediction ({@link dev.collsim.perf.PerfRun}).
 *
 * <p>Pure-Java parts (options, sweep, byte counts, table, verifiable data, launcher detection, rendezvous,
 * settings sweep) carry no native code and are unit-tested without a GPU. The native parts live in
 * {@code dev.collsim.executor.gpu}, the only package importing {@code org.bytedeco}.
 */
package dev.collsim.executor;
