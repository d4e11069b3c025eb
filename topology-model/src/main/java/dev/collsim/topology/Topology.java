package dev.collsim.topology;

import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jgrapht.Graph;
import org.jgrapht.graph.AsUnmodifiableGraph;

/**
 * A cluster as a directed multigraph of {@link Device}s and {@link Link}s (JGraphT). Every physical link is two
 * directed edges, one per direction, each with its own bandwidth. This class is immutable: build it with
 * {@link #builder(String)}. Values derived from it (e.g. NCCL's paths) may be kept with it, see {@link #derived}.
 *
 * <p><b>Hosts described once.</b> A cluster of identical hosts ({@link #described}) holds one small materialized
 * template ({@link #hostTemplate()}) and a host count; its GPU list is made on demand from the template's host 0, and
 * its graph is built in full only when something asks for it ({@link #graph()}, {@link #device}, {@link #devices},
 * {@link #outgoing}, {@link #source(Link)}, {@link #target}), at most once. The analytical prediction answers from
 * the template, so {@code -c dgx-h100x100000} is predicted without 100,000 hosts of vertices.
 */
public final class Topology {

    private final String name;
    private final String source;
    private final List<String> warnings;
    private final int hostCount;
    private final GraphParts parts;
    private final List<Gpu> gpus;
    private final NetworkClass networkClass;
    private final NicVendor nicVendor;
    private final Topology template;
    /** Values computed from this immutable topology, kept for its lifetime ({@link #derived}). */
    private final Map<Object, Object> derived = new ConcurrentHashMap<>();

    private Topology(Builder b) {
        this.name = b.name;
        this.source = b.source;
        this.networkClass = b.networkClass;
        this.nicVendor = b.nicVendor;
        this.warnings = List.copyOf(b.warnings);
        this.parts = GraphParts.of(new AsUnmodifiableGraph<>(b.graph), Map.copyOf(b.byId));
        this.gpus = b.graph.vertexSet().stream().filter(Gpu.class::isInstance).map(Gpu.class::cast)
                .sorted(Comparator.comparingInt(Gpu::host).thenComparingInt(Gpu::index)).toList();
        this.hostCount = b.graph.vertexSet().stream().mapToInt(Device::host).max().orElse(-1) + 1;
        this.template = null;
    }

    private Topology(String name, String source, int hosts, Topology template, Supplier<Topology> full,
            Function<int[], Topology> partial) {
        this.name = Objects.requireNonNull(name, "name");
        this.source = source == null ? "" : source;
        this.networkClass = template.networkClass;
        this.nicVendor = template.nicVendor;
        this.warnings = template.warnings;
        this.template = template;
        this.hostCount = hosts;
        this.gpus = new ReplicatedGpus(template.gpusOf(0), hosts);
        this.parts = GraphParts.lazy(() -> Objects.requireNonNull(full.get(), "full topology").parts.get(), partial);
    }

    /**
     * A cluster of identical hosts described once: {@code hosts} copies of the template's host 0, on the template's
     * fabric (its kind, speeds and latencies; its size grows with the hosts). Only {@code full}, called at most once
     * and only when the graph is asked for, builds every device.
     *
     * @param name     the cluster's name
     * @param source   where the description came from
     * @param hosts    hosts, >= 1
     * @param template a small materialized cluster of the same host type and fabric, whose host 0 is, device for
     *                 device and link for link (ids aside), every host of this one; its GPUs are named {@code h0/...}
     * @param full     builds the whole cluster (same name, hosts h0..h{hosts-1}); may throw an
     *                 {@link dev.collsim.io.UserInputException} when the cluster is too large to build in full
     * @param partial  given host indices, builds those hosts (indices and ids as in the whole cluster) and the part
     *                 of the network they reach, every route between them kept ({@link #withHostsOnly})
     * @return the topology
     * @throws IllegalArgumentException when hosts is below 1 or hosts x GPUs per host does not fit an int
     */
    public static Topology described(String name, String source, int hosts, Topology template,
            Supplier<Topology> full, Function<int[], Topology> partial) {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(full, "full");
        Objects.requireNonNull(partial, "partial");
        if (template.template != null) {
            throw new IllegalArgumentException("the template of " + name + " must be materialized");
        }
        return new Topology(name, source, hosts, template, full, partial);
    }

