package dev.collsim.simulator.network;

import dev.collsim.topology.Device;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Fabric what-ifs: which directed links to take out of service. A failed link carries nothing and routing avoids
 * it; a failed NIC takes all its links down, and its GPUs fall back to their next nearest NIC. Pure functions.
 */
public final class FabricFailures {

    private FabricFailures() {
    }

    /**
     * Resolves names to links: a device id (a NIC or switch: every link to or from it), a cable
     * {@code A>B} (both directions of every parallel link between A and B), or one directed link id
     * {@code A>B#k}.
     *
     * @param topology the cluster
     * @param names    names as above
     * @return the directed links to fail
     * @throws IllegalArgumentException naming each unknown name and the accepted forms
     */
    public static Set<Link> byName(Topology topology, List<String> names) {
        Set<Link> out = new LinkedHashSet<>();
        List<String> unknown = new ArrayList<>();
        for (String name : names) {
            Optional<Device> d = topology.device(name);
            if (d.isPresent()) {
                out.addAll(topology.graph().edgesOf(d.get()));
                continue;
            }
            List<Link> hit = new ArrayList<>();
            for (Link l : topology.graph().edgeSet()) {
                String a = topology.source(l).id();
                String b = topology.target(l).id();
                if (l.id().equals(name) || name.equals(a + ">" + b) || name.equals(b + ">" + a)) {
                    hit.add(l);
                }
            }
            if (hit.isEmpty()) {
                unknown.add(name);
            }
            out.addAll(hit);
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown link or device " + unknown + " in " + topology.name()
                    + "; use a device id (e.g. a NIC or switch), a cable A>B, or a directed link id A>B#k");
        }
        return out;
    }

    /**
     * Picks {@code count} network cables at random (both directions of each fail together, {@link #byName}), from
     * the NET links of the fabric, with a seeded java.util.Random over the cables sorted by id.
     *
     * @param topology the cluster
     * @param count    cables to fail, {@code 0 <= count <=} number of cables
     * @param seed     random seed
     * @return cable names {@code A>B} (A before B by id), in draw order
     * @throws IllegalArgumentException when count is out of range, naming the allowed range
     */
    public static List<String> randomCableNames(Topology topology, int count, long seed) {
        List<String> cables = new ArrayList<>();
        for (Link l : topology.graph().edgeSet()) {
            String a = topology.source(l).id();
            String b = topology.target(l).id();
            if (l.type() == LinkType.NET && a.compareTo(b) < 0) {
                cables.add(a + ">" + b);
            }
        }
        List<String> unique = new ArrayList<>(new LinkedHashSet<>(cables));
        unique.sort(Comparator.naturalOrder());
        if (count < 0 || count > unique.size()) {
            throw new IllegalArgumentException("cannot fail " + count + " of " + unique.size()
                    + " network cables; allowed: 0.." + unique.size());
        }
        Collections.shuffle(unique, new Random(seed));
        return List.copyOf(unique.subList(0, count));
    }

    /**
     * Picks {@code count} NICs at random, with a seeded java.util.Random over the NICs that have a network (NET)
     * link, in the topology's order. NICs without one (e.g. the DGX H100's storage NICs, which the catalog does not
     * cable to the fabric) are never drawn: failing them would change nothing.
     *
     * @param topology the cluster
     * @param count    NICs to fail, {@code 0 <= count <=} number of networked NICs
     * @param seed     random seed
     * @return NIC ids, in draw order
     * @throws IllegalArgumentException when count is out of range, naming the allowed range
     */
    public static List<String> randomNicNames(Topology topology, int count, long seed) {
        List<Nic> nics = new ArrayList<>();
        for (Nic n : topology.devices(Nic.class)) {
            if (topology.graph().edgesOf(n).stream().anyMatch(l -> l.type() == LinkType.NET)) {
                nics.add(n);
            }
        }
        if (count < 0 || count > nics.size()) {
            throw new IllegalArgumentException("cannot fail " + count + " of " + nics.size()
                    + " NICs with a network link; allowed: 0.." + nics.size());
        }
        Collections.shuffle(nics, new Random(seed));
        return nics.subList(0, count).stream().map(Nic::id).toList();
    }
}
