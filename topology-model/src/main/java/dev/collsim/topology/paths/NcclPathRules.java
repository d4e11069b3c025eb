package dev.collsim.topology.paths;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * NCCL's adjustments after the breadth-first search (NCCL 2.30 {@code src/graph/paths.cc}
 * {@code ncclTopoComputePaths}), applied to one host's path table, in NCCL's order:
 * <ol>
 *   <li><b>P2P level</b>: a GPU pair farther apart than the P2P level (PXB; SYS on AMD x86 hosts with at most two
 *       GPUs; NCCL_P2P_LEVEL, or LOC with NCCL_P2P_DISABLE=1, overrides it, {@code ncclTopoCheckP2p}) is routed
 *       through the CPU nearest the destination GPU ({@code addInterStep});</li>
 *   <li><b>P2C</b>: a GPU reaching its CPU over C2C and a nearest NIC hanging off that CPU's PCIe gives P2C;</li>
 *   <li><b>PXN</b>: a GPU whose NIC path is worse than PXN, or slower than that of the NIC's nearest GPU, sends through
 *       that GPU when it is NVLink-connected (type NVL) and reaches the NIC at P2C or better with GPU Direct RDMA for
 *       sends ({@code ncclTopoCheckGdr} with {@code read=1}: NCCL_NET_GDR_READ and NCCL_NET_GDR_LEVEL); only in the
 *       GPU to NIC direction;</li>
 *   <li><b>GPU Direct RDMA</b>: a GPU-NIC path better than PHB whose NIC lacks GDR, or whose distance (the relay GPU's
 *       for a PXN path) is farther than the GDR level (NCCL_NET_GDR_LEVEL; default P2C, PXB with NCCL_NET_GDR_C2C=0),
 *       is routed through the GPU's nearest CPU, in both directions ({@code ncclTopoCheckGdr} with {@code read=0},
 *       so NCCL_NET_GDR_READ does not act here). On NCCL's socket transport no NIC has GDR: NCCL 2.28.9
 *       {@code src/graph/topo.cc} sets a NIC's {@code gdr} from {@code ptrSupport & NCCL_PTR_CUDA}, and
 *       {@code src/transport/net_socket.cc} offers {@code NCCL_PTR_HOST} only.</li>
 * </ol>
 * Merged types follow {@code mergePathType}: the maximum, except C2C with PHB gives P2C.
 */
final class NcclPathRules {

    private final List<Device> endpoints;
    private final Map<Device, Integer> index = new IdentityHashMap<>();
    private final DevicePath[][] p;
    private final List<Gpu> gpus;
    private final List<Nic> nics;
    private final List<Cpu> cpus;
    private final boolean hostMemoryNet;

    /**
     * @param hostMemoryNet true when the network transport reads and writes host memory only (NCCL's socket
     *                      transport): no NIC has GPU Direct RDMA
     */
    NcclPathRules(List<Gpu> gpus, List<Nic> nics, List<Cpu> cpus, DevicePath[][] p, boolean hostMemoryNet) {
        this.gpus = gpus;
        this.hostMemoryNet = hostMemoryNet;
        this.nics = nics;
        this.cpus = cpus;
        this.endpoints = new ArrayList<>(gpus);
        endpoints.addAll(nics);
        endpoints.addAll(cpus);
        for (int i = 0; i < endpoints.size(); i++) {
            index.put(endpoints.get(i), i);
        }
        this.p = p;
    }

    void apply(PathFinder.Options options) {
        boolean amd = !cpus.isEmpty() && cpus.stream().allMatch(
                c -> c.vendor().toLowerCase(Locale.ROOT).contains("amd") && c.arch().startsWith("x86"));
        p2pLevel(options.p2pLevelInForce(amd, gpus.size()));
        p2c();
        pxnAndGdr(options);
    }

    private DevicePath get(Device a, Device b) {
        return p[index.get(a)][index.get(b)];
    }

    private void set(Device a, Device b, DevicePath path) {
        p[index.get(a)][index.get(b)] = path;
    }

    private Cpu localCpu(Device d) {
        Cpu best = null;
        int bestHops = 0;
        for (Cpu c : cpus) {
            int hops = get(d, c).hopCount();
            if (hops > 0 && (best == null || hops < bestHops)) {
                best = c;
                bestHops = hops;
            }
        }
        return best;
    }

    private void p2pLevel(PathType level) {
        for (Gpu g : gpus) {
            Cpu c = localCpu(g);
            for (Gpu src : gpus) {
                if (src != g && c != null && get(src, g).type().ordinal() > level.ordinal()) {
                    DevicePath a = get(src, c);
                    DevicePath b = get(c, g);
                    set(src, g, compose(a, b, merge(a.type(), b.type())));
                }
            }
        }
    }