    /**
     * @param hosts host indices in [0, {@link #hostCount()}), at least one
     * @return for a cluster described once whose graph is not built: only those hosts (indices and ids as here) and
     *         the network part they reach (their leaves, every spine; routes between them unchanged); else this
     */
    public Topology withHostsOnly(int[] hosts) {
        Topology t = parts.hostsOnly(hosts);
        return t == null ? this : t.withNetworkClass(networkClass);
    }

    /**
     * @return for a cluster of identical hosts described once ({@link #described}), its materialized template (a
     *         small cluster of the same host type and fabric; its host 0 stands for every host); empty for a topology
     *         built device by device
     */
    public Optional<Topology> hostTemplate() {
        return Optional.ofNullable(template);
    }

    /** @return true when the whole graph exists (always, unless {@link #described} and not asked for yet) */
    public boolean graphBuilt() {
        return parts.built();
    }

    /** @return a new builder for a topology named {@code name} */
    public static Builder builder(String name) {
        return new Builder(name, 0, 0);
    }

    /**
     * A builder whose graph and id maps are created at the expected size (a hint: building more is fine, building
     * fewer wastes some memory). Used for large clusters, where growing the maps step by step dominates the time.
     *
     * @param name            the topology's name
     * @param expectedDevices devices about to be added, >= 0
     * @param expectedLinks   directed links about to be added (two per {@code connect}), >= 0
     * @return a new builder
     * @throws IllegalArgumentException on a negative size
     */
    public static Builder builder(String name, int expectedDevices, int expectedLinks) {
        if (expectedDevices < 0 || expectedLinks < 0) {
            throw new IllegalArgumentException("expected sizes must be >= 0, got " + expectedDevices + " devices, "
                    + expectedLinks + " links");
        }
        return new Builder(name, expectedDevices, expectedLinks);
    }

    /** @return the cluster's name */
    public String name() {
        return name;
    }

    /** @return free text citing where the description came from (file, datasheet) */
    public String source() {
        return source;
    }

    /**
     * @return the network transport between hosts; {@link NetworkClass#INFINIBAND} (the model's reference class)
     *         unless the description or the caller named another
     */
    public NetworkClass networkClass() {
        return networkClass;
    }

    /** @return the PCI vendor of the hosts' network interfaces ({@link NicVendor#OTHER} unless the host type says) */
    public NicVendor nicVendor() {
        return nicVendor;
    }

    /** @param c the network class; @return this topology with another network transport (StructuralKey values kept) */
    public Topology withNetworkClass(NetworkClass c) {
        return Objects.requireNonNull(c, "network class") == networkClass ? this : new Topology(this, c);
    }

    private Topology(Topology t, NetworkClass c) {
        this.name = t.name;
        this.source = t.source;
        this.hostCount = t.hostCount;
        this.parts = t.parts;
        this.gpus = t.gpus;
        this.template = t.template == null || (c == NetworkClass.SOCKET) == (t.template.networkClass == NetworkClass.SOCKET)
                ? t.template : t.template.withNetworkClass(c); // shared unless its paths change (sockets: no GDR)
        this.networkClass = c;
        this.nicVendor = t.nicVendor;
        this.warnings = t.warnings;
        t.derived.entrySet().stream().filter(e -> e.getKey() instanceof StructuralKey)
                .forEach(e -> derived.put(e.getKey(), e.getValue()));
    }

    /** @return the reader's warnings (each also in {@link #source()}): facts read in a way the file does not state
     *  plainly, e.g. an NVLink count that differs by direction; empty when none. Commands print and count them. */
    public List<String> warnings() {
        return warnings;
    }

