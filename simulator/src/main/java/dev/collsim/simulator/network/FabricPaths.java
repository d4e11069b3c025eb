package dev.collsim.simulator.network;

import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Shortest paths (in hops) between two NICs through the network switches, taken either by per-hop ECMP hashing
 * or by ideal spraying ({@link Multipath}). Hop distances to each switch are computed once by breadth-first
 * search over the switch graph and cached, so memory grows with switches squared (hundreds of switches for
 * 16,384 GPUs), not with NICs. Not thread-safe (caches).
 */
final class FabricPaths {

    private static final int INF = Integer.MAX_VALUE / 4;

    private final NetworkModel m;
    private final int[] switchVertex;
    private final int[][] switchIn;
    private final int[][] toSwitch;
    private final int[][] attach;
    /**
     * Forwarding table for NICs attached to one switch: {@code forward[t][u]} lists the working links out of switch
     * u on a shortest path to switch t, in {@link NetworkModel#out} order (the same candidates, in the same order,
     * as {@link #nextHops(int, int, int[], int[])}); filled on first use.
     */
    private final int[][][] forward;
    /** Per NIC attached to one switch: the links from that switch to the NIC; filled on first use. */
    private final int[][] lastHop;
    private static final int UNKNOWN = -2;
    /** Per NIC: its only attached switch, -1 when several or none, {@link #UNKNOWN} until computed. */
    private final int[] onlyAttached;
    /** Per vertex: its rail when it is a NIC, else -1. */
    private final int[] rails;
    /** Per NIC: its links to switches; filled on first use. */
    private final int[][] uplinks;
    private int[] hops = new int[16];

