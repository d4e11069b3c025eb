package dev.collsim.simulator.network;

import java.util.Arrays;

/**
 * Where one transfer's bytes go: the directed links it crosses and the fraction of its bytes on each (1 on a
 * single path; less where it is split over equal-cost paths), its latency and its rate when alone on the fabric.
 * Instances are immutable; the arrays are never exposed.
 */
public final class Route {

    private final int[] links;
    private final double[] share;
    private final double latencyUs;
    private final double aloneRate;
    private final int bottleneck;

    /**
     * @param links     link indices of a {@link NetworkModel}, distinct, at least one
     * @param share     fraction of the transfer's bytes on each link, in (0, 1]
     * @param latencyUs latency in microseconds: sum over links of share x link latency (the mean path latency)
     * @param model     the model, for capacities
     * @throws IllegalArgumentException when there is no link or a share is outside (0, 1]
     */
    Route(int[] links, double[] share, double latencyUs, NetworkModel model) {
        if (links.length == 0 || links.length != share.length) {
            throw new IllegalArgumentException("a route needs at least one link and one share per link");
        }
        this.links = links.clone();
        this.share = share.clone();
        this.latencyUs = latencyUs;
        double best = Double.POSITIVE_INFINITY;
        int arg = -1;
        for (int i = 0; i < links.length; i++) {
            if (!(share[i] > 0 && share[i] <= 1 + 1e-12)) {
                throw new IllegalArgumentException("share " + share[i] + " of link " + links[i] + " not in (0, 1]");
            }
            double r = model.capacity(links[i]) / share[i];
            if (r < best) {
                best = r;
                arg = links[i];
            }
        }
        this.aloneRate = best;
        this.bottleneck = arg;
    }

    /** @return number of links */
    public int size() {
        return links.length;
    }

    /** @param i position; @return link index at that position */
    public int link(int i) {
        return links[i];
    }

    /** @param i position; @return fraction of the bytes on that link */
    public double share(int i) {
        return share[i];
    }

    /** @return latency in microseconds */
    public double latencyUs() {
        return latencyUs;
    }

    /**
     * @return the transfer's rate in bytes per microsecond when nothing else uses the fabric:
     *         min over links of capacity / share (the route's bottleneck bandwidth)
     */
    public double aloneRate() {
        return aloneRate;
    }

    /** @return index of the link that sets {@link #aloneRate()} */
    public int bottleneckLink() {
        return bottleneck;
    }

    @Override
    public String toString() {
        return "Route" + Arrays.toString(links) + Arrays.toString(share);
    }
}