    /** @return the read-only graph */
    public Graph<Device, Link> graph() {
        return parts.get().graph();
    }

    /** @return number of hosts (servers; NCCL "nodes"): highest host index + 1 */
    public int hostCount() {
        return hostCount;
    }

    /** @return all GPUs ordered by host then local index (this is the default rank order) */
    public List<Gpu> gpus() {
        return gpus;
    }

    /** @return the GPUs of one host, by local index */
    public List<Gpu> gpusOf(int host) {
        if (gpus instanceof ReplicatedGpus r) {
            return r.ofHost(host);
        }
        return gpus.stream().filter(g -> g.host() == host).toList();
    }

    /** @return all devices of a kind, in id order */
    public <T extends Device> List<T> devices(Class<T> kind) {
        return graph().vertexSet().stream().filter(kind::isInstance).map(kind::cast)
                .sorted(Comparator.comparing(Device::id)).toList();
    }

    /** @return the device with that id, if any */
    public Optional<Device> device(String id) {
        return Optional.ofNullable(parts.get().byId().get(id));
    }

    /** @return the links leaving {@code d} */
    public List<Link> outgoing(Device d) {
        return List.copyOf(graph().outgoingEdgesOf(d));
    }

    /** @return the device at the far end of a link */
    public Device target(Link l) {
        return graph().getEdgeTarget(l);
    }

    /** @return the device at the near end of a link */
    public Device source(Link l) {
        return graph().getEdgeSource(l);
    }

    /**
     * A value computed from this topology once and kept with it, so that every user of the same topology (channel
     * searches of several predictors, flow routers of several simulations) shares it. The value must be a pure
     * function of the topology and the key, and thread-safe; it lives as long as the topology.
     *
     * @param key     what is computed, with the inputs besides the topology (compared with equals)
     * @param compute computes the value from this topology; must not call {@code derived} on this topology
     * @param <T>     value type
     * @return the value, computed on the first call with this key
     */
    @SuppressWarnings("unchecked")
    public <T> T derived(Object key, Function<Topology, T> compute) {
        Object v = derived.get(key);
        if (v == null) {
            v = derived.computeIfAbsent(key, k -> compute.apply(this));
        }
        return (T) v;
    }

    @Override
    public String toString() {
        return "Topology[" + name + ", " + hostCount + " hosts, " + gpus.size() + " GPUs, " + (parts.built()
                ? graph().edgeSet().size() + " directed links]" : "hosts described once, graph not built]");
    }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private final String name;
        private String source = "";
        private NetworkClass networkClass = NetworkClass.INFINIBAND;
        private NicVendor nicVendor = NicVendor.OTHER;
        private final List<String> warnings = new ArrayList<>();
        private final PresizedMultigraph graph;
        private final Map<String, Device> byId;
        private final Map<String, Integer> edgeSerial;

        private Builder(String name, int devices, int links) {
            this.name = Objects.requireNonNull(name, "name");
            this.graph = new PresizedMultigraph(devices, links);
            this.byId = new LinkedHashMap<>(Math.max(16, (int) Math.ceil(devices / 0.75)));
            this.edgeSerial = new HashMap<>(Math.max(16, (int) Math.ceil(links / 0.75)));
        }

        /** @param text where the description came from; @return this */
        public Builder source(String text) {
            this.source = text == null ? "" : text;
            return this;
        }

        /** @param c network transport between hosts (null: InfiniBand); @return this */
        public Builder networkClass(NetworkClass c) {
            this.networkClass = c == null ? NetworkClass.INFINIBAND : c;
            return this;
        }

        /** @param v PCI vendor of the hosts' network interfaces (null: OTHER); @return this */
        public Builder nicVendor(NicVendor v) {
            this.nicVendor = v == null ? NicVendor.OTHER : v;
            return this;
        }

        /** @param text an input warning (where, what was found, how read), no {@code warning:} prefix; @return this */
        public Builder warning(String text) {
            warnings.add(Objects.requireNonNull(text, "text"));
            return this;
        }

