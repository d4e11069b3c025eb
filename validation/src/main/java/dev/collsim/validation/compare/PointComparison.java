package dev.collsim.validation.compare;

/**
 * One measured size next to its prediction.
 *
 * @param sizeBytes          nccl-tests size, bytes
 * @param measuredUs         measured time (out-of-place, else in-place), microseconds
 * @param predictedUs        predicted time, microseconds
 * @param lowUs              lower end of the prediction's band (= predictedUs without a calibration)
 * @param highUs             upper end of the band, microseconds
 * @param apePercent         |predicted - measured| / measured x 100
 * @param errorPercent       (predicted - measured) / measured x 100 on time: + when collsim predicts slower than
 *                           measured (pessimistic), - when faster (optimistic)
 * @param measuredBusBw      nccl-tests busbw of the measured time, GB/s (1e9 B/s; size / time x the busbw factor of
 *                           {@code nccl.BusBandwidth})
 * @param predictedBusBw     busbw of the predicted time, GB/s, the same way
 * @param regime             size regime
 * @param algorithm          predicted algorithm (NCCL spelling), or "p2p"
 * @param protocol           predicted protocol
 * @param measuredAlgorithm  algorithm the log says NCCL used at this size, or empty when the log does not say
 * @param measuredProtocol   protocol the log says NCCL used at this size, or empty when the log does not say
 * @param line               source line of the measured row
 */
public record PointComparison(long sizeBytes, double measuredUs, double predictedUs, double lowUs, double highUs,
        double apePercent, double errorPercent, double measuredBusBw, double predictedBusBw, Regime regime, String algorithm, String protocol, String measuredAlgorithm,
        String measuredProtocol, int line) {

    /** @return true when the log named the algorithm and it differs from the predicted one */
    public boolean algorithmMismatch() {
        return !measuredAlgorithm.isEmpty() && !measuredAlgorithm.equalsIgnoreCase(algorithm);
    }

    /** @return true when the log named the protocol and it differs from the predicted one */
    public boolean protocolMismatch() {
        return !measuredProtocol.isEmpty() && !measuredProtocol.equalsIgnoreCase(protocol);
    }

    /** @return true when the log named NCCL's choice and the prediction differs in algorithm or protocol */
    public boolean choiceMismatch() {
        return algorithmMismatch() || protocolMismatch();
    }
}
