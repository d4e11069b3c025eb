package dev.collsim.topology.paths;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Computes NCCL paths on a {@link Topology}: per host (all GPU, NIC and CPU pairs of the host, computed once on first
 * use and cached), and across hosts on demand. Thread-safe.
 *
 * <p>Across hosts ({@link CrossHostPaths}): two GPUs that share a multi-host NVLink switch (GB200 NVL72) are joined by
 * an NVL path; otherwise the path is the source GPU's nearest NIC path, the fabric route and the destination NIC's
 * path to the destination GPU, with type NET. Cost: a host costs O(d (V + E)) for its d GPUs,
 * NICs and CPUs over its V devices and E links; a fabric route costs O(V + E) of the fabric.
 */
public final class PathFinder {

    /**
     * NCCL settings that change paths.
     *
     * @param nvb      false models NCCL_NVB_DISABLE=1 (no NVLink through an intermediate GPU)
     * @param pxn      false models NCCL_PXN_DISABLE=1 (no PXN)
     * @param p2pLevel the farthest GPU-GPU path type still used directly (NCCL_P2P_LEVEL; LOC for
     *                 NCCL_P2P_DISABLE=1), or null for NCCL's default (PXB; SYS on AMD x86 hosts with at most two
     *                 GPUs; NCCL 2.30 {@code src/graph/paths.cc} {@code ncclTopoCheckP2p})
     * @param gdrLevel the farthest GPU-NIC path type still using GPU Direct RDMA (NCCL_NET_GDR_LEVEL), or null for
     *                 NCCL's default: P2C, or PXB with NCCL_NET_GDR_C2C=0 ({@code ncclTopoCheckGdr})
     * @param gdrRead  GPU Direct RDMA for sends (NCCL_NET_GDR_READ: true 1, false 0), or null for NCCL's default
     *                 (-2: on for sm80 and newer; before sm80 only for a GPU with an NVLink peer or alone on its host,
     *                 {@code ncclTopoCheckGdr} with {@code read=1}); in the path table it decides only whether a
     *                 NIC's local GPU may relay PXN sends
     */
    public record Options(boolean nvb, boolean pxn, PathType p2pLevel, PathType gdrLevel, Boolean gdrRead) {
        /** NCCL's defaults: NVB and PXN enabled, default P2P and GDR levels, default GDR read. */
        public static final Options DEFAULTS = new Options(true, true, null);

        /** @param nvb see above; @param pxn see above; with NCCL's default P2P level */
        public Options(boolean nvb, boolean pxn) {
            this(nvb, pxn, null);
        }

        /** @param nvb see above; @param pxn see above; @param p2pLevel see above; with NCCL's GDR defaults */
        public Options(boolean nvb, boolean pxn, PathType p2pLevel) {
            this(nvb, pxn, p2pLevel, null, null);
        }

        /**
         * @param settings parsed NCCL_* settings
         * @return the options NCCL_NVB_DISABLE, NCCL_PXN_DISABLE, NCCL_P2P_DISABLE, NCCL_P2P_LEVEL,
         *         NCCL_NET_GDR_LEVEL, NCCL_NET_GDR_C2C and NCCL_NET_GDR_READ give (NCCL reads NCCL_P2P_DISABLE before
         *         NCCL_P2P_LEVEL, {@code ncclGetUserP2pLevel}; disabled means level LOC; NCCL_NET_GDR_LEVEL overrides
         *         the NCCL_NET_GDR_C2C default, {@code ncclTopoCheckGdr})
         */
        public static Options of(NcclSettings settings) {
            PathType level = settings.p2pDisable() ? PathType.LOC : settings.p2pLevel().orElse(null);
            PathType gdr = settings.netGdrLevel().orElse(settings.netGdrC2c() ? null : PathType.PXB);
            return new Options(!settings.nvbDisable(), !settings.pxnDisable(), level, gdr,
                    settings.netGdrRead().orElse(null));
        }

