package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What compare says of a one-host consumer box (2 RTX 2080 Ti behind one PCIe Gen3 switch, no P2P): no NIC is
 * assumed, since no traffic leaves the host; its class has no file in the band data, so it takes the band over every
 * class, 122.6 % below 1 MiB and 90.95 % at >= 1 MiB (configs/calibration/auto/bare-model-bands.yaml `all`: by hand
 * factor 2.226, 1 - 1 / 2.226 = 55.1 %; 1.9095, 1 - 1 / 1.9095 = 47.6 %): above the factor 2 that marks a band wide
 * below 1 MiB, which the calibration line and the "inside the band" count say. Two p4d hosts (class ampere-efa,
 * 208.49 / 191.34 %: factors 3.08 and 2.91) take a band wide at every size.
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
        assertTrue(r.out().contains("band factor 2.23 (-55.1 % .. +122.6 %) below 1 MiB, factor 1.91 (-47.6 % .. +91.0 %)"
                + " at >= 1 MiB (wide below 1 MiB"), r.out());
        assertTrue(r.out().contains("points, but the band is wide, so being inside says little of the prediction"),
                r.out());
        CliRun efa = CliRun.run("compare", "-m", "../validation/src/test/resources/data/"
                + "A-allreduce-2x8xA100-40GB-aws-p4d-dlami-efa-nccl2.23.txt");
        assertEquals(0, efa.code(), efa.err());
        assertTrue(efa.out().contains("points, but the band is wide, so being inside says little of the prediction"),
                efa.out());
    }
}
