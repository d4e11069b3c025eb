package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;
import java.util.List;
import java.util.Objects;

/**
 * A collective as a sequence of synchronous {@link Step}s in rank space. Independent of bandwidth: a network
 * backend times it. This record is immutable.
 *
 * @param algorithm  algorithm name, e.g. {@code Ring}, {@code Tree}, {@code Hierarchical}, {@code PAT-like}
 * @param collective the collective
 * @param nRanks     ranks, {@code >= 1}
 * @param nChannels  NCCL channels the work is split over, {@code >= 1}
 * @param sizeBytes  nccl-tests size column (bytes)
 * @param steps      steps in order, copied
 */
public record Schedule(String algorithm, Collective collective, int nRanks, int nChannels, long sizeBytes,
        List<Step> steps) {

    /**
     * Copies the steps, except a {@link GeneratedSteps} list, which is immutable and makes each step on demand
     * (so an AllToAll schedule on n ranks never holds its n^2 transfers at once). Backends check that every
     * transfer's ranks lie in {@code [0, nRanks)}.
     *
     * @throws IllegalArgumentException when {@code nRanks} or {@code nChannels} is below 1
     */
    public Schedule {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(collective, "collective");
        steps = steps instanceof GeneratedSteps ? steps : List.copyOf(steps);
        if (nRanks < 1 || nChannels < 1) {
            throw new IllegalArgumentException("nRanks and nChannels must be >= 1, got " + nRanks + ", " + nChannels);
        }
    }

    /** @return total bytes put on the wire: sum over steps of repeat x bytes per copy */
    public double totalBytes() {
        double sum = 0;
        for (Step s : steps) {
            sum += s.repeat() * s.bytesPerCopy();
        }
        return sum;
    }

    /** @return number of synchronous steps, counting repeats (generated steps each have repeat 1: not generated) */
    public long stepCount() {
        if (steps instanceof GeneratedSteps) {
            return steps.size();
        }
        long n = 0;
        for (Step s : steps) {
            n += s.repeat();
        }
        return n;
    }

    /**
     * @param rank a rank
     * @return bytes that rank sends over the whole schedule
     */
    public double bytesSentBy(int rank) {
        double sum = 0;
        for (Step s : steps) {
            for (Transfer t : s.transfers()) {
                if (t.src() == rank) {
                    sum += s.repeat() * t.bytes();
                }
            }
        }
        return sum;
    }
}
