package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What compare says of a one-host consumer box (2 RTX 2080 Ti behind one PCIe Gen3 switch, no P2P): no NIC is
 * assumed, since no traffic leaves the host; and its class has no own band (one file), so it takes the band over
 * every class, factor 5.24 below 1 MiB and 2.47 at >= 1 MiB (configs/calibration/auto/INDEX.md): wide, which the
 * "inside the band" count says before it can read as a validation.
 */
class CompareWordingCliTest {

    private static final String FILE = "../validation/src/test/resources/data/"
            + "A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt";

    @Test
    void oneHostAssumesNoNicAndAWideBandSaysSo() {
        CliRun r = CliRun.run("compare", "-m", FILE);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("(GPU-GPU path PIX, read from the header); no NIC: one host, so no traffic leaves"
                + " it"), r.out());
        assertFalse(r.out().contains("NIC per GPU"), r.out());
        assertTrue(r.out().contains("points, but the band is wide, so being inside says little of the prediction"),
                r.out());
    }
}