        /**
         * The P2P level in force ({@code ncclTopoCheckP2p}, NCCL 2.30 {@code src/graph/paths.cc}): {@link #p2pLevel}
         * when set, else NCCL's default PXB, or SYS on an x86 host whose CPUs are all AMD with at most two GPUs. A GPU
         * pair farther apart than this level does not use P2P: NCCL routes it through the CPU and connects it with the
         * SHM transport.
         *
         * @param amdX86 every CPU of the host is an AMD x86 CPU
         * @param gpus   GPUs of the host
         * @return the farthest GPU-GPU path type still used peer to peer
         */
        public PathType p2pLevelInForce(boolean amdX86, int gpus) {
            if (p2pLevel != null) {
                return p2pLevel;
            }
            return amdX86 && gpus <= 2 ? PathType.SYS : PathType.PXB;
        }

        /** @return the GDR level in force: {@link #gdrLevel} or NCCL's default P2C */
        public PathType gdrLevelOrDefault() {
            return gdrLevel == null ? PathType.P2C : gdrLevel;
        }
    }

    private final Topology topology;
    private final Options options;
    private final Map<Integer, List<Device>> byHost;
    private final List<NvSwitch> sharedSwitches;
    private final Map<Integer, HostPaths> cache = new ConcurrentHashMap<>();
    private final Map<Integer, ScopeGraph> scopes = new ConcurrentHashMap<>();
    private final CrossHostPaths crossHost;

    private PathFinder(Topology topology, Options options) {
        this.topology = Objects.requireNonNull(topology, "topology");
        this.options = Objects.requireNonNull(options, "options");
        this.byHost = topology.graph().vertexSet().stream().filter(d -> d.host() >= 0)
                .collect(Collectors.groupingBy(Device::host));
        this.sharedSwitches = topology.graph().vertexSet().stream()
                .filter(d -> d instanceof NvSwitch && d.host() < 0).map(NvSwitch.class::cast).toList();
        this.crossHost = new CrossHostPaths(this, byHost, sharedSwitches);
    }

    /**
     * @param topology the cluster
     * @return the path finder with NCCL's default settings, see {@link #of(Topology, Options)}
     */
    public static PathFinder of(Topology topology) {
        return of(topology, Options.DEFAULTS);
    }

    /**
     * @param topology the cluster
     * @param options  NCCL settings
     * @return the path finder of this topology and options: one per (topology, options), kept with the topology
     *         ({@link Topology#derived}), so a host's paths are computed once however many channel searches and flow
     *         routers ask for them
     */
    public static PathFinder of(Topology topology, Options options) {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(options, "options");
        return topology.derived(new Shared(options), t -> new PathFinder(t, options));
    }

    /** Key of a topology's path finder among its derived values. */
    private record Shared(Options options) {
    }

    /** @return the topology */
    public Topology topology() {
        return topology;
    }

    /** @return the NCCL settings the paths follow */
    Options options() {
        return options;
    }

    /**
     * @param host host index
     * @return all paths between the host's GPUs, NICs and CPUs (computed on first call)
     * @throws IllegalArgumentException if the host has no devices
     */
    public HostPaths host(int host) {
        return cache.computeIfAbsent(host, this::computeHost);
    }

    /**
     * NCCL's path between two devices (GPU, NIC or CPU).
     *
     * @param from source device
     * @param to   destination device
     * @return the path; type DIS with zero bandwidth when there is none
     * @throws IllegalArgumentException if a device is not a GPU, NIC or CPU of the topology
     */
    public DevicePath path(Device from, Device to) {
        from = device(from.id());
        to = device(to.id());
        if (from.host() == to.host()) {
            return host(from.host()).path(from, to);
        }
        return crossHost.path(from, to);
    }

    /**
     * @param fromId source device id, e.g. {@code h0/gpu0}
     * @param toId   destination device id
     * @return the path, see {@link #path(Device, Device)}
     * @throws IllegalArgumentException if an id is unknown
     */
    public DevicePath path(String fromId, String toId) {
        return path(device(fromId), device(toId));
    }

