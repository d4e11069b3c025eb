package dev.collsim.simulator.network;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.NvSwitch;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Routes a transfer between two GPUs on a {@link NetworkModel}. Inside a host: least-cost paths striped over
 * equal-cost links ({@link InHostRoutes}). Between hosts: GPU to its nearest working NIC ({@link NicChoice}: NCCL's
 * local-NIC rule), NIC to NIC through the switches ({@link FabricPaths}: ECMP or spraying), then to the receiving
 * GPU. With PXN ({@link RoutingOptions#pxn()}), when the receiver's NIC is on another rail, the sender sends through
 * that host's NIC on the receiver's rail, so the network part stays on one rail (NCCL 2.12+ PXN); whether it first
 * moves the data over NVLink to a relay GPU, and to which, is NCCL's path from the sender to that NIC ({@link
 * NicChoice#ncclRelay}). Routes are cached per (GPU pair, channel when ECMP makes them differ) and fabric segments
 * per NIC pair in fixed-size {@link SetAssociativeCache}s of 2^{@value #CACHE_LOG2_SLOTS} slots, so memory does not
 * grow with the number of distinct pairs; in-host segments, a number linear in hosts, are kept exactly. Not
 * thread-safe: make one per simulation.
 */
public final class Router {

    /** Base-2 logarithm of the number of slots of each route or segment cache ({@link SetAssociativeCache}). */
    static final int CACHE_LOG2_SLOTS = 14;

    private final NetworkModel m;
    private final InHostRoutes host;
    private final FabricPaths fabric;
    private final RouteBuilder routeBuilder;
    private final RouteBuilder partBuilder;
    private final SetAssociativeCache<Route> cache = new SetAssociativeCache<>(CACHE_LOG2_SLOTS);
    /** The NICs and relay GPUs routes between hosts use. */
    private final NicChoice nics;
    private final Map<List<Gpu>, int[]> rankVertices = new IdentityHashMap<>();
    /** Per GPU vertex, per receiver rail + 1: the sender's side of its routes to other hosts. */
    private final Sender[][] senders;
    /** Per GPU vertex: the in-host part from its nearest NIC to it. */
    private final RouteBuilder.Segment[] receiver;
    /** In-host segments: at most (vertices of a host)^2 per host, so kept exactly. */
    private final LongMap<RouteBuilder.Segment> hostSegments = new LongMap<>();
    private final SetAssociativeCache<RouteBuilder.Segment> fabricSegments =
            new SetAssociativeCache<>(CACHE_LOG2_SLOTS);
    /** Per vertex: its multi-host NVLink domain switch, -1 for none, {@link #UNKNOWN} until computed. */
    private final int[] domainSwitch;
    private static final int UNKNOWN = -2;

    /** @param model the indexed topology */
    public Router(NetworkModel model) {
        this.m = model;
        this.host = new InHostRoutes(model);
        this.fabric = new FabricPaths(model);
        this.routeBuilder = new RouteBuilder(model);
        this.partBuilder = new RouteBuilder(model);
        this.nics = new NicChoice(model, host, fabric);
        this.senders = new Sender[model.vertexCount()][];
        this.receiver = new RouteBuilder.Segment[model.vertexCount()];
        this.domainSwitch = new int[model.vertexCount()];
        Arrays.fill(domainSwitch, UNKNOWN);
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

    /**
     * @param ranks GPUs of a job, rank order
     * @return their vertex indices, rank order (computed once per list: the list's identity is the key)
     * @throws IllegalArgumentException when a GPU is not in the model
     */
    int[] rankVertices(List<Gpu> ranks) {
        int[] v = rankVertices.get(ranks);
        if (v == null) {
            v = new int[ranks.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = m.indexOf(ranks.get(i));
                if (v[i] < 0) {
                    throw new IllegalArgumentException("GPU " + ranks.get(i).id() + " is not in topology "
                            + m.topology().name());
                }
            }
            rankVertices.put(ranks, v);
        }
        return v;
    }

    Route route(int s, int d, int channel) {
        return route(s, d, channel, -1, -1);
    }

    /**
     * @param exitNic  the position of the NIC the channel leaves s's host by ({@link ChannelNets}), or -1 for the
     *                 router's own choice (then {@code entryNic} is ignored)
     * @param entryNic the position of the NIC it enters d's host by
     * @return the route; one that crosses hosts under given NICs leaves s's host by NIC {@code exitNic} (over NCCL's
     *         PXN relay when that NIC is not local to s) and enters d's by {@code entryNic}. Routes are cached per
     *         channel under given NICs; jobs of one simulation that give NICs are taken to give the same ones for a
     *         (GPU pair, channel) (FlowPredictor's groups share one layout).
     */
    Route route(int s, int d, int channel, int exitNic, int entryNic) {
        if (s == d) {
            throw new IllegalArgumentException("transfer from " + m.vertex(s).id() + " to itself");
        }
        if (channel < 0 || channel >= 2048) {
            throw new IllegalArgumentException("channel must be in [0, 2048), got " + channel);
        }
        boolean sameHost = m.vertex(s).host() == m.vertex(d).host() || sameNvlinkDomain(s, d);
        boolean given = !sameHost && exitNic >= 0;
        boolean perChannel = !sameHost && (given || m.routing().multipath() == Multipath.ECMP);
        long key = (((long) s * m.vertexCount() + d) * 2048 + (perChannel ? channel : 2047)) * 2 + (given ? 1 : 0);
        Route r = cache.get(key);
        if (r == null) {
            r = given ? computeGiven(s, d, channel, exitNic, entryNic) : compute(s, d, channel, sameHost);
            cache.put(key, r);
        }
        return r;
    }

    /**
     * A route between hosts through the NICs NCCL's graph gives the channel: s to NIC {@code exitNic} of
     * its host, directly or through NCCL's PXN relay GPU ({@link NicChoice#ncclRelay}: NCCL 2.30 {@code
     * ncclTopoGetIntermediateRank}), the fabric, then NIC {@code entryNic} of d's host to d. Where the
     * fabric has no working path between the two NICs (a rail-only network under a graph that crosses NICs, where
     * NCCL needs NCCL_CROSS_NIC=0, or failed links) or a host lacks the NIC, the router's own choice ({@link
     * #compute}: PXN to the receiver's rail) carries the channel instead.
     */
    private Route computeGiven(int s, int d, int channel, int exitNic, int entryNic) {
        try {
            int out = nics.hostNic(m.vertex(s).host(), exitNic);
            int in = nics.hostNic(m.vertex(d).host(), entryNic);
            RouteBuilder.Segment between = betweenHosts(out, in, channel);
            int relay = nics.ncclRelay(s, out, s);
            RouteBuilder.Segment up = relay == s ? inHost(s, out) : throughProxy(s, relay, out);
            return Route.concat(up, between, inHost(in, d));
        } catch (UnroutableException e) {
            return compute(s, d, channel, false);
        }
    }

    /**
     * Whether two GPUs of different hosts share a multi-host NVLink domain (the trays of one GB200 NVL72 rack: both
     * linked to one {@link NvSwitch} of host -1). NCCL makes such a domain (its MNNVL clique) one node and joins its
     * GPUs over NVLink (NCCL 2.27.3 {@code src/graph/topo.cc} fuses the clique's topologies), so their route is the
     * in-domain one ({@link InHostRoutes}), not through the NICs.
     */
    private boolean sameNvlinkDomain(int s, int d) {
        int a = domainSwitch(s);
        return a >= 0 && a == domainSwitch(d);
    }

    /** @return the multi-host NVLink domain switch GPU vertex g is linked to, or -1 (computed once per vertex) */
    private int domainSwitch(int g) {
        if (domainSwitch[g] == UNKNOWN) {
            domainSwitch[g] = -1;
            for (int l : m.out(g)) {
                int w = m.target(l);
                if (m.vertex(w) instanceof NvSwitch && m.vertex(w).host() < 0) {
                    domainSwitch[g] = w;
                }
            }
        }
        return domainSwitch[g];
    }

    /**
     * Builds a route from cached segments: the sender's host part (through the PXN proxy when one is used), the
     * fabric part and the receiver's host part, whose links are disjoint (two hosts and the network between).
     */
    private Route compute(int s, int d, int channel, boolean sameHost) {
        if (sameHost) {
            return Route.of(inHost(s, d));
        }
        int dn = nics.nearestNic(d);
        Sender up = sender(s, fabric.rail(dn));
        RouteBuilder.Segment down = receiver[d];
        if (down == null) {
            down = inHost(dn, d);
            receiver[d] = down;
        }
        return Route.concat(up.segment(), betweenHosts(up.nic(), dn, channel), down);
    }

    /** The sender's side of a route to another host: the NIC its data leaves by and the in-host part to it. */
    private record Sender(int nic, RouteBuilder.Segment segment) {
    }

    /**
     * @param s  sending GPU vertex
     * @param dr rail of the receiver's NIC, -1 when none
     * @return the NIC s's data leaves by (its nearest, or with PXN the NIC on rail dr through the proxy GPU) and
     *         the in-host part to it; cached per (GPU, rail)
     */
    private Sender sender(int s, int dr) {
        Sender[] byRail = senders[s];
        int slot = dr + 1;
        if (byRail == null || byRail.length <= slot) {
            byRail = byRail == null ? new Sender[slot + 1] : Arrays.copyOf(byRail, slot + 1);
            senders[s] = byRail;
        }
        if (byRail[slot] == null) {
            int sn = nics.nearestNic(s);
            int viaNic = sn;
            RouteBuilder.Segment up = null;
            if (m.routing().pxn() && dr >= 0 && fabric.rail(sn) != dr) {
                int[] proxy = nics.proxy(m.vertex(s).host(), dr);
                if (proxy != null) {
                    int relay = nics.ncclRelay(s, proxy[1], proxy[0]);
                    up = relay == s ? null : throughProxy(s, relay, proxy[1]);
                    viaNic = proxy[1];
                }
            }
            byRail[slot] = new Sender(viaNic, up == null ? inHost(s, viaNic) : up);
        }
        return byRail[slot];
    }

    /** @return the NIC-to-NIC part, computed once per NIC pair (and channel under ECMP) */
    private RouteBuilder.Segment betweenHosts(int a, int z, int channel) {
        int ch = m.routing().multipath() == Multipath.ECMP ? channel : 2047;
        long key = ((long) a * m.vertexCount() + z) * 2048 + ch;
        RouteBuilder.Segment seg = fabricSegments.get(key);
        if (seg == null) {
            RouteBuilder part = partBuilder.reset();
            fabric.add(a, z, channel, part);
            seg = part.segment();
            fabricSegments.put(key, seg);
        }
        return seg;
    }

    /** @return the in-host part from u to v, computed once per pair (GPU-NIC parts recur in every route) */
    private RouteBuilder.Segment inHost(int u, int v) {
        long key = (long) u * m.vertexCount() + v;
        RouteBuilder.Segment seg = hostSegments.get(key);
        if (seg == null) {
            RouteBuilder part = partBuilder.reset();
            host.add(u, v, 1.0, part);
            seg = part.segment();
            hostSegments.put(key, seg);
        }
        return seg;
    }

    /**
     * @return GPU u to the PXN proxy GPU p, then p to NIC nic (links used by both parts carry both shares),
     *         computed once per (GPU, NIC)
     */
    private RouteBuilder.Segment throughProxy(int u, int p, int nic) {
        long key = ~((long) u * m.vertexCount() + nic);
        RouteBuilder.Segment seg = hostSegments.get(key);
        if (seg == null) {
            RouteBuilder.Segment first = inHost(u, p);
            RouteBuilder.Segment second = inHost(p, nic);
            RouteBuilder b = routeBuilder.reset();
            b.add(first, 1.0);
            b.add(second, 1.0);
            seg = b.segment();
            hostSegments.put(key, seg);
        }
        return seg;
    }
}
