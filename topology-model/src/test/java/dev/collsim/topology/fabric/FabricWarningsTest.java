package dev.collsim.topology.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.catalog.Catalog;
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
}
