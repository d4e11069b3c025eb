package dev.collsim.simulator.channel;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PathType;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One NCCL node (a host, or the hosts of one multi-node NVLink domain) as NCCL's search sees it: its devices, its directed links with NCCL-view capacities
 * ({@link NcclBandwidth}), and the paths between the GPUs taking part and between those GPUs and the host's
 * NICs, chosen the way NCCL's {@code src/graph/paths.cc} does (fact sheet §5.1): a path's type is the worst link
 * class along it (PCIe between two switches is PXB, PCIe touching a CPU is PHB, an SMP link is SYS, NVLink
 * through a GPU is NVB); among paths, the better type wins, then the higher bottleneck bandwidth, then fewer
 * hops. GPU pairs farther than {@code NCCL_P2P_LEVEL} (default PXB), or all pairs with
 * {@code NCCL_P2P_DISABLE=1}, go through a CPU; GPU-NIC paths worse than PXB use PXN (through an NVLink peer
 * close to the NIC) unless {@code NCCL_PXN_DISABLE=1}.
 *
 * <p>Only devices of the host are considered; network switches are outside. This class is mutable only in its
 * remaining-capacity array, which the search resets.
 */
final class HostModel {

    final List<Gpu> gpus;
    final List<Nic> nics;
    final boolean hasNvSwitch;
    final int minSm;
    final double[] capacity;
    final HostPath[][] gpuToGpu;
    final HostPath[][] nicToGpu;
    final HostPath[][] gpuToNic;
    final double[] nicSpeed;
    final List<Cpu> cpus;
    private final Topology topo;
    private final List<Device> devices = new ArrayList<>();
    private final Map<Device, Integer> index = new HashMap<>();
    private final List<List<int[]>> adj = new ArrayList<>();
    private final List<LinkType> linkTypes = new ArrayList<>();
    private final List<int[]> linkEnds = new ArrayList<>();

    HostModel(Topology topo, Set<Integer> hosts, List<Gpu> used, NcclSettings settings) {
        this.gpus = List.copyOf(used);
        this.topo = topo;
        Map<Device, Integer> rep = new HashMap<>();
        Map<String, Integer> switchRep = new HashMap<>();
        List<Device> sorted = topo.graph().vertexSet().stream()
                .filter(d -> hosts.contains(d.host()) || d instanceof NvSwitch && d.host() < 0
                        && reachesHost(topo, d, hosts))
                .sorted(Comparator.comparing(Device::id)).toList();
        for (Device d : sorted) {
            if (d instanceof NvSwitch sw) {
                // NCCL joins all NVSwitch chips of one NVLink domain into one NVS node (fact sheet §5.3)
                Integer r = switchRep.get(sw.host() + "/" + sw.domain());
                if (r != null) {
                    rep.put(d, r);
                    continue;
                }
                switchRep.put(sw.host() + "/" + sw.domain(), devices.size());
            }
            rep.put(d, devices.size());
            index.put(d, devices.size());
            devices.add(d);
            adj.add(new ArrayList<>());
        }
        List<Double> caps = new ArrayList<>();
        Map<Long, Integer> parallel = new HashMap<>();
        for (Device d : sorted) {
            int u = rep.get(d);
            for (Link l : topo.outgoing(d)) {
                Device t = topo.target(l);
                Integer v = rep.get(t);
                if (v == null || v == u) {
                    continue;
                }
                double bw = NcclBandwidth.of(l, d, t);
                long key = ((long) u * devices.size() + v) * LinkType.values().length + l.type().ordinal();
                Integer existing = parallel.get(key);
                if (existing != null) {
                    caps.set(existing, caps.get(existing) + bw); // parallel links of one type add up
                    continue;
                }
                parallel.put(key, caps.size());
                adj.get(u).add(new int[] {v, caps.size()});
                caps.add(bw);
                linkTypes.add(l.type());
                linkEnds.add(new int[] {u, v});
            }
        }
        capacity = caps.stream().mapToDouble(Double::doubleValue).toArray();
        // A NIC that is not cabled to the fabric (e.g. a DGX storage NIC) carries no collective traffic: when any
        // NIC of these hosts has a network link, only cabled NICs count.
        List<Nic> allNics = devices.stream().filter(Nic.class::isInstance).map(Nic.class::cast).toList();
        boolean anyCabled = allNics.stream().anyMatch(n -> isCabled(topo, n));
        nics = allNics.stream().filter(n -> !anyCabled || isCabled(topo, n))
                .sorted(Comparator.comparingInt((Nic n) -> n.rail() < 0 ? Integer.MAX_VALUE : n.rail())
                        .thenComparing(Nic::id)).toList();
        nicSpeed = nics.stream().mapToDouble(n -> n.speed().gbps()).toArray();
        cpus = devices.stream().filter(Cpu.class::isInstance).map(Cpu.class::cast).toList();
        hasNvSwitch = devices.stream().anyMatch(NvSwitch.class::isInstance);
        minSm = gpus.stream().mapToInt(Gpu::sm).min().orElse(0);
        int g = gpus.size();
        gpuToGpu = new HostPath[g][g];
        gpuToNic = new HostPath[g][nics.size()];
        nicToGpu = new HostPath[nics.size()][g];
        PathType p2pLevel = settings.p2pLevel().orElse(PathType.PXB);
        for (int i = 0; i < g; i++) {
            HostPath[] best = shortest(index.get(gpus.get(i)), !settings.nvbDisable());
            for (int j = 0; j < g; j++) {
                if (i == j) {
                    continue;
                }
                HostPath p = best[index.get(gpus.get(j))];
                if (p == null || settings.p2pDisable() || p.type().ordinal() > p2pLevel.ordinal()) {
                    p = throughCpu(i, index.get(gpus.get(j)), p);
                }
                gpuToGpu[i][j] = p;
            }
            for (int n = 0; n < nics.size(); n++) {
                gpuToNic[i][n] = best[index.get(nics.get(n))];
            }
        }
        for (int n = 0; n < nics.size(); n++) {
            HostPath[] best = shortest(index.get(nics.get(n)), false);
            for (int j = 0; j < g; j++) {
                nicToGpu[n][j] = best[index.get(gpus.get(j))];
            }
        }
        if (!settings.pxnDisable()) {
            applyPxn();
        }
    }

