package dev.collsim.validation.calibration;

import dev.collsim.simulator.PreparedCall;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;

/**
 * One dataset prepared for fitting: the simulator's prepared calls of its usable points (one communicator, NCCL's
 * choices made, re-timed for any parameters) and their measured times, in the same order.
 *
 * @param dataset    the measurement
 * @param calls      the prepared calls of its points ({@link PreparedCall#timeUs})
 * @param measuredUs measured times, microseconds (one per model point)
 * @param sizes      sizes, bytes
 */
public record Series(Dataset dataset, List<PreparedCall> calls, double[] measuredUs, long[] sizes) {

    /** @throws IllegalArgumentException when the arrays and the calls disagree in length */
    public Series {
        calls = List.copyOf(calls);
        if (measuredUs.length != calls.size() || sizes.length != calls.size()) {
            throw new IllegalArgumentException("series " + dataset.id() + ": " + measuredUs.length
                    + " times for " + calls.size() + " points");
        }
        measuredUs = measuredUs.clone();
        sizes = sizes.clone();
    }
}
