package dev.collsim.topology;

import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Assembles a {@link Topology} device by device and link by link ({@link Topology#builder}): ids unique, each
 * physical link two directed edges whose NCCL bandwidth is derived with {@link NcclBandwidths#derive} or given.
 * Mutable; not thread-safe. {@link #build()} hands the graph to an immutable {@link Topology}.
 */
public final class TopologyBuilder {
    private final String name;
    private String source = "";
    private NetworkClass networkClass = NetworkClass.INFINIBAND;
    private NicVendor nicVendor = NicVendor.OTHER;
    private final List<String> warnings = new ArrayList<>();
    private final PresizedMultigraph graph;
    private final Map<String, Device> byId;
    private final Map<String, Integer> edgeSerial;

    TopologyBuilder(String name, int devices, int links) {
        this.name = Objects.requireNonNull(name, "name");
        this.graph = new PresizedMultigraph(devices, links);
        this.byId = new LinkedHashMap<>(Math.max(16, (int) Math.ceil(devices / 0.75)));
        this.edgeSerial = new HashMap<>(Math.max(16, (int) Math.ceil(links / 0.75)));
    }

    /** @param text where the description came from; @return this */
    public TopologyBuilder source(String text) {
        this.source = text == null ? "" : text;
        return this;
    }

    /** @param c network transport between hosts (null: InfiniBand); @return this */
    public TopologyBuilder networkClass(NetworkClass c) {
        this.networkClass = c == null ? NetworkClass.INFINIBAND : c;
        return this;
    }

    /** @param v PCI vendor of the hosts' network interfaces (null: OTHER); @return this */
    public TopologyBuilder nicVendor(NicVendor v) {
        this.nicVendor = v == null ? NicVendor.OTHER : v;
        return this;
    }

    /** @param text an input warning (where, what was found, how read), no {@code warning:} prefix; @return this */
    public TopologyBuilder warning(String text) {
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
    public TopologyBuilder connect(Device a, Device b, LinkType type, int count, Bandwidth perDir, Latency latency,
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
    public TopologyBuilder connect(Device a, Device b, LinkType type, int count, Bandwidth perDir, Bandwidth ncclPerDir,
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
    public TopologyBuilder connectOneWay(Device a, Device b, LinkType type, int count, Bandwidth bw, Latency latency,
            String detail) {
        Bandwidth nccl = NcclBandwidths.derive(type, Math.max(count, 1), bw, detail, a, b);
        return addEdge(a, b, type, count, bw, nccl, latency, detail);
    }

    /**
     * Adds one directed edge from {@code a} to {@code b} with the figures of an existing link (type, count, physical
     * and NCCL bandwidth, latency, detail): a copy of a host read from a machine file keeps every figure the reader
     * derived.
     *
     * @param like the link whose figures the new edge takes
     * @return this
     * @throws IllegalArgumentException if an end was not added
     */
    public TopologyBuilder connectOneWay(Device a, Device b, Link like) {
        return addEdge(a, b, like.type(), like.count(), like.bandwidth(), like.ncclBandwidth(), like.latency(),
                like.detail());
    }

    private TopologyBuilder addEdge(Device a, Device b, LinkType type, int count, Bandwidth bw, Bandwidth nccl,
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
        return new Topology(name, source, networkClass, nicVendor, warnings, graph, byId);
    }
}
