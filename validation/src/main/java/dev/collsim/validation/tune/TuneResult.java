package dev.collsim.validation.tune;

import java.util.List;

/**
 * What {@link Tuner#sweep} found on one communicator.
 *
 * @param nNodes NCCL nodes of the communicator (the plugin file's {@code nNodes})
 * @param nRanks ranks (the plugin file's {@code nRanks})
 * @param band   the band gains were judged against
 * @param points every swept point
 * @param ranges the points joined into ranges (the table's rows)
 * @param lines  the tuner plugin file's lines: per collective, contiguous from the first swept size to the last
 */
public record TuneResult(int nNodes, int nRanks, TuningBand band, List<TunePoint> points, List<TuneRange> ranges,
        List<ConfigLine> lines) {

    /** Copies. */
    public TuneResult {
        points = List.copyOf(points);
        ranges = List.copyOf(ranges);
        lines = List.copyOf(lines);
    }

    /** @return the ranges where a change is advised */
    public List<TuneRange> recommended() {
        return ranges.stream().filter(TuneRange::recommended).toList();
    }
}
