package dev.collsim.topology.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Nic;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The leaf of each NIC, worked out by hand from the rules in {@link LeafLayout}'s class comment. */
class LeafLayoutTest {

    /** Hosts 0..hosts-1 with k NICs each (rails 0..k-1), in host-then-rail order. */
    private static List<Nic> nics(int hosts, int k) {
        List<Nic> out = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            for (int r = 0; r < k; r++) {
                out.add(new Nic("h" + h + "/nic" + r, h, "", Bandwidth.ofGBps(50), 1, true, r, ""));
            }
        }
        return out;
    }

    private static List<List<String>> ids(List<List<Nic>> leaves) {
        return leaves.stream().map(l -> l.stream().map(Nic::id).toList()).toList();
    }

    /** Fat-tree, radix 4, 3 hosts of 2 NICs: chunks of 4 NICs, so hosts 0-1 on leaf 0, host 2 on leaf 1. */
    @Test
    void fatTreeChunksOfRadixNics() {
        LeafLayout l = new LeafLayout(FabricKind.FAT_TREE, 4);
        assertEquals(List.of(List.of("h0/nic0", "h0/nic1", "h1/nic0", "h1/nic1"), List.of("h2/nic0", "h2/nic1")),
                ids(l.leaves(nics(3, 2))));
        assertEquals(2, l.leafCount(2, 3));
        assertEquals(4, l.fullestLeaf(2, 3));
        assertEquals(1, l.unit(2 * 2, 2));
        assertTrue(l.wholeHosts(2));
        assertFalse(l.wholeHosts(3)); // 4 is no multiple of 3: a host straddles two leaves
    }

    /** Rail-optimized, radix 2, 3 hosts of 2 NICs: units {0,1} and {2}, one leaf per rail in each (4 leaves). */
    @Test
    void railUnitsOfRadixHosts() {
        LeafLayout l = new LeafLayout(FabricKind.RAIL_OPTIMIZED, 2);
        assertEquals(List.of(List.of("h0/nic0", "h1/nic0"), List.of("h0/nic1", "h1/nic1"), List.of("h2/nic0"),
                List.of("h2/nic1")), ids(l.leaves(nics(3, 2))));
        assertEquals(4, l.leafCount(2, 3));
        assertEquals(2, l.fullestLeaf(2, 3));
        assertEquals(2, l.leavesPerUnit(2));
        assertEquals(1, l.unit(5, 2));
        assertTrue(l.wholeHosts(3));
    }

    /** Single switch: one leaf holds every NIC. */
    @Test
    void singleSwitchOneLeaf() {
        LeafLayout l = new LeafLayout(FabricKind.SINGLE_SWITCH, 64);
        assertEquals(1, l.leaves(nics(3, 2)).size());
        assertEquals(1, l.leafCount(2, 3));
    }
}
