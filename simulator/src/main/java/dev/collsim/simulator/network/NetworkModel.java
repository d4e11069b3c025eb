package dev.collsim.simulator.network;

import dev.collsim.topology.Device;
import dev.collsim.topology.Link;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A topology indexed for simulation: devices and directed links numbered densely, each link's capacity in
 * bytes per microsecond (GB/s x 1000) and latency in microseconds, the failed links removed from routing, and
 * the routing options. This class is immutable and thread-safe.
 */
public final class NetworkModel {

    private final Topology topology;
    private final RoutingOptions routing;
    private final Device[] vertices;
    private final Map<Device, Integer> vertexIndex = new IdentityHashMap<>();
    private final Link[] links;
    private final Map<Link, Integer> linkIndex = new IdentityHashMap<>();
    private final double[] capacity;
    private final double[] latency;
    private final int[] linkSource;
    private final int[] linkTarget;
    private final boolean[] failed;
    private final int[][] out;
    private final int[][] in;
    private final int[][] hostVertices;
    private final int[] switchIndex;
    /** Per vertex: its id's hash, the ECMP hash's input (the same in any topology holding the device). */
    private final int[] hashKey;
    private final int switchCount;

    private NetworkModel(Topology topology, Collection<Link> failedLinks, RoutingOptions routing) {
        this.topology = Objects.requireNonNull(topology, "topology");
        this.routing = Objects.requireNonNull(routing, "routing");
        Set<Device> vs = topology.graph().vertexSet();
        vertices = vs.toArray(new Device[0]);
        Arrays.sort(vertices, Comparator.comparing(Device::id));
        for (int i = 0; i < vertices.length; i++) {
            vertexIndex.put(vertices[i], i);
        }
        links = topology.graph().edgeSet().toArray(new Link[0]);
        Arrays.sort(links, Comparator.comparing(Link::id));
        capacity = new double[links.length];
        latency = new double[links.length];
        linkSource = new int[links.length];
        linkTarget = new int[links.length];
        failed = new boolean[links.length];
        for (int i = 0; i < links.length; i++) {
            Link l = links[i];
            linkIndex.put(l, i);
            capacity[i] = l.bandwidth().bytesPerMicrosecond();
            latency[i] = l.latency().micros();
            linkSource[i] = vertexIndex.get(topology.source(l));
            linkTarget[i] = vertexIndex.get(topology.target(l));
        }
        for (Link l : failedLinks) {
            Integer i = linkIndex.get(l);
            if (i == null) {
                throw new IllegalArgumentException("failed link " + l.id() + " is not in topology " + topology.name());
            }
            failed[i] = true;
        }
        out = adjacency(linkSource);
        in = adjacency(linkTarget);
        int hosts = Math.max(topology.hostCount(), 0);
        List<List<Integer>> byHost = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            byHost.add(new ArrayList<>());
        }
        switchIndex = new int[vertices.length];
        hashKey = new int[vertices.length];
        int sw = 0;
        for (int v = 0; v < vertices.length; v++) {
            hashKey[v] = vertices[v].id().hashCode();
            int h = vertices[v].host();
            if (h >= 0) {
                byHost.get(h).add(v);
            }
            switchIndex[v] = vertices[v] instanceof NetSwitch ? sw++ : -1;
        }
        switchCount = sw;
        hostVertices = new int[hosts][];
        for (int h = 0; h < hosts; h++) {
            hostVertices[h] = byHost.get(h).stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /** @return for every vertex, its working links whose {@code end} (source or target array) is that vertex */
    private int[][] adjacency(int[] end) {
        int[] count = new int[vertices.length];
        for (int i = 0; i < links.length; i++) {
            if (!failed[i]) {
                count[end[i]]++;
            }
        }
        int[][] adj = new int[vertices.length][];
        for (int v = 0; v < vertices.length; v++) {
            adj[v] = new int[count[v]];
            count[v] = 0;
        }
        for (int i = 0; i < links.length; i++) {
            if (!failed[i]) {
                adj[end[i]][count[end[i]]++] = i;
            }
        }
        return adj;
    }

    /**
     * @param topology    the cluster
     * @param failedLinks directed links taken out of service (see {@link FabricFailures})
     * @param routing     routing options
     * @return the indexed model
     * @throws IllegalArgumentException when a failed link is not in the topology
     */
    public static NetworkModel of(Topology topology, Collection<Link> failedLinks, RoutingOptions routing) {
        return new NetworkModel(topology, failedLinks, routing);
    }

    /** @param topology the cluster; @return the model with no failures and {@link RoutingOptions#DEFAULT} */
    public static NetworkModel of(Topology topology) {
        return new NetworkModel(topology, List.of(), RoutingOptions.DEFAULT);
    }

    /** @return the topology */
    public Topology topology() {
        return topology;
    }

    /** @return the routing options */
    public RoutingOptions routing() {
        return routing;
    }

    /** @return number of directed links (failed ones included) */
    public int linkCount() {
        return links.length;
    }

    /** @param i link index; @return the link */
    public Link link(int i) {
        return links[i];
    }

    /** @param l a link of the topology; @return its index, or -1 */
    public int indexOf(Link l) {
        Integer i = linkIndex.get(l);
        return i == null ? -1 : i;
    }

    /**
     * @param d a device of the topology (the graph's own object, or an equal one: a described topology makes its GPU
     *          list on demand)
     * @return its index, or -1
     */
    public int indexOf(Device d) {
        Integer i = vertexIndex.get(d);
        if (i == null && d != null) {
            Device own = topology.device(d.id()).orElse(null);
            i = own != null && own.equals(d) ? vertexIndex.get(own) : null;
        }
        return i == null ? -1 : i;
    }

    /** @param v vertex index; @return the device */
    public Device vertex(int v) {
        return vertices[v];
    }

    /** @return number of devices */
    public int vertexCount() {
        return vertices.length;
    }

    /** @param i link index; @return capacity in bytes per microsecond */
    public double capacity(int i) {
        return capacity[i];
    }

    /** @param i link index; @return latency in microseconds */
    public double latency(int i) {
        return latency[i];
    }

    /** @param i link index; @return true if taken out of service */
    public boolean failed(int i) {
        return failed[i];
    }

    /** @param i link index; @return source vertex */
    public int source(int i) {
        return linkSource[i];
    }

    /** @param i link index; @return target vertex */
    public int target(int i) {
        return linkTarget[i];
    }

    /** @param v vertex; @return indices of its working outgoing links (do not modify) */
    int[] out(int v) {
        return out[v];
    }

    /** @param v vertex; @return indices of its working incoming links (do not modify) */
    int[] in(int v) {
        return in[v];
    }

    /** @param h host; @return vertices of that host (do not modify) */
    /** @return number of hosts (host indices are 0 to this minus 1) */
    int hostCount() {
        return hostVertices.length;
    }

    int[] hostVertices(int h) {
        return hostVertices[h];
    }

    /** @param v vertex; @return dense switch number, or -1 when not a network switch */
    int switchIndex(int v) {
        return switchIndex[v];
    }

    /**
     * @param v vertex
     * @return the ECMP hash's input for it: its id's {@link String#hashCode} (not its dense index, so that a
     *         topology holding only some hosts of a cluster hashes every flow as the whole cluster does)
     */
    int hashKey(int v) {
        return hashKey[v];
    }

    /** @return number of network switches */
    int switchCount() {
        return switchCount;
    }
}
