/**
 * Command-line side of the contention-aware flow backend (issue 6): the options that {@code collsim predict
 * --backend flow} adds (fabric what-ifs, placement, concurrent jobs, failures, routing, timeline, sharding), the
 * run itself, and {@code collsim merge} for sharded sweeps. Uses {@code dev.collsim.simulator.schedule} and
 * {@code dev.collsim.simulator.network} only.
 */
package dev.collsim.cli.flow;
