package dev.collsim.topology.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Device;
import dev.collsim.topology.Link;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ClusterSpec#materializeHosts} (hosts a schedule touches, {@link SubsetFabric}) against the whole cluster
 * built by {@link ClusterSpec#materialize()} ({@link FabricBuilder}, which groups the NICs it is given): with every
 * host the two graphs are the same link for link (id, ends, speed, latency); with some hosts, every device and link
 * is the whole cluster's own, and the part holds exactly those hosts' devices, the leaves their NICs are cabled to
 * and every spine with all its cables to those leaves. Fabrics: rail-optimized, fat-tree and single switch, 1:1 and
 * 2:1 and 3:1, one and two planes, leaf radix from 2 to 32, 2 to 33 DGX H100 hosts (8 compute NICs each).
 */
class SubsetFabricTest {

    static Stream<Arguments> fabrics() {
        List<Arguments> out = new ArrayList<>();
        for (FabricKind kind : FabricKind.values()) {
            for (int radix : new int[] {2, 3, 16, 32}) {
                for (int planes : new int[] {1, 2}) {
                    for (double over : new double[] {1.0, 2.0, 3.0}) {
                        for (int hosts : new int[] {2, 5, 33}) {
                            out.add(Arguments.of(new FabricSpec(kind, null, over, radix, planes,
                                    Latency.ofMicros(0.6)), hosts));
                        }
                    }
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} x{1}")
    @MethodSource("fabrics")
    void everyHostGivesTheWholeCluster(FabricSpec fabric, int hosts) {
        ClusterSpec spec = new ClusterSpec("c", "", Catalog.dgxH100(), hosts, fabric);
        Topology full = spec.materialize();
        int[] all = new int[hosts];
        for (int h = 0; h < hosts; h++) {
            all[h] = h;
        }
        Topology part = spec.materializeHosts(all);
        assertEquals(links(full), links(part));
        assertEquals(full.gpus(), part.gpus());
    }

    @ParameterizedTest(name = "{0} x{1}")
    @MethodSource("fabrics")
    void someHostsArePartOfTheWholeCluster(FabricSpec fabric, int hosts) {
        ClusterSpec spec = new ClusterSpec("c", "", Catalog.dgxH100(), hosts, fabric);
        Topology full = spec.materialize();
        int[] some = {hosts - 1, 1};
        Topology part = spec.materializeHosts(some);
        Set<String> fullLinks = links(full);
        for (String l : links(part)) {
            assertTrue(fullLinks.contains(l), "not in the whole cluster: " + l);
        }
        // expected part, picked out of the whole cluster: the two hosts' devices, the switches cabled to their
        // NICs, every spine; and every link of the whole cluster between two of those
        Set<String> keep = new TreeSet<>();
        for (Device d : full.graph().vertexSet()) {
            boolean spine = d instanceof NetSwitch s && s.tier() == NetSwitch.Tier.SPINE;
            if (d.host() == 1 || d.host() == hosts - 1 || spine) {
                keep.add(d.id());
            }
        }
        for (Link l : full.graph().edgeSet()) {
            Device a = full.source(l);
            Device b = full.target(l);
            if (b instanceof NetSwitch && (a.host() == 1 || a.host() == hosts - 1)) {
                keep.add(b.id());
            }
        }
        Set<String> expected = full.graph().edgeSet().stream()
                .filter(l -> keep.contains(full.source(l).id()) && keep.contains(full.target(l).id()))
                .map(l -> describe(full, l)).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(expected, links(part));
        assertEquals(keep, part.graph().vertexSet().stream().map(Device::id)
                .collect(Collectors.toCollection(TreeSet::new)));
        assertEquals(hosts, part.hostCount());
    }

    @Test
    void aHundredThousandHostsBuildTheHostsAsked() {
        ClusterSpec spec = new ClusterSpec("dgx-h100x100000", "", Catalog.dgxH100(), 100_000,
                FabricSpec.of(FabricKind.RAIL_OPTIMIZED));
        Topology described = spec.build();
        Topology part = described.withHostsOnly(new int[] {0, 99_999});
        assertFalse(described.graphBuilt());
        assertEquals(16, part.gpus().size());
        assertEquals(100_000, part.hostCount());
        // 100,000 hosts / 32 per scalable unit = 3,125 units of 8 rail leaves; host 99,999 is in unit 3,124
        assertTrue(part.device("leaf" + (3124 * 8 + 7)).isPresent());
        assertTrue(part.device("leaf0").isPresent());
        assertTrue(part.device("leaf8").isEmpty(), "unit 1 (hosts 32..63) is not touched");
        assertThrows(IllegalArgumentException.class, () -> spec.materializeHosts(new int[] {100_000}));
    }

    private static Set<String> links(Topology t) {
        return t.graph().edgeSet().stream().map(l -> describe(t, l)).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String describe(Topology t, Link l) {
        return l.id() + " " + t.source(l).id() + ">" + t.target(l).id() + " " + l.type() + " " + l.count() + " "
                + l.bandwidth() + " " + l.ncclBandwidth() + " " + l.latency() + " " + l.detail();
    }
}
