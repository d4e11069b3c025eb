package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.UserInputException;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.fabric.Bisection;
import dev.collsim.topology.fabric.FabricKind;
import org.junit.jupiter.api.Test;

/**
 * The multi-host shorthand of {@code -c}: {@code NAMExN} and {@code NAME:N}. Expected sizes by hand from the DGX H100
 * User Guide: 8 GPUs and 8 ConnectX-7 400 Gb/s (= 50 GB/s) compute NICs per host; on a non-blocking rail-optimized
 * fabric one host of two sends through its 8 NICs, so the bisection is 8 x 50 = 400 GB/s per direction.
 */
class ClusterShorthandTest {

    @Test
    void nameTimesCount() throws InputException {
        check(ClusterLoader.load("dgx-h100x2"));
    }

    @Test
    void nameColonCount() throws InputException {
        check(ClusterLoader.load("dgx-h100:2"));
    }

    @Test
    void caseAndSpacesDoNotMatter() throws InputException {
        check(ClusterLoader.load(" DGX-H100:2 "));
    }

    private static void check(Topology t) {
        assertEquals(2, t.hostCount());
        assertEquals(16, t.gpus().size());
        assertEquals(8, t.gpusOf(1).size());
        assertFalse(t.devices(NetSwitch.class).isEmpty(), "hosts are joined by a fabric");
        assertEquals(400.0, Bisection.of(t).gbps(), 1e-6);
    }

    @Test
    void shorthandIsRailOptimized() {
        var spec = ClusterLoader.shorthand("dgx-h100:4").orElseThrow();
        assertEquals(4, spec.count());
        assertEquals("dgx-h100", spec.hostType().name());
        assertEquals(FabricKind.RAIL_OPTIMIZED, spec.fabric().kind());
        assertEquals(spec, ClusterLoader.shorthand("dgx-h100x4").orElseThrow());
    }

    @Test
    void notShorthand() {
        assertTrue(ClusterLoader.shorthand("dgx-h100").isEmpty());
        assertTrue(ClusterLoader.shorthand("no-such-hostx2").isEmpty());
        assertTrue(ClusterLoader.shorthand("dgx-h100:0").isEmpty());
        assertTrue(ClusterLoader.shorthand("dgx-h100:").isEmpty());
        UserInputException e = assertThrows(UserInputException.class, () -> ClusterLoader.load("dgx-h100:0"));
        // a known host type with 0 hosts is named as such (not as an unknown name), a bad option value: usage (2)
        assertTrue(e.getMessage().contains("hosts must be >= 1, found 0 (dgx-h100x1 is one host)"), e.getMessage());
        assertEquals(UserInputException.USAGE, e.exitCode());
        // a name that is no file, config or catalog name, typed after -c: a bad option value too (usage, 2)
        UserInputException unknown = assertThrows(UserInputException.class, () -> ClusterLoader.load("no-such-hostx2"));
        assertTrue(unknown.getMessage().contains("NAMExN or NAME:N"), unknown.getMessage());
        assertEquals(UserInputException.USAGE, unknown.exitCode());
    }

    /**
     * The "did you mean" of a mistyped -c keeps the host count the user typed, as NAMExN: a space before x, an
     * underscore for the hyphen, a colon; the x inside a name (rtx4090) is no count.
     */
    @Test
    void nearMissKeepsTheHostCount() {
        assertEquals("; did you mean 'dgx-h100x2'?", ClusterLoader.suggestion("dgx-h100 x2"));
        assertEquals("; did you mean 'dgx-h100x4'?", ClusterLoader.suggestion("dgx_h100:4"));
        assertEquals("; did you mean 'dgx-h100'?", ClusterLoader.suggestion("dgx-h1000"));
        assertEquals("; did you mean 'pcie-8x-rtx4090'?", ClusterLoader.suggestion("pcie-8x-rtx409"));
        assertEquals("", ClusterLoader.suggestion("banana x2"));
        // an alias (Azure's "ND H100 v5") suggests the catalog name, which takes the count (the alias, with its
        // spaces, does not: "nd h100 v5x2" names nothing)
        assertEquals("; did you mean 'Standard_ND96isr_H100_v5x2'?", ClusterLoader.suggestion("nd-h100-v5x2"));
        assertEquals("; did you mean 'nd h100 v5 (= Standard_ND96isr_H100_v5)'?",
                ClusterLoader.suggestion("nd-h100-v5"));
    }
}
