package dev.collsim.simulator.network;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Routes a transfer between two GPUs on a {@link NetworkModel}. Inside a host: least-cost paths striped over
 * equal-cost links ({@link HostPaths}). Between hosts: GPU to its nearest working NIC (least cost; ties go to the
 * NIC on the GPU's own rail), NIC to NIC through the switches ({@link FabricPaths}: ECMP or spraying), then to
 * the receiving GPU. With PXN ({@link RoutingOptions#pxn()}), when the receiver's NIC is on another rail, the
 * sender first moves the data over NVLink to the GPU next to its host's NIC on that rail, so the network part
 * stays on one rail (NCCL 2.12+ PXN; rails as {@link Nic#rail()}). Routes are cached per (GPU pair, channel when
 * ECMP makes them differ), up to {@value #CACHE_LIMIT} entries. Not thread-safe: make one per simulation.
 */
public final class Router {

    /** Largest number of entries a route or segment cache keeps. */
    static final int CACHE_LIMIT = 1 << 18;

    private final NetworkModel m;
    private final HostPaths host;
    private final FabricPaths fabric;
    private final Map<Long, Route> cache = new HashMap<>();
    private final Map<Integer, Integer> nearestNic = new HashMap<>();
    private final Map<Long, int[]> railProxy = new HashMap<>();
    private final Map<Long, RouteBuilder.Segment> hostSegments = new HashMap<>();
    private final Map<Long, RouteBuilder.Segment> fabricSegments = new HashMap<>();

    /** @param model the indexed topology */
    public Router(NetworkModel model) {
        this.m = model;
        this.host = new HostPaths(model);
        this.fabric = new FabricPaths(model);
    }

    /** @return the model routed on */
    public NetworkModel model() {
        return m;
    }

    /**
     * @param src     sending GPU
     * @param dst     receiving GPU, another GPU
     * @param channel NCCL channel (hashed by ECMP), {@code 0 <= channel < 2048}
     * @return the route
     * @throws IllegalArgumentException when a GPU is not in the model, src equals dst, or no working path exists
     *                                  (message names the devices)
     */
    public Route route(Gpu src, Gpu dst, int channel) {
        int s = m.indexOf(src);
        int d = m.indexOf(dst);
        if (s < 0 || d < 0) {
            throw new IllegalArgumentException("GPU " + (s < 0 ? src.id() : dst.id()) + " is not in topology "
                    + m.topology().name());
        }
        return route(s, d, channel);
    }

    Route route(int s, int d, int channel) {
        if (s == d) {
            throw new IllegalArgumentException("transfer from " + m.vertex(s).id() + " to itself");
        }
        if (channel < 0 || channel >= 2048) {
            throw new IllegalArgumentException("channel must be in [0, 2048), got " + channel);
        }
        boolean sameHost = m.vertex(s).host() == m.vertex(d).host();
        boolean perChannel = !sameHost && m.routing().multipath() == Multipath.ECMP;
        long key = (((long) s * m.vertexCount() + d) * 2048 + (perChannel ? channel : 2047)) * 0x9E3779B97F4A7C15L;
        Route r = cache.get(key);
        if (r == null) {
            r = compute(s, d, channel, sameHost);
            bounded(cache).put(key, r);
        }
        return r;
    }

    private Route compute(int s, int d, int channel, boolean sameHost) {
        RouteBuilder b = new RouteBuilder(m);
        if (sameHost) {
            inHost(s, d, b);
            return b.build();
        }
        int sn = nearestNic(s);
        int dn = nearestNic(d);
        int from = s;
        int viaNic = sn;
        int dr = fabric.rail(dn);
        if (m.routing().pxn() && dr >= 0 && fabric.rail(sn) != dr) {
            int[] proxy = proxy(m.vertex(s).host(), dr);
            if (proxy != null && proxy[0] != s) {
                inHost(s, proxy[0], b);
                from = proxy[0];
                viaNic = proxy[1];
            } else if (proxy != null) {
                viaNic = proxy[1];
            }
        }
        inHost(from, viaNic, b);
        betweenHosts(viaNic, dn, channel, b);
        inHost(dn, d, b);
        return b.build();
    }

    /**
     * Keeps a cache below {@value #CACHE_LIMIT} entries by emptying it when full: an AllToAll on n ranks routes
     * n(n-1) distinct pairs once each, and keeping them all would make memory grow as n^2.
     */
    private static <V> Map<Long, V> bounded(Map<Long, V> cache) {
        if (cache.size() >= CACHE_LIMIT) {
            cache.clear();
        }
        return cache;
    }

    /** Adds the NIC-to-NIC part, computed once per NIC pair (and channel under ECMP). */
    private void betweenHosts(int a, int z, int channel, RouteBuilder b) {
        int ch = m.routing().multipath() == Multipath.ECMP ? channel : 2047;
        long key = ~((((long) a * m.vertexCount() + z) * 2048 + ch) * 0x9E3779B97F4A7C15L);
        RouteBuilder.Segment seg = fabricSegments.get(key);
        if (seg == null) {
            RouteBuilder part = new RouteBuilder(m);
            fabric.add(a, z, channel, part);
            seg = part.segment();
            bounded(fabricSegments).put(key, seg);
        }
        b.add(seg, 1.0);
    }

    /** Adds the in-host part from u to v, computed once per pair (GPU-NIC parts recur in every route). */
    private void inHost(int u, int v, RouteBuilder b) {
        long key = ((long) u * m.vertexCount() + v) * 0x9E3779B97F4A7C15L;
        RouteBuilder.Segment seg = hostSegments.get(key);
        if (seg == null) {
            RouteBuilder part = new RouteBuilder(m);
            host.add(u, v, 1.0, part);
            seg = part.segment();
            bounded(hostSegments).put(key, seg);
        }
        b.add(seg, 1.0);
    }

    /**
     * @param gpu GPU vertex
     * @return its nearest working NIC vertex
     * @throws IllegalArgumentException when its host has no working NIC reachable from it
     */
    int nearestNic(int gpu) {
        return nearestNic.computeIfAbsent(gpu, g -> {
            int best = -1;
            double bestCost = Double.POSITIVE_INFINITY;
            int ownRail = m.vertex(g) instanceof Gpu x ? x.index() : -1;
            int[] nics = Arrays.stream(m.hostVertices(m.vertex(g).host()))
                    .filter(v -> m.vertex(v) instanceof Nic && fabric.usable(v)).toArray();
            double[] cost = host.costs(g, nics);
            for (int i = 0; i < nics.length; i++) {
                double c = cost[i];
                boolean better = c < bestCost - 1e-9 || (Math.abs(c - bestCost) < 1e-9
                        && fabric.rail(nics[i]) == ownRail && fabric.rail(best) != ownRail);
                if (Double.isFinite(c) && better) {
                    best = nics[i];
                    bestCost = c;
                }
            }
            if (best < 0) {
                throw new IllegalArgumentException("GPU " + m.vertex(g).id() + " has no working NIC (all failed or"
                        + " unreachable)");
            }
            return best;
        });
    }

    /** @return {proxy GPU, NIC} on host h for rail r, or null when the host has no working NIC on that rail */
    private int[] proxy(int h, int rail) {
        return railProxy.computeIfAbsent(((long) h << 20) | rail, k -> {
            for (int v : m.hostVertices(h)) {
                if (m.vertex(v) instanceof Nic nic && nic.rail() == rail && fabric.usable(v)) {
                    int best = -1;
                    for (int g : m.hostVertices(h)) {
                        if (m.vertex(g) instanceof Gpu gpu && nearestNic(g) == v
                                && (best < 0 || gpu.index() == rail)) {
                            best = g;
                        }
                    }
                    return best < 0 ? null : new int[] {best, v};
                }
            }
            return null;
        });
    }
}
