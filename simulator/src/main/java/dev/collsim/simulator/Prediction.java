package dev.collsim.simulator;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;

/**
 * A predicted point, with NCCL's own estimate kept apart from collsim's prediction of the real time.
 *
 * @param collective        the collective
 * @param sizeBytes         nccl-tests size (bytes)
 * @param nRanks            ranks
 * @param algorithm         algorithm collsim predicts NCCL runs (or the hierarchical composition's base)
 * @param protocol          protocol
 * @param nChannels         channels used for this call (after NCCL's per-call reduction)
 * @param timeUs            collsim's predicted time, microseconds
 * @param algBw             predicted algbw, GB/s (nccl-tests definition: size / time)
 * @param busBw             predicted busbw, GB/s (algbw x nccl-tests bus bandwidth factor)
 * @param ncclEstimateUs    NCCL's own modelled time for its choice (ncclGroupSimulateEnd's estimatedTime), us;
 *                          -1 when NCCL has no model for the collective (AllToAll, SendRecv)
 * @param physicalBoundBusBw best busbw the hardware could reach (GB/s) from link bandwidths
 * @param bottleneck        plain-words description of what limits this point
 */
public record Prediction(Collective collective, long sizeBytes, int nRanks, Algorithm algorithm,
        Protocol protocol, int nChannels, double timeUs, double algBw, double busBw, double ncclEstimateUs,
        double physicalBoundBusBw, String bottleneck) {
}
