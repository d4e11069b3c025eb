package dev.collsim.topology;

import java.util.Comparator;
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
 * {@link #builder(String)} ({@link TopologyBuilder}). Values derived from it (e.g. NCCL's paths) may be kept with
 * it, see {@link #derived}.
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

    /** A built topology of a {@link TopologyBuilder}'s parts (the graph is wrapped read-only, the rest copied). */
    Topology(String name, String source, NetworkClass networkClass, NicVendor nicVendor, List<String> warnings,
            Graph<Device, Link> graph, Map<String, Device> byId) {
        this.name = name;
        this.source = source;
        this.networkClass = networkClass;
        this.nicVendor = nicVendor;
        this.warnings = List.copyOf(warnings);
        this.parts = GraphParts.of(new AsUnmodifiableGraph<>(graph), Map.copyOf(byId));
        this.gpus = graph.vertexSet().stream().filter(Gpu.class::isInstance).map(Gpu.class::cast)
                .sorted(Comparator.comparingInt(Gpu::host).thenComparingInt(Gpu::index)).toList();
        this.hostCount = graph.vertexSet().stream().mapToInt(Device::host).max().orElse(-1) + 1;
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
    public static TopologyBuilder builder(String name) {
        return new TopologyBuilder(name, 0, 0);
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
    public static TopologyBuilder builder(String name, int expectedDevices, int expectedLinks) {
        if (expectedDevices < 0 || expectedLinks < 0) {
            throw new IllegalArgumentException("expected sizes must be >= 0, got " + expectedDevices + " devices, "
                    + expectedLinks + " links");
        }
        return new TopologyBuilder(name, expectedDevices, expectedLinks);
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
        // the template is shared unless its paths change (sockets: no GDR)
        this.template = t.template == null
                || (c == NetworkClass.SOCKET) == (t.template.networkClass == NetworkClass.SOCKET) ? t.template
                : t.template.withNetworkClass(c);
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

    /**
     * @param host a host index
     * @return the host's NICs numbered as NCCL numbers them ({@link Nic#NET_DEV_ORDER}): position k is the k-th
     *         NET device of the host, the one home of a NIC's position (the search's graph, the flow router)
     */
    public List<Nic> nicsOf(int host) {
        return graph().vertexSet().stream().filter(d -> d instanceof Nic && d.host() == host).map(Nic.class::cast)
                .sorted(Nic.NET_DEV_ORDER).toList();
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
}
