package dev.collsim.simulator.tuning;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import java.util.Objects;

/**
 * One (algorithm, protocol) with NCCL's modelled time for a call ({@code ncclTopoGetAlgoTime}).
 *
 * @param algorithm the algorithm
 * @param protocol  the protocol
 * @param timeUs    NCCL's modelled time, microseconds (>= 0)
 * @param latencyUs the latency term used (after the plateau rule), microseconds
 * @param algBw     the algorithm bandwidth used (after the tree correction), GB/s
 */
public record AlgoChoice(Algorithm algorithm, Protocol protocol, double timeUs, double latencyUs, double algBw) {

    /** Validates. */
    public AlgoChoice {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(protocol, "protocol");
    }

    @Override
    public String toString() {
        return algorithm.ncclName() + "/" + protocol.ncclName() + " " + timeUs + " us";
    }
}
