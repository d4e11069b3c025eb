package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What compare says of a one-host consumer box (2 RTX 2080 Ti behind one PCIe Gen3 switch, no P2P): no NIC is
 * assumed, since no traffic leaves the host; its class has no own band (one file), so it takes the band over every
 * class, 89.94 % below 1 MiB and 84.71 % at >= 1 MiB (configs/calibration/auto/bare-model-bands.yaml `all`: by hand
 * factor 1.90, 1 - 1 / 1.8994 = 47.4 %; 1.85, 1 - 1 / 1.8471 = 45.9 %), under the factor 2 that marks a band wide.
 * Two p4d hosts (class ampere-efa, 231.41 / 191.34 %: factors 3.31 and 2.91) take a wide band, which the "inside the
 * band" count says before it can read as a validation.
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
        assertTrue(r.out().contains("band factor 1.90 (-47.4 % .. +89.9 %) below 1 MiB, factor 1.85 (-45.9 % .. +84.7 %)"
                + " at >= 1 MiB"), r.out());
        assertFalse(r.out().contains("the band is wide"), r.out());
        CliRun efa = CliRun.run("compare", "-m", "../validation/src/test/resources/data/"
                + "A-allreduce-2x8xA100-40GB-aws-p4d-dlami-efa-nccl2.23.txt");
        assertEquals(0, efa.code(), efa.err());
        assertTrue(efa.out().contains("points, but the band is wide, so being inside says little of the prediction"),
                efa.out());
    }
}
