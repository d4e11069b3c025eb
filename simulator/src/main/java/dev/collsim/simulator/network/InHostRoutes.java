package dev.collsim.simulator.network;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import java.util.Arrays;

/**
 * How a flow's bytes cross one host's links: least-cost paths inside the host, split over all equal-cost paths in proportion to link bandwidth (NVLink
 * traffic is striped over every link and NVSwitch). Only NVSwitches, PCIe switches and CPUs forward traffic; GPUs
 * and NICs are endpoints (PXN, which forwards through a GPU, is composed by {@link Router}). Link costs follow
 * NCCL's preference for better path types (NCCL 2.30 {@code src/graph/paths.cc}: type first, then bandwidth,
 * then hops): NVLink/C2C/LOC 1, PCIe 4, inter-CPU (SYS) 16, network 64 per link. Distances come from Dijkstra's
 * algorithm restricted to the host. Which NIC a GPU uses is not decided here but by NCCL's rule
 * ({@link dev.collsim.topology.paths.HostPaths#nearestNic}); this class only spreads the bytes over the links to
 * it. Not thread-safe (scratch arrays).
 */
final class InHostRoutes {

    private final NetworkModel m;
    private final double[] dist;
    private final double[] frac;
    private final boolean[] forwards;
    private final int[] host;
    private long[] heap = new long[64];
    private int heapSize;

    InHostRoutes(NetworkModel m) {
        this.m = m;
        int n = m.vertexCount();
        this.dist = new double[n];
        this.frac = new double[n];
        this.forwards = new boolean[n];
        this.host = new int[n];
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
        for (int v = 0; v < n; v++) {
            forwards[v] = forwards(m.vertex(v));
            host[v] = m.vertex(v).host();
        }
    }

    static double cost(LinkType t) {
        return switch (t) {
            case NVLINK, C2C, LOC -> 1;
            case PCIE -> 4;
            case SMP -> 16;
            case NET -> 64;
        };
    }

    static boolean forwards(Device d) {
        return d instanceof NvSwitch || d instanceof PcieSwitch || d instanceof Cpu;
    }

    /**
     * Costs of the least-cost paths from {@code from} to each of {@code targets} inside their host.
     *
     * @return the costs, infinity where there is none
     */
    double[] costs(int from, int[] targets) {
        int[] verts = m.hostVertices(host[from]);
        dijkstra(from, false);
        double[] c = new double[targets.length];
        for (int i = 0; i < targets.length; i++) {
            c[i] = dist[targets[i]];
        }
        reset(verts);
        return c;
    }

    /**
     * Adds the equal-cost split of {@code fraction} of the bytes from {@code from} to {@code to} to the route.
     *
     * @throws IllegalArgumentException when no working path joins them inside the host
     */
    void add(int from, int to, double fraction, RouteBuilder route) {
        if (from == to) {
            return;
        }
        int[] verts = m.hostVertices(host[from]);
        dijkstra(to, true);
        if (Double.isInfinite(dist[from])) {
            reset(verts);
            throw new UnroutableException("no working path inside host " + host[from] + " from "
                    + m.vertex(from).id() + " to " + m.vertex(to).id());
        }
        int[] order = Arrays.stream(verts).filter(v -> Double.isFinite(dist[v]) && dist[v] <= dist[from])
                .boxed().sorted((a, b) -> Double.compare(dist[b], dist[a])).mapToInt(Integer::intValue).toArray();
        frac[from] = fraction;
        for (int u : order) {
            if (u == to || frac[u] == 0 || (u != from && !forwards[u])) {
                continue;
            }
            double total = 0;
            for (int l : m.out(u)) {
                if (tight(u, l, to)) {
                    total += m.capacity(l);
                }
            }
            for (int l : m.out(u)) {
                if (tight(u, l, to)) {
                    double s = frac[u] * m.capacity(l) / total;
                    route.add(l, s);
                    frac[m.target(l)] += s;
                }
            }
        }
        for (int v : verts) {
            frac[v] = 0;
        }
        reset(verts);
    }

    private boolean tight(int u, int l, int to) {
        int w = m.target(l);
        if ((w != to && !forwards[w]) || host[w] != host[u] || Double.isInfinite(dist[w])) {
            return false;
        }
        return Math.abs(dist[u] - (cost(m.link(l).type()) + dist[w])) < 1e-9;
    }

    /**
     * Dijkstra inside the host of {@code root}: distances to it ({@code reverse}) or from it. Only the root and
     * forwarding devices are expanded, so paths never pass through a GPU or a NIC. Costs are small integers, so
     * a heap entry packs (distance, vertex) into one long.
     */
    private void dijkstra(int root, boolean reverse) {
        heapSize = 0;
        dist[root] = 0;
        push(0, root);
        while (heapSize > 0) {
            long e = pop();
            int u = (int) (e & 0xFFFFFFFFL);
            double d = (double) (e >>> 32);
            if (d > dist[u] || (u != root && !forwards[u])) {
                continue;
            }
            for (int l : reverse ? m.in(u) : m.out(u)) {
                int x = reverse ? m.source(l) : m.target(l);
                if (host[x] != host[root]) {
                    continue;
                }
                double c = d + cost(m.link(l).type());
                if (c < dist[x]) {
                    dist[x] = c;
                    push((long) c, x);
                }
            }
        }
    }

    private void push(long d, int v) {
        if (heapSize == heap.length) {
            heap = Arrays.copyOf(heap, heapSize * 2);
        }
        long e = (d << 32) | v;
        int i = heapSize++;
        while (i > 0 && heap[(i - 1) / 2] > e) {
            heap[i] = heap[(i - 1) / 2];
            i = (i - 1) / 2;
        }
        heap[i] = e;
    }

    private long pop() {
        long top = heap[0];
        long last = heap[--heapSize];
        int i = 0;
        while (2 * i + 1 < heapSize) {
            int c = 2 * i + 1;
            if (c + 1 < heapSize && heap[c + 1] < heap[c]) {
                c++;
            }
            if (heap[c] >= last) {
                break;
            }
            heap[i] = heap[c];
            i = c;
        }
        if (heapSize > 0) {
            heap[i] = last;
        }
        return top;
    }

    private void reset(int[] verts) {
        for (int v : verts) {
            dist[v] = Double.POSITIVE_INFINITY;
        }
    }
}