        /** Adds a device. @throws IllegalArgumentException if another device has the same id */
        public <T extends Device> T add(T device) {
            if (byId.putIfAbsent(device.id(), device) != null) {
                throw new IllegalArgumentException("duplicate device id '" + device.id() + "'");
            }
            graph.addVertex(device);
            return device;
        }

        /** @return the device with that id, if added */
        public Optional<Device> device(String id) {
            return Optional.ofNullable(byId.get(id));
        }

        /** @return true if a device with that id was added */
        public boolean has(String id) {
            return byId.containsKey(id);
        }

        /**
         * Connects two devices with a bidirectional physical link: two directed edges of the same bandwidth. The NCCL
         * bandwidth of each direction is derived with {@link NcclBandwidths#derive}.
         *
         * @param a         one end (must have been added)
         * @param b         other end (must have been added)
         * @param type      link type
         * @param count     lanes bundled (NVLinks, PCIe lanes), >= 1
         * @param perDir    physical bandwidth of each direction (all lanes together)
         * @param latency   one-way latency
         * @param detail    generation text, e.g. {@code PCIe Gen4 x16}
         * @return this
         * @throws IllegalArgumentException if an end was not added
         */
        public Builder connect(Device a, Device b, LinkType type, int count, Bandwidth perDir, Latency latency,
                String detail) {
            Bandwidth ab = NcclBandwidths.derive(type, Math.max(count, 1), perDir, detail, a, b);
            // NVLink and SMP take the GPU / CPU end's facts, which may differ per direction; the rest do not look
            // at the ends, so the reverse direction's value is the same
            Bandwidth ba = type == LinkType.NVLINK || type == LinkType.SMP
                    ? NcclBandwidths.derive(type, Math.max(count, 1), perDir, detail, b, a) : ab;
            addEdge(a, b, type, count, perDir, ab, latency, detail);
            return addEdge(b, a, type, count, perDir, ba, latency, detail);
        }

        /**
         * As {@link #connect(Device, Device, LinkType, int, Bandwidth, Latency, String)}, with NCCL's bandwidth of
         * each direction, {@code ncclPerDir}, given explicitly (a reader of NCCL's own XML knows it exactly).
         *
         * @return this
         * @throws IllegalArgumentException if an end was not added
         */
        public Builder connect(Device a, Device b, LinkType type, int count, Bandwidth perDir, Bandwidth ncclPerDir,
                Latency latency, String detail) {
            addEdge(a, b, type, count, perDir, ncclPerDir, latency, detail);
            return addEdge(b, a, type, count, perDir, ncclPerDir, latency, detail);
        }

        /**
         * Adds one directed edge from {@code a} to {@code b}, deriving its NCCL bandwidth; see {@link #connect}.
         *
         * @return this
         * @throws IllegalArgumentException if an end was not added
         */
        public Builder connectOneWay(Device a, Device b, LinkType type, int count, Bandwidth bw, Latency latency,
                String detail) {
            Bandwidth nccl = NcclBandwidths.derive(type, Math.max(count, 1), bw, detail, a, b);
            return addEdge(a, b, type, count, bw, nccl, latency, detail);
        }

        private Builder addEdge(Device a, Device b, LinkType type, int count, Bandwidth bw, Bandwidth nccl,
                Latency latency, String detail) {
            if (!byId.containsKey(a.id()) || !byId.containsKey(b.id())) {
                throw new IllegalArgumentException("link " + a.id() + " -> " + b.id() + ": both ends must be declared");
            }
            String base = a.id() + ">" + b.id();
            int serial = edgeSerial.merge(base, 1, Integer::sum) - 1;
            graph.addEdge(a, b, new Link(base + "#" + serial, type, count, bw, latency, detail, nccl));
            return this;
        }

        /** @return all devices added so far */
        public List<Device> devices() {
            return new ArrayList<>(byId.values());
        }

        /** @return the immutable topology */
        public Topology build() {
            return new Topology(this);
        }
    }
}
