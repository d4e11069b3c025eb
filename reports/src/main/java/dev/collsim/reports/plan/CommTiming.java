package dev.collsim.reports.plan;

import dev.collsim.nccl.BusBandwidth;
import dev.collsim.simulator.Prediction;

/**
 * The predicted time of one kind of collective in a step. This record is immutable.
 *
 * @param op               the collective kind, size and count
 * @param nRanks           ranks of the group it spans
 * @param hosts            hosts the group spans
 * @param sharingGroups    groups of the same kind sharing each host's NICs at the same time
 * @param prediction       the predictor's answer for one group alone, or null when the group has one rank
 * @param perCallUs        time of one call in microseconds: the prediction, raised to the NIC-sharing bound
 *                         ({@code simulator.bound.HostNicShare}) when several groups share a node's NICs and that
 *                         is larger
 * @param bottleneck       what limits a call, in words
 */
public record CommTiming(CommOp op, int nRanks, int hosts, int sharingGroups, Prediction prediction,
        double perCallUs, String bottleneck) {

    /** @return time of all calls of the step, microseconds */
    public double totalUs() {
        return perCallUs * op.callsPerStep();
    }

    /** @return bus bandwidth of one call in GB/s (nccl-tests definition), 0 when it takes no time */
    public double busBw() {
        return BusBandwidth.busBw(op.kind().collective(), nRanks, op.sizeBytes(), perCallUs);
    }

    /** @return NCCL algorithm and protocol, e.g. {@code Ring/Simple}, or {@code -} for a one-rank group */
    public String algoProto() {
        return prediction == null ? "-" : choice(prediction);
    }

    /**
     * @param p a prediction
     * @return {@code Algorithm/Protocol}; point-to-point collectives (no NCCL algorithm) read {@code P2P/Protocol}
     */
    public static String choice(Prediction p) {
        return (p.algorithm() == null ? "P2P" : p.algorithm().ncclName()) + "/"
                + (p.protocol() == null ? "-" : p.protocol().ncclName());
    }
}
