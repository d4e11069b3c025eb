package dev.collsim.simulator.tuning;

import dev.collsim.topology.GraphPattern;
import dev.collsim.topology.PathType;
import java.util.Objects;

/**
 * What NCCL's tuning model reads from one search graph ({@code ncclTopoGraph}, NCCL 2.30
 * {@code src/include/graph.h}), after all ranks agreed on it (minimum nChannels and bandwidths, maximum types).
 * This record is immutable.
 *
 * @param pattern      graph pattern
 * @param nChannels    search channels (not the runtime channel count); 0 means "no graph" (algorithm unusable)
 * @param bwIntra      per-channel bandwidth inside a host, GB/s
 * @param bwInter      per-channel bandwidth across hosts, GB/s (equal to bwIntra on one host)
 * @param typeIntra    worst path type inside a host
 * @param typeInter    worst path type to the network (PIX on a single host, NCCL's default)
 * @param latencyInter the network latency the net plugin reports ({@code ncclNetProperties.latency}), which NCCL's
 *                     search copies from the NET node into the graph (NCCL 2.30.7 {@code src/graph/search.cc}),
 *                     microseconds; 0 on one host and for NCCL's own IB and socket networks
 * @param sameChannels true when all channels use the same GPU order
 * @param dupFactor    how many channels each channel the search found became in {@code ncclTopoDupChannels} (NCCL
 *                     2.30.7 {@code src/graph/search.cc}: {@code bwIntra /= DIVUP(dupChannels, nChannels)}, the same
 *                     for bwInter), 1 when not duplicated; not a field of NCCL's graph, which keeps only the split
 *                     speeds ({@link #searchBwInter})
 */
public record GraphSummary(GraphPattern pattern, int nChannels, double bwIntra, double bwInter, PathType typeIntra,
        PathType typeInter, double latencyInter, boolean sameChannels, int dupFactor) {

    /** @throws IllegalArgumentException on negative counts or bandwidths, or a duplication factor below 1 */
    public GraphSummary {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(typeIntra, "typeIntra");
        Objects.requireNonNull(typeInter, "typeInter");
        if (nChannels < 0 || !(bwIntra >= 0) || !(bwInter >= 0) || !(latencyInter >= 0) || dupFactor < 1) {
            throw new IllegalArgumentException("graph " + pattern + ": nChannels, bandwidths and latency must be >= 0,"
                    + " the duplication factor >= 1, got nChannels=" + nChannels + " bwIntra=" + bwIntra + " bwInter="
                    + bwInter + " dupFactor=" + dupFactor);
        }
    }

    /** A graph whose channels were not duplicated (dupFactor 1); the parameters as the canonical constructor's. */
    public GraphSummary(GraphPattern pattern, int nChannels, double bwIntra, double bwInter, PathType typeIntra,
            PathType typeInter, double latencyInter, boolean sameChannels) {
        this(pattern, nChannels, bwIntra, bwInter, typeIntra, typeInter, latencyInter, sameChannels, 1);
    }

    /**
     * @return the per-channel speed between hosts the search found its channels at, before {@code
     *         ncclTopoDupChannels} split them: bwInter x dupFactor, GB/s (a 2 x 48 GB/s ring duplicated into 4 x 24
     *         gives 48, the top of the sm90 inter-node speed array)
     */
    public double searchBwInter() {
        return bwInter * dupFactor;
    }

    /**
     * A single-host graph: bwInter = bwIntra, typeInter = PIX (NCCL's default for a graph without NET).
     *
     * @param pattern   pattern
     * @param nChannels channels
     * @param bw        per-channel bandwidth, GB/s
     * @param typeIntra intra-host path type
     * @return the summary
     */
    public static GraphSummary singleHost(GraphPattern pattern, int nChannels, double bw, PathType typeIntra) {
        return new GraphSummary(pattern, nChannels, bw, bw, typeIntra, PathType.PIX, 0, true);
    }

    /**
     * @param pattern the pattern
     * @return an empty graph: the search found nothing (nChannels 0), so its algorithms are not eligible
     */
    public static GraphSummary none(GraphPattern pattern) {
        return new GraphSummary(pattern, 0, 0, 0, PathType.SYS, PathType.SYS, 0, false);
    }

    /** @return true when the graph has at least one channel */
    public boolean present() {
        return nChannels > 0;
    }

    /**
     * @param us the net plugin's reported latency, microseconds, >= 0
     * @return this graph with that {@code latencyInter}; an absent graph stays absent
     */
    public GraphSummary withLatencyInter(double us) {
        return present() ? new GraphSummary(pattern, nChannels, bwIntra, bwInter, typeIntra, typeInter, us,
                sameChannels, dupFactor) : this;
    }

    /** @return nChannels x bwIntra, GB/s */
    public double totalIntra() {
        return nChannels * bwIntra;
    }
}
