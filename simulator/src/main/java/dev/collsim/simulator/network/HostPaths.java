package dev.collsim.simulator.network;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import java.util.Arrays;

/**
 * Least-cost paths inside one host, split over all equal-cost paths in proportion to link bandwidth (NVLink
 * traffic is striped over every link and NVSwitch). Only NVSwitches, PCIe switches and CPUs forward traffic; GPUs
 * and NICs are endpoints (PXN, which forwards through a GPU, is composed by {@link Router}). Link costs follow
 * NCCL's preference for better path types (NCCL 2.30 {@code src/graph/paths.cc}: type first, then bandwidth,
 * then hops): NVLink/C2C/LOC 1, PCIe 4, inter-CPU (SYS) 16, network 64 per link. Not thread-safe (scratch
 * arrays).
 */
final class HostPaths {

    private final NetworkModel m;
    private final double[] dist;
    private final double[] frac;

    HostPaths(NetworkModel m) {
        this.m = m;
        this.dist = new double[m.vertexCount()];
        this.frac = new double[m.vertexCount()];
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
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
     * Cost of the least-cost path from {@code from} to {@code to} inside their host.
     *
     * @return the cost, or infinity when there is none
     */
    double cost(int from, int to) {
        int[] verts = m.hostVertices(m.vertex(from).host());
        reverseDistances(verts, to);
        double c = dist[from];
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
        int[] verts = m.hostVertices(m.vertex(from).host());
        reverseDistances(verts, to);
        if (Double.isInfinite(dist[from])) {
            reset(verts);
            throw new IllegalArgumentException("no working path inside host " + m.vertex(from).host() + " from "
                    + m.vertex(from).id() + " to " + m.vertex(to).id());
        }
        Integer[] order = Arrays.stream(verts).filter(v -> Double.isFinite(dist[v])).boxed()
                .sorted((a, b) -> Double.compare(dist[b], dist[a])).toArray(Integer[]::new);
        frac[from] = fraction;
        for (int u : order) {
            if (u == to || frac[u] == 0 || (u != from && !forwards(m.vertex(u)))) {
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
        if (w != to && !forwards(m.vertex(w))) {
            return false;
        }
        if (m.vertex(w).host() != m.vertex(u).host() || Double.isInfinite(dist[w])) {
            return false;
        }
        return Math.abs(dist[u] - (cost(m.link(l).type()) + dist[w])) < 1e-9;
    }

    /** Label-correcting distances to {@code to} over the host's vertices (a host has tens of devices). */
    private void reverseDistances(int[] verts, int to) {
        dist[to] = 0;
        boolean changed = true;
        for (int round = 0; changed && round <= verts.length; round++) {
            changed = false;
            for (int v : verts) {
                if (v == to) {
                    continue;
                }
                for (int l : m.out(v)) {
                    int w = m.target(l);
                    if (Double.isInfinite(dist[w]) || (w != to && !forwards(m.vertex(w)))
                            || m.vertex(w).host() != m.vertex(v).host()) {
                        continue;
                    }
                    double c = cost(m.link(l).type()) + dist[w];
                    if (c < dist[v] - 1e-12) {
                        dist[v] = c;
                        changed = true;
                    }
                }
            }
        }
    }

    private void reset(int[] verts) {
        for (int v : verts) {
            dist[v] = Double.POSITIVE_INFINITY;
        }
    }
}
