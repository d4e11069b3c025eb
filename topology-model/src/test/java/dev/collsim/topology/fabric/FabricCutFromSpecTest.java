package dev.collsim.topology.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.units.Latency;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The cut of a large cluster described once, laid out from its fabric spec without building it, against the cut of
 * the same cluster's graph, and by hand. DGX H100: 8 compute NICs of 400 Gb/s = 50 GB/s (NVIDIA DGX H100 User Guide).
 */
class FabricCutFromSpecTest {

    private static Topology cluster(FabricKind kind, double ratio, int radix, int hosts) {
        FabricSpec f = new FabricSpec(kind, null, ratio, radix, 1, Latency.ofMicros(0.6));
        return new ClusterSpec("t", "test", Catalog.dgxH100(), hosts, f).build();
    }

    private static int[] all(int hosts) {
        return IntStream.range(0, hosts).toArray();
    }

    /** 40 hosts, 2:1: the spec's layout gives the groups and uplinks the built graph has, for both fabric kinds. */
    @Test
    void specLayoutEqualsTheBuiltCut() {
        for (FabricKind kind : new FabricKind[] {FabricKind.FAT_TREE, FabricKind.RAIL_OPTIMIZED}) {
            Topology t = cluster(kind, 2, 16, 40);
            FabricCut spec = FabricCut.fromSpec(t, all(40)).orElseThrow();
            t.graph(); // build it: the cut below reads the switches and cables
            FabricCut built = FabricCut.of(t, all(40)).orElseThrow();
            assertEquals(built.groups().size(), spec.groups().size(), kind.toString());
            for (int i = 0; i < built.groups().size(); i++) {
                assertEquals(built.groups().get(i).hosts(), spec.groups().get(i).hosts(), kind + " group " + i);
                assertEquals(built.groups().get(i).uplinkGBps(), spec.groups().get(i).uplinkGBps(), 1e-9,
                        kind + " group " + i);
            }
        }
    }

    /**
     * 600 hosts (above the 512 a partial build allows), fat-tree of radix 16 at 2:1: a leaf holds 16 / 8 = 2 hosts,
     * 300 groups, each leaf's uplink 16 x 50 / 2 = 400 GB/s; rail-optimized, radix 16: units of 16 hosts, 38 groups
     * (the last of 8 hosts), each 8 rail leaves x 16 x 50 / 2 = 3,200 GB/s. The cluster stays unbuilt.
     */
    @Test
    void largeClusterCutByHand() {
        Topology fat = cluster(FabricKind.FAT_TREE, 2, 16, 600);
        FabricCut c = FabricCut.of(fat, all(600)).orElseThrow();
        assertEquals(300, c.groups().size());
        assertEquals(List.of(598, 599), c.groups().get(299).hosts());
        assertEquals(400.0, c.groups().get(0).uplinkGBps(), 1e-9);
        Topology rail = cluster(FabricKind.RAIL_OPTIMIZED, 2, 16, 600);
        FabricCut r = FabricCut.of(rail, all(600)).orElseThrow();
        assertEquals(38, r.groups().size());
        assertEquals(8, r.groups().get(37).hosts().size());
        assertEquals(3200.0, r.groups().get(0).uplinkGBps(), 1e-9);
        assertFalse(fat.graphBuilt() || rail.graphBuilt());
    }

    /**
     * Rail-optimized, radix 4, 6 hosts at 2:1, a partial last unit: units {0..3} and {4, 5}. Every rail leaf is cabled
     * for the fullest leaf's d = min(4, 4 hosts) = 4 downlinks: 4 x 50 / 2 = 100 GB/s of uplink (2 spines of 50), so
     * each unit's 8 rail leaves give 800 GB/s, the partial unit's as the full one's; the spec's layout and the built
     * graph both say so.
     */
    @Test
    void railPartialLastUnitByHand() {
        Topology t = cluster(FabricKind.RAIL_OPTIMIZED, 2, 4, 6);
        FabricCut spec = FabricCut.fromSpec(t, all(6)).orElseThrow();
        t.graph();
        FabricCut built = FabricCut.of(t, all(6)).orElseThrow();
        for (FabricCut c : List.of(spec, built)) {
            assertEquals(List.of(new FabricCut.Group(List.of(0, 1, 2, 3), 800.0),
                    new FabricCut.Group(List.of(4, 5), 800.0)), c.groups());
        }
    }

    /** A radix that splits a host's NICs over two leaves (12 is no multiple of 8) is not laid out: empty. */
    @Test
    void straddlingHostsAreNotLaidOut() {
        assertTrue(FabricCut.fromSpec(cluster(FabricKind.FAT_TREE, 2, 12, 600), all(600)).isEmpty());
    }
}
