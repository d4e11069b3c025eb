package dev.collsim.simulator.network;

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
    SPRAY
}