    FabricPaths(NetworkModel m) {
        this.m = m;
        switchVertex = new int[m.switchCount()];
        toSwitch = new int[m.switchCount()][];
        forward = new int[m.switchCount()][][];
        attach = new int[m.vertexCount()][];
        lastHop = new int[m.vertexCount()][];
        uplinks = new int[m.vertexCount()][];
        rails = new int[m.vertexCount()];
        for (int v = 0; v < rails.length; v++) {
            rails[v] = m.vertex(v) instanceof Nic n ? n.rail() : -1;
        }
        onlyAttached = new int[m.vertexCount()];
        Arrays.fill(onlyAttached, UNKNOWN);
        List<List<Integer>> in = new ArrayList<>();
        for (int s = 0; s < m.switchCount(); s++) {
            in.add(new ArrayList<>());
        }
        for (int v = 0; v < m.vertexCount(); v++) {
            int s = m.switchIndex(v);
            if (s >= 0) {
                switchVertex[s] = v;
                for (int l : m.out(v)) {
                    int t = m.switchIndex(m.target(l));
                    if (t >= 0) {
                        in.get(t).add(s);
                    }
                }
            }
        }
        switchIn = new int[m.switchCount()][];
        for (int s = 0; s < m.switchCount(); s++) {
            switchIn[s] = in.get(s).stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /** @return true when the NIC has a working network link out of its host */
    boolean usable(int nic) {
        for (int l : m.out(nic)) {
            if (m.link(l).type() == LinkType.NET && m.vertex(m.target(l)).host() != m.vertex(nic).host()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Adds the path(s) from NIC {@code a} to NIC {@code b} to the route.
     *
     * @param key hash key of the transfer (channel), used by ECMP
     * @throws IllegalArgumentException when no working path joins the NICs
     */
    void add(int a, int b, long key, RouteBuilder route) {
        for (int l : m.out(a)) {
            if (m.target(l) == b) {
                route.add(l, 1.0);
                return;
            }
        }
        if (m.routing().multipath() == Multipath.ECMP) {
            int only = onlyAttached(b);
            if (only >= 0) {
                walkSingleAttached(a, b, only, key, route);
                return;
            }
        }
        int[] att = attached(b);
        if (m.routing().multipath() == Multipath.ECMP) {
            // one path: the hop-by-hop walk below with a single entry of weight 1, without the maps
            int u = a;
            for (int hop = 0; ; hop++) {
                if (hops.length < m.out(u).length) {
                    hops = new int[m.out(u).length];
                }
                int[] cand = hops;
                int n = nextHops(u, b, att, hops);
                if (n == 0) {
                    throw new UnroutableException("no working network path from " + m.vertex(a).id() + " to "
                            + m.vertex(b).id());
                }
                long h = mix(m.routing().seed(), m.hashKey(a), m.hashKey(b), key, hop);
                int l = cand[(int) Math.floorMod(h, (long) n)];
                route.add(l, 1.0);
                if (m.target(l) == b) {
                    return;
                }
                u = m.target(l);
            }
        }
        Map<Integer, Double> level = new HashMap<>();
        level.put(a, 1.0);
        int hop = 0;
        while (!level.isEmpty()) {
            Map<Integer, Double> next = new HashMap<>();
            for (Map.Entry<Integer, Double> e : level.entrySet()) {
                int u = e.getKey();
                List<Integer> cand = nextHops(u, b, att);
                if (cand.isEmpty()) {
                    throw new UnroutableException("no working network path from " + m.vertex(a).id() + " to "
                            + m.vertex(b).id());
                }
                if (m.routing().multipath() == Multipath.ECMP) {
                    long h = mix(m.routing().seed(), m.hashKey(a), m.hashKey(b), key, hop);
                    int pick = (int) Math.floorMod(h, (long) cand.size());
                    int l = cand.get(pick);
                    route.add(l, e.getValue());
                    if (m.target(l) != b) {
                        next.merge(m.target(l), e.getValue(), Double::sum);
                    }
                } else {
                    double total = 0;
                    for (int l : cand) {
                        total += m.capacity(l);
                    }
                    for (int l : cand) {
                        double s = e.getValue() * m.capacity(l) / total;
                        route.add(l, s);
                        if (m.target(l) != b) {
                            next.merge(m.target(l), s, Double::sum);
                        }
                    }
                }
            }
            level = next;
            hop++;
        }
    }

    /** Working links out of u that lie on a shortest path to NIC b. */
    private List<Integer> nextHops(int u, int b, int[] att) {
        int[] out = new int[m.out(u).length];
        int n = nextHops(u, b, att, out);
        List<Integer> best = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            best.add(out[i]);
        }
        return best;
    }

    /** Same as {@link #nextHops(int, int, int[])} into {@code out} (at least out-degree long); returns how many. */
    private int nextHops(int u, int b, int[] att, int[] out) {
        int count = 0;
        int bestD = INF;
        for (int l : m.out(u)) {
            int w = m.target(l);
            int d;
            if (w == b) {
                d = 0;
            } else if (m.switchIndex(w) >= 0) {
                d = distance(m.switchIndex(w), att);
            } else {
                continue;
            }
            if (d < bestD) {
                bestD = d;
                count = 0;
            }
            if (d == bestD && d < INF) {
                out[count++] = l;
            }
        }
        return count;
    }

    /** Hops from switch s to the NIC whose attached switches are att (0 hops to reach an attached switch). */
    private int distance(int s, int[] att) {
        int d = INF;
        for (int a : att) {
            d = Math.min(d, toSwitch(a)[s]);
        }
        return d >= INF ? INF : d + 1;
    }

    private int[] attached(int nic) {
        if (attach[nic] == null) {
            Set<Integer> sw = new TreeSet<>();
            for (int l : m.in(nic)) {
                int s = m.switchIndex(m.source(l));
                if (s >= 0) {
                    sw.add(s);
                }
            }
            attach[nic] = sw.stream().mapToInt(Integer::intValue).toArray();
        }
        return attach[nic];
    }

    /**
     * The ECMP walk of {@link #add} for a NIC b attached to one switch t: the same candidates in the same order,
     * from the forwarding tables (first hop from NIC a by the general rule).
     */
    private void walkSingleAttached(int a, int b, int t, long key, RouteBuilder route) {
        long seed = m.routing().seed();
        int u = a;
        for (int hop = 0; ; hop++) {
            int su = m.switchIndex(u);
            int[] cand;
            int n;
            if (su >= 0) {
                cand = su == t ? lastHop(b, u) : forward(t, su);
                n = cand.length;
            } else if (hop == 0 && (cand = uplinks(a)).length == 1) {
                int w = m.switchIndex(m.target(cand[0]));
                n = w == t || toSwitch(t)[w] < INF ? 1 : 0;
            } else {
                if (hops.length < m.out(u).length) {
                    hops = new int[m.out(u).length];
                }
                cand = hops;
                n = nextHops(u, b, attached(b), hops);
            }
            if (n == 0) {
                throw new UnroutableException("no working network path from " + m.vertex(a).id() + " to "
                        + m.vertex(b).id());
            }
            int l = cand[(int) Math.floorMod(mix(seed, m.hashKey(a), m.hashKey(b), key, hop), (long) n)];
            route.add(l, 1.0);
            if (m.target(l) == b) {
                return;
            }
            u = m.target(l);
        }
    }

    /** @return the links from NIC a to switches, in {@link NetworkModel#out} order (cached per NIC) */
    private int[] uplinks(int a) {
        if (uplinks[a] == null) {
            uplinks[a] = Arrays.stream(m.out(a)).filter(l -> m.switchIndex(m.target(l)) >= 0).toArray();
        }
        return uplinks[a];
    }

    /** @return the switch index NIC b is attached to when exactly one, else -1 (cached per NIC) */
    private int onlyAttached(int b) {
        int v = onlyAttached[b];
        if (v == UNKNOWN) {
            int[] att = attached(b);
            v = att.length == 1 ? att[0] : -1;
            onlyAttached[b] = v;
        }
        return v;
    }

    /** @return the links from switch u, the only one attached to NIC b, to b, in {@link NetworkModel#out} order */
    private int[] lastHop(int b, int u) {
        if (lastHop[b] == null) {
            int[] out = new int[m.out(u).length];
            int count = 0;
            for (int l : m.out(u)) {
                if (m.target(l) == b) {
                    out[count++] = l;
                }
            }
            lastHop[b] = Arrays.copyOf(out, count);
        }
        return lastHop[b];
    }

    /** @return links out of switch su on a shortest path to switch t (su != t); see {@link #forward} */
    private int[] forward(int t, int su) {
        int[][] table = forward[t];
        if (table == null) {
            table = new int[switchVertex.length][];
            forward[t] = table;
        }
        if (table[su] == null) {
            int[] dist = toSwitch(t);
            int u = switchVertex[su];
            int[] out = new int[m.out(u).length];
            int count = 0;
            int best = INF;
            for (int l : m.out(u)) {
                int w = m.switchIndex(m.target(l));
                if (w < 0 || dist[w] >= INF) {
                    continue;
                }
                if (dist[w] < best) {
                    best = dist[w];
                    count = 0;
                }
                if (dist[w] == best) {
                    out[count++] = l;
                }
            }
            table[su] = Arrays.copyOf(out, count);
        }
        return table[su];
    }

    private int[] toSwitch(int target) {
        if (toSwitch[target] == null) {
            toSwitch[target] = bfs(target);
        }
        return toSwitch[target];
    }

    private int[] bfs(int t) {
        {
            int[] d = new int[switchVertex.length];
            Arrays.fill(d, INF);
            d[t] = 0;
            int[] queue = new int[switchVertex.length];
            int head = 0;
            int tail = 0;
            queue[tail++] = t;
            while (head < tail) {
                int y = queue[head++];
                for (int x : switchIn[y]) {
                    if (d[x] == INF) {
                        d[x] = d[y] + 1;
                        queue[tail++] = x;
                    }
                }
            }
            return d;
        }
    }

    /** SplitMix64 finalizer over the flow's fields: a well-mixed ECMP hash. */
    static long mix(long seed, int a, int b, long key, int hop) {
        long z = seed + 0x9E3779B97F4A7C15L * (1 + a) + 0xC2B2AE3D27D4EB4FL * (1 + b) + 0x165667B19E3779F9L * (1 + key)
                + 0x27D4EB2F165667C5L * (1 + hop);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** @return rail of a NIC vertex, or -1 */
    int rail(int nic) {
        return nic >= 0 ? rails[nic] : -1;
    }
}
