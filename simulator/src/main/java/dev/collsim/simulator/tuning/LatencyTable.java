package dev.collsim.simulator.tuning;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;

/**
 * The two latency tables of NCCL's {@code ncclTopoTuneModel} ({@code baseLat[algorithm][protocol]} and {@code
 * hwLat[link class][algorithm][protocol]}, NCCL 2.30.7 {@code src/graph/tuning.cc}), in microseconds, as {@link
 * NcclTuningModel}'s latency formula reads them. A release's own are its {@link TuningConstants}; the time of an
 * older release on Ampere or newer reads {@link RemeasuredLatency}'s. Package-private.
 */
interface LatencyTable {

    /**
     * @param a algorithm
     * @param p protocol
     * @return {@code baseLat}, microseconds
     */
    double baseLatency(Algorithm a, Protocol p);

    /**
     * @param hw link class
     * @param a  algorithm
     * @param p  protocol
     * @return {@code hwLat}, microseconds per step
     */
    double hwLatency(HardwareClass hw, Algorithm a, Protocol p);
}
