package dev.collsim.simulator.network;

import java.util.Arrays;

/**
 * Collects link shares and latency while a {@link Router} walks the segments of one route. Reusable:
 * {@link #reset()} starts the next route. A link added twice has its shares summed; each link's position is kept
 * in an array over all links of the model (marked by a per-route stamp), so adding is O(1) however long the route.
 * Not thread-safe.
 */
final class RouteBuilder {

    private final NetworkModel model;
    /** Per model link: the stamp of the route that last added it. */
    private final int[] stamp;
    /** Per model link: its position in {@link #links} when its stamp is current. */
    private final int[] position;
    private int current = 1;
    private int[] links = new int[16];
    private double[] shares = new double[16];
    private int size;
    private double latency;

    RouteBuilder(NetworkModel model) {
        this.model = model;
        this.stamp = new int[model.linkCount()];
        this.position = new int[model.linkCount()];
    }

    /** Empties the builder for the next route. @return this builder */
    RouteBuilder reset() {
        size = 0;
        latency = 0;
        if (++current == Integer.MAX_VALUE) {
            Arrays.fill(stamp, 0);
            current = 1;
        }
        return this;
    }

    /** Adds {@code share} of the transfer's bytes on link {@code l}. */
    void add(int l, double share) {
        latency += share * model.latency(l);
        if (stamp[l] == current) {
            shares[position[l]] += share;
            return;
        }
        if (size == links.length) {
            links = Arrays.copyOf(links, size * 2);
            shares = Arrays.copyOf(shares, size * 2);
        }
        stamp[l] = current;
        position[l] = size;
        links[size] = l;
        shares[size++] = share;
    }

    /** Adds a recorded segment scaled by {@code fraction}. */
    void add(Segment s, double fraction) {
        int[] ls = s.links();
        double[] sh = s.shares();
        for (int i = 0; i < ls.length; i++) {
            add(ls[i], sh[i] * fraction);
        }
    }

    /**
     * @return what was added so far, as a reusable segment (shares above 1 from rounding clipped to 1)
     * @throws IllegalArgumentException when nothing was added or a share is not above 0
     */
    Segment segment() {
        double[] share = new double[size];
        double alone = Double.POSITIVE_INFINITY;
        for (int i = 0; i < size; i++) {
            if (!(shares[i] > 0 && shares[i] <= 1 + 1e-12)) {
                throw new IllegalArgumentException("share " + shares[i] + " of link " + links[i] + " not in (0, 1]");
            }
            share[i] = Math.min(1.0, shares[i]);
            alone = Math.min(alone, model.capacity(links[i]) / share[i]);
        }
        if (size == 0) {
            throw new IllegalArgumentException("a route needs at least one link");
        }
        return new Segment(Arrays.copyOf(links, size), share, latency, alone);
    }

    /**
     * Links and shares of a part of a route, kept to be reused (arrays not copied; never modified), with its
     * latency (microseconds) and its bottleneck rate alone (min over links of capacity / share, bytes per
     * microsecond).
     */
    record Segment(int[] links, double[] shares, double latency, double aloneRate) {
    }
}
