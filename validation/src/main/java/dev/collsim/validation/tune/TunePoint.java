package dev.collsim.validation.tune;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;

/**
 * One swept point of {@link Tuner}: NCCL's choice and collsim's fastest predicted alternative (algorithm, protocol and,
 * where forcing a channel count through the tuner plugin gains more than the band on top, that count).
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
 * @param bestChannels  channels collsim's model gives it (the forced count, capped, when one is advised)
 * @param forcedChannels the channel count to give the tuner plugin with it, 0 for NCCL's own per-call count
 * @param bestUs        its predicted time, microseconds
 * @param band          the band the gain is judged against
 * @param measuredNcclUs measured time of NCCL's own choice at this point, microseconds; NaN when not measured
 * @param measuredBestUs measured time of a run forced to collsim's best, microseconds; NaN when not measured
 */
public record TunePoint(Collective collective, long sizeBytes, long bytes, Algorithm ncclAlgorithm,
        Protocol ncclProtocol, int ncclChannels, double ncclUs, Algorithm bestAlgorithm, Protocol bestProtocol,
        int bestChannels, int forcedChannels, double bestUs, TuningBand band, double measuredNcclUs,
        double measuredBestUs) {

    /** @throws IllegalArgumentException when forcedChannels is negative */
    public TunePoint {
        if (forcedChannels < 0) {
            throw new IllegalArgumentException("forcedChannels must be >= 0 (0: NCCL's own count), got "
                    + forcedChannels);
        }
    }

    /** @return predicted gain of the best candidate over NCCL's choice, percent of NCCL's choice's time (>= 0) */
    public double gainPercent() {
        return ncclUs > 0 ? 100.0 * (ncclUs - bestUs) / ncclUs : 0;
    }

    /** @return true when the best candidate is another (algorithm, protocol) than NCCL's, or forces channels */
    public boolean differs() {
        return bestAlgorithm != ncclAlgorithm || bestProtocol != ncclProtocol || forcedChannels != 0;
    }

    /** @return the advice as the plugin file's (algorithm, protocol, channels): collsim's best when recommended */
    public Target target() {
        return recommended() ? new Target(bestAlgorithm, bestProtocol, forcedChannels)
                : new Target(ncclAlgorithm, ncclProtocol, 0);
    }

    /**
     * What one line of the tuner plugin's file sets.
     *
     * @param algorithm the algorithm
     * @param protocol  the protocol
     * @param channels  the channel count, 0 for NCCL's own per-call count
     */
    public record Target(Algorithm algorithm, Protocol protocol, int channels) {
    }

    /**
     * @return measured gain of collsim's best over NCCL's choice, percent of NCCL's choice's measured time; NaN when
     *         either was not measured or they are the same choice
     */
    public double measuredGainPercent() {
        return differs() && measuredNcclUs > 0 && measuredBestUs > 0
                ? 100.0 * (measuredNcclUs - measuredBestUs) / measuredNcclUs : Double.NaN;
    }

    /** @return true when the best candidate differs and its predicted gain exceeds the band at this size */
    public boolean recommended() {
        return differs() && gainPercent() > band.percentAt(sizeBytes);
    }
}
