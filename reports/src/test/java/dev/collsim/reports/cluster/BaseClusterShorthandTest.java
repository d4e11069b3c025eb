package dev.collsim.reports.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.io.InputException;
import dev.collsim.topology.fabric.FabricKind;
import org.junit.jupiter.api.Test;

/**
 * A report variant's or plan's {@code cluster: dgx-h100:2} / {@code dgx-h100x2} is read as in every other command:
 * two DGX H100 hosts (8 GPUs each, DGX H100 User Guide) on a rail-optimized fabric, with the spec kept so variants can
 * change it.
 */
class BaseClusterShorthandTest {

    @Test
    void bothFormsGiveTwoHostsWithTheirSpec() throws InputException {
        for (String c : new String[] {"dgx-h100:2", "dgx-h100x2"}) {
            BaseCluster b = BaseCluster.load(c, null);
            assertEquals(16, b.topology().gpus().size(), c);
            assertEquals(2, b.spec().count(), c);
            assertEquals(FabricKind.RAIL_OPTIMIZED, b.spec().fabric().kind(), c);
        }
    }
}
