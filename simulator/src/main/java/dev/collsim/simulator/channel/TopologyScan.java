package dev.collsim.simulator.channel;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.Topology;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * What the channel search needs from the whole topology, found in one pass over its devices and links: which
 * hosts share a multi-node NVLink switch (one NCCL node) and, per host, a structural digest (device kinds, link
 * types, counts, bandwidths and details) so that identical hosts are searched once and a degraded host gets its
 * own search. Topologies are immutable, so the scan is cached per topology instance (weakly).
 *
 * @param nodeOfHost host index to NCCL node key, for hosts in a multi-node NVLink domain (others: their own)
 * @param digest     host index to digest
 * @param nodeKey    the same node keys as an array by host index, 0 to the topology's host count - 1 (a host not in
 *                   a domain has its own index), so a search over 100k ranks does no map look-up per rank
 * @param digestOf   the same digests as an array by host index (null for a host index with no device)
 */
public record TopologyScan(Map<Integer, Integer> nodeOfHost, Map<Integer, long[]> digest, int[] nodeKey,
        long[][] digestOf) {

    private static final Map<Topology, TopologyScan> CACHE = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * @param topo the topology
     * @return its scan, computed on first use and cached
     */
    public static TopologyScan of(Topology topo) {
        TopologyScan s = CACHE.get(topo);
        if (s == null) {
            s = compute(topo);
            CACHE.put(topo, s);
        }
        return s;
    }

    /**
     * Scans without the cache (linear in devices plus links; for hosts described once, in hosts, from the template).
     *
     * @param topo the topology
     * @return the scan
     */
    public static TopologyScan compute(Topology topo) {
        if (topo.hostTemplate().isPresent()) {
            // hosts described once (no multi-host NVLink domain): every host has the template host's digest
            long[] one = compute(topo.hostTemplate().get()).digest().get(0);
            int n = topo.hostCount();
            Map<Integer, long[]> all = new HashMap<>();
            int[] keys = new int[n];
            long[][] digests = new long[n][];
            for (int h = 0; h < n; h++) {
                all.put(h, one);
                keys[h] = h;
                digests[h] = one;
            }
            return new TopologyScan(Map.of(), Map.copyOf(all), keys, digests);
        }
        Map<Integer, Integer> nodeOfHost = new HashMap<>();
        Map<Integer, long[]> d = new HashMap<>();
        var g = topo.graph();
        for (Device v : g.vertexSet()) {
            int host = v.host();
            if (host < 0) {
                if (v instanceof NvSwitch sw) {
                    for (Link l : g.outgoingEdgesOf(v)) {
                        int th = g.getEdgeTarget(l).host();
                        if (th >= 0) {
                            nodeOfHost.putIfAbsent(th, -2 - sw.domain());
                        }
                    }
                }
                continue;
            }
            long[] x = d.computeIfAbsent(host, k -> new long[5]);
            x[0] += v instanceof Gpu gpu ? 1000L + gpu.sm() : v instanceof Nic n ? 7L + Math.round(n.speed().gbps())
                    : v instanceof Cpu ? 3 : 1;
            for (Link l : g.outgoingEdgesOf(v)) {
                x[1] += l.type().ordinal() + 1;
                x[2] += Math.round(l.bandwidth().gbps() * 1000) * l.count();
                x[3] += l.type() == LinkType.NVLINK ? l.count() : 0;
                x[4] += l.detail().hashCode();
            }
        }
        int hosts = Math.max(topo.hostCount(), 0);
        int[] key = new int[hosts];
        long[][] digestOf = new long[hosts][];
        for (int h = 0; h < hosts; h++) {
            key[h] = nodeOfHost.getOrDefault(h, h);
            digestOf[h] = d.get(h);
        }
        return new TopologyScan(Map.copyOf(nodeOfHost), Map.copyOf(d), key, digestOf);
    }
}
