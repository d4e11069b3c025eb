package dev.collsim.simulator.network;

import java.util.Arrays;

/** Collects link shares and latency while a {@link Router} walks the segments of one route. Not thread-safe. */
final class RouteBuilder {

    private final NetworkModel model;
    private int[] links = new int[16];
    private double[] shares = new double[16];
    private int size;
    private double latency;

    RouteBuilder(NetworkModel model) {
        this.model = model;
    }

    /** Adds {@code share} of the transfer's bytes on link {@code l} (routes are short: a linear merge). */
    void add(int l, double share) {
        latency += share * model.latency(l);
        for (int i = 0; i < size; i++) {
            if (links[i] == l) {
                shares[i] += share;
                return;
            }
        }
        if (size == links.length) {
            links = Arrays.copyOf(links, size * 2);
            shares = Arrays.copyOf(shares, size * 2);
        }
        links[size] = l;
        shares[size++] = share;
    }

    /** Adds a recorded segment scaled by {@code fraction}. */
    void add(Segment s, double fraction) {
        for (int i = 0; i < s.links().length; i++) {
            add(s.links()[i], s.shares()[i] * fraction);
        }
    }

    /** @return what was added so far, as a reusable segment */
    Segment segment() {
        return new Segment(Arrays.copyOf(links, size), Arrays.copyOf(shares, size));
    }

    Route build() {
        double[] share = new double[size];
        for (int i = 0; i < size; i++) {
            share[i] = Math.min(1.0, shares[i]);
        }
        return new Route(Arrays.copyOf(links, size), share, latency, model);
    }

    /** Links and shares of a part of a route, kept to be reused (arrays not copied; never modified). */
    record Segment(int[] links, double[] shares) {
    }
}
