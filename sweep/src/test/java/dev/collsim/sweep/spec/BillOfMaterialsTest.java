package dev.collsim.sweep.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.topology.Topology;
import dev.collsim.topology.edit.ClusterEditor;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.topology.io.HardwareHints;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Parts counted on clusters whose fabric is worked out by hand from topology-model's FabricBuilder sizing rule (per
 * leaf d = min(radix, NICs per leaf) downlinks, S = max(1, round(d / oversubscription)) spines, one cable per
 * leaf-spine pair; NICs that fit one leaf get no spine). The default cluster is 8 ConnectX-7 NICs per DGX H100.
 */
class BillOfMaterialsTest {

    private static Topology build(int hosts, Integer radix, Double over) throws Exception {
        return ClusterEditor.build(ClusterLoader.resolve("default", HardwareHints.NONE, null).spec(),
                new ClusterEdits(hosts, null, null, null, FabricKind.FAT_TREE, over, null, radix));
    }

    @Test
    void oneLeafHasOneCablePerNicAndNoSpine() throws Exception {
        // 2 hosts x 8 NICs = 16 NICs, leaf radix 32: one leaf, 16 cables, 16 leaf ports
        assertEquals(new BillOfMaterials(16, Map.of("H100 SXM", 16), 16, 16, 16), BillOfMaterials.of(build(2, null,
                null)));
    }

    @Test
    void twoLeavesAtOneToOneGetSixteenSpines() throws Exception {
        // 4 hosts x 8 NICs = 32 NICs, radix 16: 2 leaves of d = 16; S = 16 spines, 2 x 16 = 32 leaf-spine cables;
        // cables 32 + 32 = 64; switch ports 32 (NIC ends) + 2 x 32 (both ends of leaf-spine cables) = 96
        assertEquals(new BillOfMaterials(32, Map.of("H100 SXM", 32), 32, 96, 64), BillOfMaterials.of(build(4, 16,
                1.0)));
    }

    @Test
    void twoToOneHalvesTheSpines() throws Exception {
        // as above with oversubscription 2: S = round(16 / 2) = 8 spines, 16 leaf-spine cables; cables 48,
        // switch ports 32 + 32 = 64
        assertEquals(new BillOfMaterials(32, Map.of("H100 SXM", 32), 32, 64, 48), BillOfMaterials.of(build(4, 16,
                2.0)));
    }

    @Test
    void costAddsPartsAndRunTime() {
        CostModel c = new CostModel("USD", 25000, Map.of("B200", 40000.0), 1500, 1000, 300, 2.0, 720, 0, 1200, 0.12);
        BillOfMaterials b = new BillOfMaterials(16, Map.of("H100 SXM", 16), 16, 16, 16);
        // 16 x 25000 + 16 x 1500 + 16 x 1000 + 16 x 300 = 400000 + 24000 + 16000 + 4800
        assertEquals(444_800, c.capital(b), 1e-6);
        // rent 16 GPUs x 2 USD x 720 h = 23040; energy 16 x 1.2 kW x 720 h x 0.12 USD/kWh = 1658.88
        assertEquals(23_040 + 1_658.88, c.running(16, c.runHours(Double.NaN)), 1e-6);
        // a B200 takes its own price: 8 x 40000
        assertEquals(320_000, c.capital(new BillOfMaterials(8, Map.of("B200", 8), 0, 0, 0)), 1e-6);
    }
}
