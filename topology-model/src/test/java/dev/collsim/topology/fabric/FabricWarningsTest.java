package dev.collsim.topology.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.catalog.Catalog;
import dev.collsim.units.Bandwidth;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A DGX H100 has 8 compute NICs (DGX H100 User Guide). With the default leaf radix of 32 NICs, 2 hosts (16 NICs) and
 * 4 hosts (32 NICs) fit under one leaf, so 2:1 oversubscription has nothing to act on; 5 hosts (40 NICs) need two
 * leaves and a spine, so it matters.
 */
class FabricWarningsTest {

    private static List<String> warnings(int hosts, double oversubscription) {
        FabricSpec f = new FabricSpec(FabricKind.FAT_TREE, null, oversubscription, FabricSpec.DEFAULT_LEAF_RADIX, 1,
                FabricSpec.DEFAULT_SWITCH_LATENCY);
        ClusterSpec spec = new ClusterSpec("t", "", Catalog.dgxH100(), hosts, f);
        return FabricWarnings.of(spec, spec.build());
    }

    @Test
    void oneLeafMakesOversubscriptionMeaningless() {
        for (int hosts : new int[] {2, 4}) {
            List<String> w = warnings(hosts, 2);
            assertEquals(1, w.size(), hosts + " hosts");
            assertTrue(w.get(0).startsWith("oversubscription 2:1 has no effect") && w.get(0).contains(hosts
                    + " hosts"), w.get(0));
        }
    }

    @Test
    void twoLeavesMakeItMatter() {
        assertTrue(warnings(5, 2).isEmpty());
    }

    @Test
    void nonBlockingNeedsNoWarning() {
        assertTrue(warnings(2, 1).isEmpty());
    }

    private static List<String> linkSpeedWarnings(Bandwidth link) {
        FabricSpec f = new FabricSpec(FabricKind.FAT_TREE, link, 1.0, FabricSpec.DEFAULT_LEAF_RADIX, 1,
                FabricSpec.DEFAULT_SWITCH_LATENCY);
        ClusterSpec spec = new ClusterSpec("t", "", Catalog.dgxH100(), 2, f);
        return FabricWarnings.of(spec, spec.build());
    }

    /**
     * 'linkSpeed: 400 GB/s' on 400 Gb/s NICs is 3200 Gb/s, 8x the NIC (1 byte = 8 bits): the warning names the
     * likely slip; 800 Gb/s (2x) is a what-if of faster cables, not a unit slip, and gets the warning alone.
     */
    @Test
    void aLinkSpeedInBytesForBitsNamesTheSlip() {
        List<String> w = linkSpeedWarnings(Bandwidth.ofGBps(400));
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).startsWith("fabric.linkSpeed 3200 Gb/s has no effect: the hosts' compute NICs run at 400"
                + " Gb/s"), w.get(0));
        assertTrue(w.get(0).endsWith("; 3200 Gb/s is 400 GB/s (bytes): if you meant 400 Gb/s (bits, as NIC ports are"
                + " sold), write linkSpeed: 400 Gb/s"), w.get(0));
        List<String> twice = linkSpeedWarnings(Bandwidth.ofGbits(800));
        assertEquals(1, twice.size(), twice.toString());
        assertTrue(twice.get(0).startsWith("fabric.linkSpeed 800 Gb/s has no effect") && !twice.get(0).contains(
                "if you meant"), twice.get(0));
    }
}
