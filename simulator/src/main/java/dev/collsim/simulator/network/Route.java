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
        for (int i = 0; i < links.length; i++) {
            if (!(share[i] > 0 && share[i] <= 1 + 1e-12)) {
                throw new IllegalArgumentException("share " + share[i] + " of link " + links[i] + " not in (0, 1]");
            }
            best = Math.min(best, model.capacity(links[i]) / share[i]);
        }
        this.aloneRate = best;
    }

    /** @return a route made of one segment (its arrays are shared: segments are never modified) */
    static Route of(RouteBuilder.Segment s) {
        return new Route(s.links(), s.shares(), s.latency(), s.aloneRate());
    }

    /**
     * @param parts segments with pairwise disjoint links (e.g. sender's host, fabric, receiver's host)
     * @return the route through them in order: links concatenated, latencies summed, alone rate the least
     */
    static Route concat(RouteBuilder.Segment... parts) {
        int n = 0;
        for (RouteBuilder.Segment p : parts) {
            n += p.links().length;
        }
        int[] links = new int[n];
        double[] share = new double[n];
        double latency = 0;
        double alone = Double.POSITIVE_INFINITY;
        int at = 0;
        for (RouteBuilder.Segment p : parts) {
            int k = p.links().length;
            System.arraycopy(p.links(), 0, links, at, k);
            System.arraycopy(p.shares(), 0, share, at, k);
            at += k;
            latency += p.latency();
            alone = Math.min(alone, p.aloneRate());
        }
        return new Route(links, share, latency, alone);
    }

    private Route(int[] links, double[] share, double latencyUs, double aloneRate) {
        this.links = links;
        this.share = share;
        this.latencyUs = latencyUs;
        this.aloneRate = aloneRate;
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

    @Override
    public String toString() {
        return "Route" + Arrays.toString(links) + Arrays.toString(share);
    }
}
