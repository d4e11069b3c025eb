package dev.collsim.simulator.network;

/** Mutable state of one (possibly merged) flow in a simulation. */
final class SimFlow {
    final int job;
    final int step;
    final long copy;
    final int src;
    final int dst;
    final int channel;
    final Route route;
    final double bytes;
    int weight;
    double remaining;
    double activateAt;
    double startUs;
    /** Current rate of one member, bytes per microsecond, set by {@link MaxMinFairShare}. */
    double rate;
    /** Removed from the {@link MaxMinFairShare} (finished); it is dropped at the next recomputation. */
    boolean gone;

    SimFlow(int job, int step, long copy, int src, int dst, int channel, Route route, double bytes, double now) {
        this.job = job;
        this.step = step;
        this.copy = copy;
        this.src = src;
        this.dst = dst;
        this.channel = channel;
        this.route = route;
        this.bytes = bytes;
        this.weight = 1;
        this.remaining = bytes;
        this.startUs = now;
        this.activateAt = now + route.latencyUs();
    }
}