    /**
     * Numbers the hops among the devices of some hosts and the multi-host NVSwitches (domains) they reach, so a
     * caller can keep per-link state for the paths of this finder between those devices.
     *
     * @param hosts host indices, at least one
     * @return the index
     * @throws IllegalArgumentException if a host has no devices
     */
    public HopIndex hopIndex(Collection<Integer> hosts) {
        Set<Device> scope = new LinkedHashSet<>();
        Set<Integer> domains = new HashSet<>();
        for (int h : hosts) {
            List<Device> devices = byHost.get(h);
            if (devices == null) {
                throw new IllegalArgumentException("host " + h + " has no devices");
            }
            scope.addAll(devices);
            for (NvSwitch s : sharedSwitches) {
                for (Device d : devices) {
                    if (topology.graph().containsEdge(d, s)) {
                        domains.add(s.domain());
                    }
                }
            }
        }
        sharedSwitches.stream().filter(s -> domains.contains(s.domain())).forEach(scope::add);
        return new HopIndex(new ScopeGraph(topology, scope));
    }

    private Device device(String id) {
        return topology.device(id).orElseThrow(() -> new IllegalArgumentException("no device '" + id + "'"));
    }

    private ScopeGraph hostScope(int host) {
        return scopes.computeIfAbsent(host, h -> {
            List<Device> devices = byHost.get(h);
            if (devices == null) {
                throw new IllegalArgumentException("host " + h + " has no devices");
            }
            Set<Device> scope = new LinkedHashSet<>(devices);
            scope.addAll(sharedSwitches);
            return new ScopeGraph(topology, scope);
        });
    }

    private HostPaths computeHost(int host) {
        ScopeGraph g = hostScope(host);
        List<Device> devices = byHost.get(host);
        List<Gpu> gpus = devices.stream().filter(Gpu.class::isInstance).map(Gpu.class::cast)
                .sorted(Comparator.comparingInt(Gpu::index)).toList();
        List<Nic> nics = devices.stream().filter(Nic.class::isInstance).map(Nic.class::cast)
                .sorted(Nic.NET_DEV_ORDER).toList();
        List<Cpu> cpus = devices.stream().filter(Cpu.class::isInstance).map(Cpu.class::cast)
                .sorted(Comparator.comparingInt(Cpu::numaId)).toList();
        List<Device> ends = new ArrayList<>(gpus);
        ends.addAll(nics);
        ends.addAll(cpus);
        DevicePath[][] table = new DevicePath[ends.size()][ends.size()];
        for (int i = 0; i < ends.size(); i++) {
            NcclPathSearch.Tree tree = NcclPathSearch.search(g, g.indexOf(ends.get(i)), options.nvb());
            for (int j = 0; j < ends.size(); j++) {
                table[i][j] = fromTree(g, tree, ends.get(i), ends.get(j));
            }
        }
        new NcclPathRules(gpus, nics, cpus, table, topology.networkClass() == NetworkClass.SOCKET).apply(options);
        for (int i = 0; i < ends.size(); i++) {
            String[] labels = SmiLabels.labels(g, ends.get(i), ends);
            for (int j = 0; j < ends.size(); j++) {
                table[i][j] = table[i][j].withLabel(labels[j]);
            }
        }
        return new HostPaths(host, gpus, nics, cpus, table);
    }

    /** Builds a path from a search tree; caps by NIC port speed at either end. */
    static DevicePath fromTree(ScopeGraph g, NcclPathSearch.Tree tree, Device from, Device to) {
        int t = g.indexOf(to);
        if (from.equals(to)) {
            Bandwidth loc = Bandwidth.ofGBps(NcclBandwidths.LOC_BW);
            return new DevicePath(from, to, PathType.LOC, List.of(), loc, loc, "");
        }
        if (!tree.reached(t)) {
            return new DevicePath(from, to, PathType.DIS, List.of(), Bandwidth.ZERO, Bandwidth.ZERO, "");
        }
        List<Hop> hops = tree.hops(t);
        double phys = Double.MAX_VALUE;
        for (Hop h : hops) {
            phys = Math.min(phys, h.bandwidth(BandwidthView.PHYSICAL).gbps());
        }
        double nccl = tree.bw[t];
        for (Device end : List.of(from, to)) {
            if (end instanceof Nic n) {
                phys = Math.min(phys, n.speed().gbps());
                nccl = Math.min(nccl, NcclBandwidths.net(n.speed()).gbps());
            }
        }
        return new DevicePath(from, to, tree.type[t], hops, Bandwidth.ofGBps(phys), Bandwidth.ofGBps(nccl), "");
    }
}
