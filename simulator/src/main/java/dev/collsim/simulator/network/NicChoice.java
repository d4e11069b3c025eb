package dev.collsim.simulator.network;

import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.paths.DevicePath;
import dev.collsim.topology.paths.Hop;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;

/**
 * Which NIC a GPU's traffic to another host leaves or enters by, and through which GPU, for the {@link Router}: a
 * GPU's nearest working NIC (NCCL's local-NIC rule, {@link HostPaths#nearestNic}, over the NICs that work and that
 * working links reach; ties go to the NIC on the GPU's own rail), the PXN proxy of a host for a rail (NCCL 2.12+
 * PXN; rails as {@link Nic#rail()}), NCCL's PXN relay GPU on the path from a GPU to a NIC ({@link PathFinder}: PXN
 * through the NIC's local GPU, otherwise direct), and the NIC at a position of NCCL's graph ({@link ChannelNets}).
 * Answers are computed on first use and kept (a number linear in GPUs and rails). Not thread-safe: one per router.
 */
final class NicChoice {

    private static final int[] NO_PROXY = new int[0];

    private final NetworkModel m;
    private final InHostRoutes host;
    private final FabricPaths fabric;
    /** NCCL's intra-host paths: whether a GPU reaches a NIC by PXN, and through which GPU. */
    private final PathFinder paths;
    /** Per GPU vertex: its nearest working NIC, -1 until computed. */
    private final int[] nearestNic;
    /** Per host and rail: {proxy GPU, NIC} for PXN, computed on first use. */
    private final int[][][] proxies;
    /** Per host: its NIC vertices in NCCL's NET device order ({@link Nic#NET_DEV_ORDER}), on first use. */
    private final int[][] netDevs;

    /**
     * @param model  the indexed topology
     * @param host   its in-host routes (the cost of reaching each NIC)
     * @param fabric its fabric paths (which NICs work, their rails)
     */
    NicChoice(NetworkModel model, InHostRoutes host, FabricPaths fabric) {
        this.m = model;
        this.host = host;
        this.fabric = fabric;
        this.paths = PathFinder.of(model.topology(), new PathFinder.Options(true, model.routing().pxn()));
        this.nearestNic = new int[model.vertexCount()];
        Arrays.fill(nearestNic, -1);
        this.proxies = new int[model.hostCount()][][];
        this.netDevs = new int[model.hostCount()][];
    }

    /**
     * @param h        host
     * @param position position among the host's NICs in NCCL's NET device order ({@link ChannelNets}, {@link
     *                 Nic#NET_DEV_ORDER})
     * @return the NIC's vertex
     * @throws UnroutableException when the host has no such NIC or it does not work
     */
    int hostNic(int h, int position) {
        if (netDevs[h] == null) {
            netDevs[h] = Arrays.stream(m.hostVertices(h)).filter(v -> m.vertex(v) instanceof Nic).boxed()
                    .sorted(Comparator.comparing(v -> (Nic) m.vertex(v), Nic.NET_DEV_ORDER))
                    .mapToInt(Integer::intValue).toArray();
        }
        int[] nics = netDevs[h];
        if (position >= nics.length || !fabric.usable(nics[position])) {
            throw new UnroutableException("host " + h + " has no working NIC number " + position + " of NCCL's graph ("
                    + nics.length + " NICs)");
        }
        return nics[position];
    }

    /**
     * The GPU through which NCCL sends from GPU s to NIC nic: the PXN relay of NCCL's path ({@link PathFinder},
     * NCCL 2.30 {@code src/graph/paths.cc}: a PXN path goes over NVLink to the NIC's local GPU, then to the NIC), s itself
     * when NCCL's path to that NIC is direct (not PXN), or {@code fallback} when the relay no longer reaches the NIC
     * as its nearest working NIC (failed links or NICs).
     */
    int ncclRelay(int s, int nic, int fallback) {
        DevicePath p = paths.path(m.vertex(s), m.vertex(nic));
        if (p.type() != PathType.PXN) {
            return s;
        }
        for (Hop h : p.hops()) {
            if (h.to() instanceof Gpu) {
                int relay = m.indexOf(h.to());
                return relay >= 0 && nearestNic(relay) == nic ? relay : fallback;
            }
        }
        return fallback;
    }

    /**
     * @param gpu GPU vertex
     * @return its nearest working NIC vertex
     * @throws IllegalArgumentException when its host has no working NIC reachable from it
     */
    int nearestNic(int gpu) {
        if (nearestNic[gpu] < 0) {
            nearestNic[gpu] = computeNearestNic(gpu);
        }
        return nearestNic[gpu];
    }

    private int computeNearestNic(int g) {
        int[] nics = Arrays.stream(m.hostVertices(m.vertex(g).host()))
                .filter(v -> m.vertex(v) instanceof Nic && fabric.usable(v)).toArray();
        double[] cost = host.costs(g, nics);
        Set<Device> working = new HashSet<>();
        for (int i = 0; i < nics.length; i++) {
            if (Double.isFinite(cost[i])) {
                working.add(m.vertex(nics[i]));
            }
        }
        Gpu gpu = (Gpu) m.vertex(g);
        return paths.host(gpu.host()).nearestNic(gpu, working::contains).map(m::indexOf)
                .orElseThrow(() -> new UnroutableException("GPU " + gpu.id() + " has no working NIC (all failed or"
                        + " unreachable)"));
    }

    /** @return {proxy GPU, NIC} on host h for rail r, or null when the host has no working NIC on that rail */
    int[] proxy(int h, int rail) {
        if (proxies[h] == null) {
            proxies[h] = new int[rail + 1][];
        } else if (proxies[h].length <= rail) {
            proxies[h] = Arrays.copyOf(proxies[h], rail + 1);
        }
        if (proxies[h][rail] == null) {
            int[] p = computeProxy(h, rail);
            proxies[h][rail] = p == null ? NO_PROXY : p;
        }
        return proxies[h][rail] == NO_PROXY ? null : proxies[h][rail];
    }

    private int[] computeProxy(int h, int rail) {
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
    }
}
