package dev.collsim.topology.paths;

import dev.collsim.topology.Link;
import dev.collsim.units.Bandwidth;

/** Which bandwidth of a link to read: the datasheet value or the one NCCL assigns. */
public enum BandwidthView {
    /** The link's physical (datasheet) bandwidth per direction, {@link Link#bandwidth()}. */
    PHYSICAL,
    /** NCCL's bandwidth per direction ({@link Link#ncclBandwidth()}, nccl-model.md sections 5.2 and 5.3). */
    NCCL;

    /** @param link a link; @return its bandwidth in this view, GB/s per direction */
    public Bandwidth of(Link link) {
        return this == PHYSICAL ? link.bandwidth() : link.ncclBandwidth();
    }
}