    private void p2c() {
        for (Gpu g : gpus) {
            Cpu c = localCpu(g);
            if (c == null) {
                continue;
            }
            for (Nic n : localNics(g)) {
                if (merge(get(g, c).type(), get(n, c).type()) == PathType.P2C) {
                    set(g, n, retype(get(g, n), PathType.P2C));
                    set(n, g, retype(get(n, g), PathType.P2C));
                }
            }
        }
    }

    /** @return the GPU's local NICs by NCCL's rule ({@link HostPaths#local}) on the paths as they stand */
    private List<Nic> localNics(Gpu g) {
        return HostPaths.local(nics, n -> get(g, n));
    }

    private Gpu localGpu(Nic n) {
        Gpu best = null;
        for (Gpu g : gpus) {
            if (best == null || HostPaths.better(get(g, n), get(best, n))) {
                best = g;
            }
        }
        return best != null && get(best, n).type() != PathType.DIS ? best : null;
    }

    /** NCCL's distance and NIC checks of {@code ncclTopoCheckGdr}: GDR-capable NIC, path at most the GDR level. */
    private boolean gdr(Nic n, DevicePath gpuToNic, PathType level) {
        return n.gdr() && !hostMemoryNet && gpuToNic.type().ordinal() <= level.ordinal();
    }

    /**
     * The read (send) condition of {@code ncclTopoCheckGdr}: NCCL_NET_GDR_READ when set; by default (-2) on for sm80
     * and newer, before sm80 only when the GPU has an NVL path to another GPU or is the host's only GPU.
     */
    private boolean gdrRead(Gpu g, Boolean userRead) {
        if (userRead != null) {
            return userRead;
        }
        if (g.sm() >= 80 || gpus.size() == 1) {
            return true;
        }
        return gpus.stream().anyMatch(o -> o != g && get(g, o).type() == PathType.NVL);
    }

    private void pxnAndGdr(PathFinder.Options options) {
        PathType level = options.gdrLevelOrDefault();
        for (Nic n : nics) {
            Gpu peer = localGpu(n);
            for (Gpu g : gpus) {
                if (options.pxn() && peer != null && peer != g) {
                    DevicePath peerNic = get(peer, n);
                    DevicePath mine = get(g, n);
                    if (peerNic.type().ordinal() <= PathType.P2C.ordinal() && gdr(n, peerNic, level)
                            && gdrRead(peer, options.gdrRead())
                            && get(peer, g).type().ordinal() <= PathType.NVL.ordinal()
                            && (peerNic.nccl().gbps() > mine.nccl().gbps()
                                || mine.type().ordinal() > PathType.PXN.ordinal())) {
                        set(g, n, compose(get(g, peer), peerNic, PathType.PXN));
                    }
                }
                DevicePath now = get(g, n);
                if (now.type().ordinal() < PathType.PHB.ordinal()) {
                    DevicePath distance = now.type() == PathType.PXN && peer != null ? get(peer, n) : now;
                    if (!gdr(n, distance, level)) {
                        Cpu c = localCpu(g);
                        if (c != null) {
                            DevicePath nc = get(n, c);
                            DevicePath cg = get(c, g);
                            set(n, g, compose(nc, cg, merge(nc.type(), cg.type())));
                            DevicePath gc = get(g, c);
                            DevicePath cn = get(c, n);
                            set(g, n, compose(gc, cn, merge(gc.type(), cn.type())));
                        }
                    }
                }
            }
        }
    }

    static PathType merge(PathType a, PathType b) {
        PathType max = a.max(b);
        PathType min = max == a ? b : a;
        return max == PathType.PHB && min == PathType.C2C ? PathType.P2C : max;
    }

    private static DevicePath retype(DevicePath d, PathType t) {
        PathType type = t.ordinal() < d.type().ordinal() ? t : d.type();
        return new DevicePath(d.from(), d.to(), type, d.hops(), d.physical(), d.nccl(), d.smiLabel());
    }

    static DevicePath compose(DevicePath a, DevicePath b, PathType type) {
        List<Hop> hops = new ArrayList<>(a.hops());
        hops.addAll(b.hops());
        Bandwidth phys = a.physical().min(b.physical());
        Bandwidth nccl = a.nccl().min(b.nccl());
        return new DevicePath(a.from(), b.to(), type, hops, phys, nccl, a.smiLabel());
    }
}
