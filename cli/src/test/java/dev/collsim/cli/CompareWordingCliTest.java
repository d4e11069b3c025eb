package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What compare says of a one-host consumer box (2 RTX 2080 Ti behind one PCIe Gen3 switch, no P2P): no NIC is
 * assumed, since no traffic leaves the host; its class has no file in the band data, so it takes the band over every
 * class, 103.74 % below 1 MiB and 90.75 % at >= 1 MiB (configs/calibration/auto/bare-model-bands.yaml `all`: by hand
 * factor 2.0374, 1 - 1 / 2.0374 = 50.9 %; 1.9075, 1 - 1 / 1.9075 = 47.6 %): above the factor 2 that marks a band wide
 * below 1 MiB, which the calibration line and the "inside the band" count say. Two p4d hosts (class ampere-efa,
 * 188.51 / 159.53 %: factors 2.89 and 2.60) take a band wide at every size.
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
        assertTrue(r.out().contains("band factor 2.04 (-50.9 % .. +103.7 %) below 1 MiB, factor 1.91 (-47.6 % .. +90.8 %)"
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
