package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.collsim.topology.LinkType;
import org.junit.jupiter.api.Test;

/** How the nodes' figures agree (the weakest node's) and what a figure says of itself. */
class ScaleUpTest {

    @Test
    void weakerIsTheLowerRateThenTheFewerPeers() {
        ScaleUp mesh = new ScaleUp(150, LinkType.NVLINK, 4, false);
        ScaleUp pair = new ScaleUp(150, LinkType.NVLINK, 1, false);
        ScaleUp pcie = new ScaleUp(31.5, LinkType.PCIE, 0, false);
        assertSame(pair, mesh.weaker(pair));
        assertSame(pair, pair.weaker(mesh));
        assertSame(pcie, mesh.weaker(pcie));
        assertSame(pcie, pcie.weaker(mesh));
    }

    @Test
    void c2cIsNamedAndBadFiguresAreRefused() {
        assertEquals("no NVLink: 450.0 GB/s C2C per GPU", new ScaleUp(450, LinkType.C2C, 0, false).describe());
        assertEquals("900.0 GB/s scale-up per GPU", new ScaleUp(900, LinkType.NVLINK, 0, true).describe());
        assertThrows(IllegalArgumentException.class, () -> new ScaleUp(-1, LinkType.PCIE, 0, false));
        assertThrows(IllegalArgumentException.class, () -> new ScaleUp(Double.NaN, LinkType.PCIE, 0, false));
        assertThrows(IllegalArgumentException.class, () -> new ScaleUp(10, LinkType.NVLINK, -1, false));
    }
}
