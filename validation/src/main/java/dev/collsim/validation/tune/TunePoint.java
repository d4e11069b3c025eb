package dev.collsim.validation.tune;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;

/**
 * One swept point of {@link Tuner}: NCCL's choice and collsim's fastest predicted alternative.
 *
 * @param collective    the collective
 * @param sizeBytes     nccl-tests size, bytes
 * @param bytes         bytes NCCL selects on (and the example tuner plugin matches {@code min_bytes..max_bytes} on)
 * @param ncclAlgorithm NCCL's algorithm
 * @param ncclProtocol  NCCL's protocol
 * @param ncclChannels  channels collsim's model gives NCCL's choice
 * @param ncclUs        collsim's predicted time of NCCL's choice, microseconds
 * @param bestAlgorithm the algorithm of the fastest predicted candidate
 * @param bestProtocol  its protocol
 * @param bestChannels  channels collsim's model gives it
 * @param bestUs        its predicted time, microseconds
 * @param band          the band the gain is judged against
 * @param measuredNcclUs measured time of NCCL's own choice at this point, microseconds; NaN when not measured
 * @param measuredBestUs measured time of a run forced to collsim's best, microseconds; NaN when not measured
 */
public record TunePoint(Collective collective, long sizeBytes, long bytes, Algorithm ncclAlgorithm,
        Protocol ncclProtocol, int ncclChannels, double ncclUs, Algorithm bestAlgorithm, Protocol bestProtocol,
        int bestChannels, double bestUs, TuningBand band, double measuredNcclUs, double measuredBestUs) {

    /** @return predicted gain of the best candidate over NCCL's choice, percent of NCCL's choice's time (>= 0) */
    public double gainPercent() {
        return ncclUs > 0 ? 100.0 * (ncclUs - bestUs) / ncclUs : 0;
    }

    /** @return true when the best candidate is another (algorithm, protocol) than NCCL's */
    public boolean differs() {
        return bestAlgorithm != ncclAlgorithm || bestProtocol != ncclProtocol;
    }

    /**
     * @return measured gain of collsim's best over NCCL's choice, percent of NCCL's choice's measured time; NaN when
     *         either was not measured or they are the same choice
     */
    public double measuredGainPercent() {
        return differs() && measuredNcclUs > 0 && measuredBestUs > 0
                ? 100.0 * (measuredNcclUs - measuredBestUs) / measuredNcclUs : Double.NaN;
    }

    /** @return true when the best candidate differs and its predicted gain exceeds the band */
    public boolean recommended() {
        return differs() && gainPercent() > band.percent();
    }
}
