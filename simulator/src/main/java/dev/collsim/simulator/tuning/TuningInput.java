package dev.collsim.simulator.tuning;

import dev.collsim.topology.GraphPattern;
import dev.collsim.nccl.env.NcclSettings;
import java.util.Objects;

/**
 * Everything NCCL's tuning model reads at communicator init ({@code ncclTopoTuneModel}, NCCL 2.30.7
 * {@code src/graph/tuning.cc}; fact sheet §2.1). This record is immutable.
 *
 * @param graphs          the search graphs, after all ranks agreed
 * @param nRanks          ranks, >= 1
 * @param nNodes          hosts (NCCL "nodes"), in [1, nRanks]
 * @param minSm           minimum compute capability x 10 over ranks (selects the generation tables)
 * @param maxSm           maximum compute capability x 10 over ranks
 * @param cpu             CPU kind of the hosts
 * @param nvlsSupport     NVLink SHARP usable: NVSwitch, sm90+, multicast (and NCCL_NVLS_ENABLE not 0)
 * @param collNetSupport  a CollNet (SHARP) network plugin is present
 * @param hasNvSwitch     at least one NVSwitch in every host
 * @param maxLocalRanks   most ranks on one host
 * @param maxTreePattern  largest tree pattern over ranks ({@code maxTreePattern})
 * @param runtimeChannels comm.nChannels, the runtime channel count (used by the Ring/Simple plateau rule)
 * @param settings        NCCL environment settings
 * @param constants       the release's constant tables
 */
public record TuningInput(GraphSet graphs, int nRanks, int nNodes, int minSm, int maxSm, CpuKind cpu,
        boolean nvlsSupport, boolean collNetSupport, boolean hasNvSwitch, int maxLocalRanks,
        GraphPattern maxTreePattern, int runtimeChannels, NcclSettings settings, TuningConstants constants) {

    /** @throws IllegalArgumentException on inconsistent counts */
    public TuningInput {
        Objects.requireNonNull(graphs, "graphs");
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(maxTreePattern, "maxTreePattern");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(constants, "constants");
        if (nRanks < 1 || nNodes < 1 || nNodes > nRanks) {
            throw new IllegalArgumentException("need 1 <= nNodes <= nRanks, got nRanks=" + nRanks
                    + " nNodes=" + nNodes);
        }
        if (runtimeChannels < 1 || maxLocalRanks < 1) {
            throw new IllegalArgumentException("runtimeChannels and maxLocalRanks must be >= 1");
        }
        if (minSm > maxSm) {
            throw new IllegalArgumentException("minSm " + minSm + " > maxSm " + maxSm);
        }
    }

    /**
     * @param other constant tables of another release
     * @return this input with those constants
     */
    public TuningInput withConstants(TuningConstants other) {
        return new TuningInput(graphs, nRanks, nNodes, minSm, maxSm, cpu, nvlsSupport, collNetSupport, hasNvSwitch,
                maxLocalRanks, maxTreePattern, runtimeChannels, settings, other);
    }

    /** @return ranks per host, as NCCL's float {@code ppn = nRanks / nNodes} */
    public double ppn() {
        return (double) nRanks / nNodes;
    }

    /** @return NCCL's {@code index2}: 0 for one host, 1 for two, 2 for three or more */
    public int nodesIndex() {
        return nNodes == 1 ? 0 : nNodes == 2 ? 1 : 2;
    }

    /** @return the generation of the minimum compute capability */
    public GpuGeneration generation() {
        return GpuGeneration.of(minSm);
    }
}
