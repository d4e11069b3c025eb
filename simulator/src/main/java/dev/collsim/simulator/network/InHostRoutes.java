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
 * and NICs are endpoints (PXN, which forwards through a GPU, is composed by {@link Router}). A multi-host NVLink
 * domain's switch (a GB200 NVL72 rack's NVLink switch trays: an {@link NvSwitch} of host -1, shared by the trays'
 * GPUs) belongs to every host it joins, so a tray's GPUs reach each other, and the other trays' GPUs of the domain,
 * over NVLink as NCCL's MNNVL clique does (NCCL 2.27.3 {@code src/graph/topo.cc} fuses the clique's topologies into
 * one node), not through the trays' CPUs. Link costs follow
 * NCCL's preference for better path types (NCCL 2.30 {@code src/graph/paths.cc}: type first, then bandwidth,
 * then hops): NVLink/LOC 1, C2C 2, PCIe 4, inter-CPU (SYS) 16, network 64 per link. C2C costs more than NVLink
 * because NCCL's path between two GPUs of one Grace (GB200) is their NVLink, not GPU-C2C-CPU-C2C-GPU: both are two
 * hops, and NCCL 2.27.3 {@code src/graph/paths.cc ncclTopoSetPaths} keeps the path of equal hops with more bandwidth
 * (NVLink5 900 GB/s against the 225 GB/s C2C share); at an equal cost the bytes would be split over both. Distances
 * come from Dijkstra's
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
    /** Per vertex: a multi-host NVLink domain's switch (host -1), part of every host it joins. */
    private final boolean[] shared;
    /** Vertices whose distance the current search set, to reset. */
    private int[] touched = new int[64];
    private int touchedSize;
    private long[] heap = new long[64];
    private int heapSize;

    InHostRoutes(NetworkModel m) {
        this.m = m;
        int n = m.vertexCount();
        this.dist = new double[n];
        this.frac = new double[n];
        this.forwards = new boolean[n];
        this.host = new int[n];
        this.shared = new boolean[n];
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
        for (int v = 0; v < n; v++) {
            forwards[v] = forwards(m.vertex(v));
            host[v] = m.vertex(v).host();
            shared[v] = m.vertex(v) instanceof NvSwitch && host[v] < 0;
        }
    }

    static double cost(LinkType t) {
        return switch (t) {
            case NVLINK, LOC -> 1;
            case C2C -> 2;
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
        dijkstra(from, false);
        double[] c = new double[targets.length];
        for (int i = 0; i < targets.length; i++) {
            c[i] = dist[targets[i]];
        }
        reset();
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
        dijkstra(to, true);
        int[] verts = Arrays.copyOf(touched, touchedSize);
        if (Double.isInfinite(dist[from])) {
            reset();
            throw new UnroutableException("no working path inside host " + host[from] + " from "
                    + m.vertex(from).id() + " to " + m.vertex(to).id());
        }
        int[] order = Arrays.stream(verts).filter(v -> dist[v] <= dist[from])
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
        reset();
    }

    /** @return true when a link from u to w stays inside one host, or enters or leaves a shared domain switch */
    private boolean sameScope(int u, int w) {
        return host[w] == host[u] || shared[u] || shared[w];
    }

    private boolean tight(int u, int l, int to) {
        int w = m.target(l);
        if ((w != to && !forwards[w]) || !sameScope(u, w) || Double.isInfinite(dist[w])) {
            return false;
        }
        return Math.abs(dist[u] - (cost(m.link(l).type()) + dist[w])) < 1e-9;
    }

    /**
     * Dijkstra inside the host of {@code root} and the multi-host NVLink domain switches it reaches: distances to it
     * ({@code reverse}) or from it. Only the root and forwarding devices are expanded, so paths never pass through a
     * GPU or a NIC (a domain switch reaches the other trays' GPUs, which end a path). Costs are small integers, so a
     * heap entry packs (distance, vertex) into one long.
     */
    private void dijkstra(int root, boolean reverse) {
        heapSize = 0;
        touchedSize = 0;
        dist[root] = 0;
        touch(root);
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
                if (host[x] != host[root] && !shared[x] && !shared[u]) {
                    continue;
                }
                double c = d + cost(m.link(l).type());
                if (c < dist[x]) {
                    if (Double.isInfinite(dist[x])) {
                        touch(x);
                    }
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

    private void touch(int v) {
        if (touchedSize == touched.length) {
            touched = Arrays.copyOf(touched, touchedSize * 2);
        }
        touched[touchedSize++] = v;
    }

    private void reset() {
        for (int i = 0; i < touchedSize; i++) {
            dist[touched[i]] = Double.POSITIVE_INFINITY;
        }
        touchedSize = 0;
    }
}
