package dev.collsim.simulator.network;

import java.util.LinkedHashMap;
import java.util.Map;

/** Collects link shares and latency while a {@link Router} walks the segments of one route. Not thread-safe. */
final class RouteBuilder {

    private final NetworkModel model;
    private final Map<Integer, Double> shares = new LinkedHashMap<>();
    private double latency;

    RouteBuilder(NetworkModel model) {
        this.model = model;
    }

    /** Adds {@code share} of the transfer's bytes on link {@code l}. */
    void add(int l, double share) {
        shares.merge(l, share, Double::sum);
        latency += share * model.latency(l);
    }

    Route build() {
        int[] links = new int[shares.size()];
        double[] share = new double[shares.size()];
        int i = 0;
        for (Map.Entry<Integer, Double> e : shares.entrySet()) {
            links[i] = e.getKey();
            share[i] = Math.min(1.0, e.getValue());
            i++;
        }
        return new Route(links, share, latency, model);
    }
}
