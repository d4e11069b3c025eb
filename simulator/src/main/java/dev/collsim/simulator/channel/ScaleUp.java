package dev.collsim.simulator.channel;

import dev.collsim.topology.LinkType;
import java.util.Locale;
import java.util.Objects;

/**
 * The fastest way out of the weakest used GPU of a node, as the physical bound and the {@code # Hardware:} line use
 * it: the sum of its NVLinks (through NVSwitches, or straight to its NVLink peers), or, when it has no NVLink, its
 * best PCIe or C2C link. Immutable.
 *
 * <p>The peer count matters for what the figure means: through an NVSwitch every GPU of the node is reached at the
 * full rate; NVLink bridges (H100 NVL, A100 PCIe pairs) reach one peer, and a ring of more GPUs crosses PCIe between
 * the pairs; without NVLink the GPU's own PCIe (or C2C) link carries all of its traffic.
 *
 * @param gbps          per-direction bandwidth, GB/s (1e9 B/s), >= 0
 * @param via           the link kind the figure is of: {@link LinkType#NVLINK}, {@link LinkType#PCIE} or
 *                      {@link LinkType#C2C}
 * @param nvlinkPeers   distinct GPUs the weakest GPU reaches over direct NVLinks (0 through NVSwitches or without
 *                      NVLink), >= 0
 * @param throughSwitch whether the NVLinks go to NVSwitches
 */
public record ScaleUp(double gbps, LinkType via, int nvlinkPeers, boolean throughSwitch) {

    /** A node with no GPU link in its topology. */
    public static final ScaleUp NONE = new ScaleUp(0, LinkType.PCIE, 0, false);

    /**
     * Validates.
     *
     * @throws IllegalArgumentException when gbps or nvlinkPeers is negative or not finite
     * @throws NullPointerException     when via is null
     */
    public ScaleUp {
        Objects.requireNonNull(via, "via");
        if (!(gbps >= 0) || Double.isInfinite(gbps) || nvlinkPeers < 0) {
            throw new IllegalArgumentException("gbps and nvlinkPeers must be finite and >= 0: " + gbps + ", "
                    + nvlinkPeers);
        }
    }

    /**
     * @param other another node's figure
     * @return the weaker of the two (the lower rate; at equal rates the one with fewer NVLink peers)
     */
    public ScaleUp weaker(ScaleUp other) {
        if (other.gbps != gbps) {
            return other.gbps < gbps ? other : this;
        }
        return other.nvlinkPeers < nvlinkPeers ? other : this;
    }

    /**
     * @return the figure in words: {@code 450.0 GB/s scale-up per GPU} through NVSwitches, {@code 300.0 GB/s NVLink
     *         per GPU to 1 peer (PCIe beyond it)} for direct NVLinks, {@code no NVLink: 31.5 GB/s PCIe per GPU}
     *         without NVLink
     */
    public String describe() {
        if (via != LinkType.NVLINK) {
            return String.format(Locale.ROOT, "no NVLink: %.1f GB/s %s per GPU", gbps,
                    via == LinkType.C2C ? "C2C" : "PCIe");
        }
        if (throughSwitch) {
            return String.format(Locale.ROOT, "%.1f GB/s scale-up per GPU", gbps);
        }
        return String.format(Locale.ROOT, "%.1f GB/s NVLink per GPU to %d peer%s (PCIe beyond %s)", gbps, nvlinkPeers,
                nvlinkPeers == 1 ? "" : "s", nvlinkPeers == 1 ? "it" : "them");
    }
}
