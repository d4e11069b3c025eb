package dev.collsim.simulator.network;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a flow between two NICs uses several equal-cost shortest paths through the switches. */
public enum Multipath {
    /**
     * Equal-cost multipath with a hash: at every switch the flow takes one of the equal-cost next hops, chosen
     * by a hash of (source NIC, destination NIC, channel, hop, seed), as ECMP switches hash a flow's header.
     * Two flows can collide on one link while another stays idle.
     */
    ECMP,
    /**
     * Ideal packet spraying: at every switch the flow splits over all equal-cost next hops in proportion to
     * their bandwidth (adaptive routing at its best).
     */
    SPRAY;

    /** @return the names as users write them, lower case, comma separated: {@code ecmp, spray} */
    public static String allowed() {
        return Arrays.stream(values()).map(Multipath::yamlName)
                .collect(Collectors.joining(", "));
    }

    /** @return the name as users write it, e.g. {@code ecmp} */
    public String yamlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param text a name, case-insensitive, surrounding blanks ignored
     * @return the mode
     * @throws IllegalArgumentException naming the allowed values
     */
    public static Multipath parse(String text) {
        for (Multipath m : values()) {
            if (m.name().equalsIgnoreCase(text.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a routing mode; allowed: " + allowed());
    }
}