    private static boolean reachesHost(Topology topo, Device sw, Set<Integer> hosts) {
        return topo.outgoing(sw).stream().anyMatch(l -> hosts.contains(topo.target(l).host()));
    }

    /** Replaces GPU-NIC paths worse than PXB by PXN paths through an NVLink peer whose own path is <= PXB. */
    private void applyPxn() {
        for (int i = 0; i < gpus.size(); i++) {
            for (int n = 0; n < nics.size(); n++) {
                HostPath own = gpuToNic[i][n];
                if (own != null && own.type().atMost(PathType.PXB)) {
                    continue;
                }
                HostPath bestPxn = null;
                for (int p = 0; p < gpus.size(); p++) {
                    HostPath hop = gpuToGpu[i][p];
                    HostPath peerNic = gpuToNic[p][n];
                    if (p == i || hop == null || peerNic == null || hop.type() != PathType.NVL
                            || !peerNic.type().atMost(PathType.PXB)) {
                        continue;
                    }
                    HostPath cand = hop.concat(peerNic, PathType.PXN);
                    if (bestPxn == null || cand.bandwidth() > bestPxn.bandwidth()) {
                        bestPxn = cand;
                    }
                }
                if (bestPxn != null) {
                    gpuToNic[i][n] = bestPxn;
                    nicToGpu[n][i] = reverse(bestPxn);
                }
            }
        }
    }

    private HostPath reverse(HostPath p) {
        int[] rev = new int[p.links().length];
        double bw = Double.MAX_VALUE;
        for (int k = 0; k < rev.length; k++) {
            int l = p.links()[p.links().length - 1 - k];
            rev[k] = findLink(linkEnds.get(l)[1], linkEnds.get(l)[0]);
            if (rev[k] < 0) {
                return p;
            }
            bw = Math.min(bw, capacity[rev[k]]);
        }
        return new HostPath(p.type(), bw, rev);
    }

    private int findLink(int from, int to) {
        for (int[] e : adj.get(from)) {
            if (e[0] == to) {
                return e[1];
            }
        }
        return -1;
    }

    private HostPath throughCpu(int gpuIdx, int target, HostPath fallback) {
        HostPath best = null;
        HostPath[] fromGpu = shortest(index.get(gpus.get(gpuIdx)), false);
        for (Cpu c : cpus) {
            HostPath a = fromGpu[index.get(c)];
            HostPath b = a == null ? null : shortest(index.get(c), false)[target];
            if (a == null || b == null) {
                continue;
            }
            HostPath cand = a.concat(b, a.type().max(b.type()).max(PathType.PHB));
            if (best == null || cand.compareTo(best) < 0) {
                best = cand;
            }
        }
        return best == null ? fallback : best;
    }

    private PathType linkClass(int link, boolean viaGpu) {
        int[] ends = linkEnds.get(link);
        Device a = devices.get(ends[0]);
        Device b = devices.get(ends[1]);
        return switch (linkTypes.get(link)) {
            case NVLINK -> viaGpu ? PathType.NVB : PathType.NVL;
            case PCIE -> a instanceof Cpu || b instanceof Cpu ? PathType.PHB
                    : a instanceof PcieSwitch && b instanceof PcieSwitch ? PathType.PXB : PathType.PIX;
            case C2C -> PathType.C2C;
            case SMP -> PathType.SYS;
            case NET -> PathType.NET;
            case LOC -> PathType.LOC;
        };
    }

