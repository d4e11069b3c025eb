package dev.collsim.simulator;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.network.RankPlacement;
import java.util.Objects;

/**
 * Another job sharing the fabric in a {@link FlowRequest}: by default NCCL's choice of schedule and channels for its
 * own ranks and size.
 *
 * @param name       job name (timeline and notes)
 * @param collective collective
 * @param sizeBytes  nccl-tests size, bytes, {@code >= 0}
 * @param nRanks     ranks, {@code >= 1}
 * @param placement  how its ranks are placed on the GPUs the main job and earlier jobs left
 * @param override   replacements of NCCL's schedule and channel count
 * @param startUs    start time, microseconds, {@code >= 0}
 */
public record FlowJob(String name, Collective collective, long sizeBytes, int nRanks, RankPlacement placement,
        FlowChoice.Override override, double startUs) {

    /** @throws IllegalArgumentException on a negative size or start, or no ranks */
    public FlowJob {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(collective, "collective");
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(override, "override");
        if (sizeBytes < 0 || nRanks < 1 || !(startUs >= 0)) {
            throw new IllegalArgumentException("job " + name + ": size, ranks and start must be >= 0, >= 1, >= 0");
        }
    }
}
