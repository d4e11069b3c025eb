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
    /** Bytes of one member still to send at time {@link #updatedAt} (kept lazily: valid only at that time). */
    double remaining;
    /** Time, microseconds, at which {@link #remaining} is exact; the flow sent at {@link #rate} since. */
    double updatedAt;
    /** Projected finish time at the current rate, microseconds ({@code updatedAt + remaining / rate}). */
    double finishAt = Double.POSITIVE_INFINITY;
    double activateAt;
    double startUs;
    /** Current rate of one member, bytes per microsecond, set by {@link MaxMinFairShare}. */
    double rate;
    /** Removed from the {@link MaxMinFairShare} (finished); it is dropped at the next recomputation. */
    boolean gone;
    /** Position in the simulation's finish-time heap, or -1. */
    int heapPos = -1;
    /** Position in the simulation's array of flows in flight, or -1. */
    int slot = -1;

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
        this.updatedAt = this.activateAt;
    }

    /**
     * Sets a new rate at time {@code now}: first accounts the bytes sent at the old rate since {@link #updatedAt},
     * then projects the finish time. A rate equal to the current one changes nothing (the projection stays valid).
     *
     * @param newRate rate of one member, bytes per microsecond, {@code >= 0}
     * @param now     current time, microseconds, {@code >= updatedAt}
     * @return true when the rate changed
     */
    boolean rerate(double newRate, double now) {
        if (newRate == rate) {
            return false;
        }
        if (now > updatedAt) {
            remaining = Math.max(0, remaining - rate * (now - updatedAt));
            updatedAt = now;
        }
        rate = newRate;
        finishAt = newRate > 0 ? updatedAt + remaining / newRate : Double.POSITIVE_INFINITY;
        return true;
    }
}
