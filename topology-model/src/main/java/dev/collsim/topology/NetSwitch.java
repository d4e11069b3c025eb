package dev.collsim.topology;

import java.util.Objects;

/**
 * A network switch of the scale-out fabric.
 *
 * @param id    unique id
 * @param tier  LEAF, SPINE or CORE
 * @param plane network plane (0 if the fabric has one)
 */
public record NetSwitch(String id, Tier tier, int plane) implements Device {

    /** Switch tiers of a fat-tree. */
    public enum Tier {
        /** Top-of-rack / leaf. */ LEAF,
        /** Spine. */ SPINE,
        /** Core (third tier). */ CORE
    }

    /** Validates the id. */
    public NetSwitch {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tier, "tier");
    }

    @Override
    public int host() {
        return -1;
    }

    @Override
    public String ncclType() {
        return "NET";
    }
}
