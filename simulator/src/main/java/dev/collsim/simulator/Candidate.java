package dev.collsim.simulator;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.perf.PerfEstimate;

/**
 * One eligible (algorithm, protocol) for a point, with NCCL's modelled time and collsim's predicted time.
 *
 * @param algorithm  algorithm
 * @param protocol   protocol
 * @param ncclTimeUs NCCL's modelled time, microseconds
 * @param predicted  collsim's prediction
 * @param chosen     true for NCCL's choice (the argmin of ncclTimeUs in NCCL's scan order)
 */
public record Candidate(Algorithm algorithm, Protocol protocol, double ncclTimeUs, PerfEstimate predicted,
        boolean chosen) {
}