    /** Label-setting search from one device: best (type, bandwidth, hops) path to every device of the host. */
    private HostPath[] shortest(int src, boolean allowNvb) {
        HostPath[] best = new HostPath[devices.size()];
        best[src] = new HostPath(PathType.LOC, Double.MAX_VALUE, new int[0]);
        java.util.PriorityQueue<Object[]> pq = new java.util.PriorityQueue<>(
                (x, y) -> ((HostPath) x[1]).compareTo((HostPath) y[1]));
        pq.add(new Object[] {src, best[src]});
        boolean[] done = new boolean[devices.size()];
        while (!pq.isEmpty()) {
            Object[] top = pq.poll();
            int u = (Integer) top[0];
            if (done[u]) {
                continue;
            }
            done[u] = true;
            HostPath pu = (HostPath) top[1];
            Device du = devices.get(u);
            boolean relay = u == src || du instanceof NvSwitch || du instanceof PcieSwitch || du instanceof Cpu;
            boolean gpuRelay = du instanceof Gpu && u != src && allowNvb;
            if (!relay && !gpuRelay) {
                continue;
            }
            for (int[] e : adj.get(u)) {
                int v = e[0];
                int l = e[1];
                if (done[v] || gpuRelay && linkTypes.get(l) != LinkType.NVLINK
                        || gpuRelay && pu.links().length > 0 && linkTypes.get(pu.links()[pu.links().length - 1])
                        != LinkType.NVLINK) {
                    continue;
                }
                PathType t = pu.type().max(linkClass(l, gpuRelay));
                HostPath cand = pu.extend(t, capacity[l], l);
                if (best[v] == null || cand.compareTo(best[v]) < 0) {
                    best[v] = cand;
                    pq.add(new Object[] {v, cand});
                }
            }
        }
        return best;
    }

    /** @return most NVLink + PCIe bandwidth out of any GPU, NCCL's {@code totalBw} (max of PCI, sum of NVLink) */
    double totalBw() {
        double total = 0;
        for (Gpu g : gpus) {
            double nvl = 0;
            double pci = 0;
            for (int[] e : adj.get(index.get(g))) {
                if (linkTypes.get(e[1]) == LinkType.NVLINK) {
                    nvl += capacity[e[1]];
                } else if (linkTypes.get(e[1]) == LinkType.PCIE || linkTypes.get(e[1]) == LinkType.C2C) {
                    pci = Math.max(pci, capacity[e[1]]);
                }
            }
            total = Math.max(total, Math.max(nvl, pci));
        }
        return total;
    }

    /** @return the NVLink bandwidth (NCCL view) from a GPU to NVSwitches, GB/s, 0 if none */
    double nvSwitchBw(int gpu) {
        double bw = 0;
        for (int[] e : adj.get(index.get(gpus.get(gpu)))) {
            if (linkTypes.get(e[1]) == LinkType.NVLINK && devices.get(e[0]) instanceof NvSwitch) {
                bw += capacity[e[1]];
            }
        }
        return bw;
    }

    /** @return the NVSwitch links of a GPU, both directions: [out links..., in links...] */
    int[][] nvSwitchLinks(int gpu) {
        List<Integer> out = new ArrayList<>();
        List<Integer> in = new ArrayList<>();
        int gi = index.get(gpus.get(gpu));
        for (int[] e : adj.get(gi)) {
            if (linkTypes.get(e[1]) == LinkType.NVLINK && devices.get(e[0]) instanceof NvSwitch) {
                out.add(e[1]);
                int r = findLink(e[0], gi);
                if (r >= 0) {
                    in.add(r);
                }
            }
        }
        return new int[][] {out.stream().mapToInt(Integer::intValue).toArray(),
            in.stream().mapToInt(Integer::intValue).toArray()};
    }

    /**
     * @return physical per-direction NVLink bandwidth of the weakest used GPU (sum over its NVLinks), or its best
     *         PCIe/C2C link when it has no NVLink, GB/s
     */
    double physicalScaleUpBw() {
        double min = Double.MAX_VALUE;
        for (Gpu g : gpus) {
            double nvl = 0;
            double other = 0;
            for (Link l : topo.outgoing(g)) {
                if (l.type() == LinkType.NVLINK) {
                    nvl += l.bandwidth().gbps();
                } else {
                    other = Math.max(other, l.bandwidth().gbps());
                }
            }
            min = Math.min(min, nvl > 0 ? nvl : other);
        }
        return min == Double.MAX_VALUE ? 0 : min;
    }

    private static boolean isCabled(Topology topo, Nic n) {
        return topo.graph().outgoingEdgesOf(n).stream().anyMatch(l -> l.type() == LinkType.NET);
    }
}
