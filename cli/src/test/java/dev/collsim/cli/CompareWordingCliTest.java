package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What compare says of a one-host consumer box (2 RTX 2080 Ti behind one PCIe Gen3 switch, no P2P): no NIC is
 * assumed, since no traffic leaves the host; its class has no file in the band data, so it takes the band over every
 * class, 99.85 % below 1 MiB and 82.47 % at >= 1 MiB (configs/calibration/auto/bare-model-bands.yaml `all`: by hand
 * factor 1.9985, 1 - 1 / 1.9985 = 49.96 %; 1.8247, 1 - 1 / 1.8247 = 45.2 %): just under the factor 2 that marks a
 * band wide, printed "1.999" and "-49.96 %" (at 2 and 1 decimals they would round onto "2.00" and "-50.0 %"), so
 * neither the calibration line nor the "inside the band" count calls it wide. Two p4d hosts (class
 * ampere-efa, 206.65 / 159.53 %: factors 3.07 and 2.60, 1 - 1 / 3.0665 = 67.4 %) take a band wide at every size.
 */
class CompareWordingCliTest {

    private static final String FILE = "../validation/src/test/resources/data/"
            + "A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt";

    @Test
    void oneHostAssumesNoNicAndOnlyAWideBandSaysSo() {
        CliRun r = CliRun.run("compare", "-m", FILE);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("(GPU-GPU path PIX, read from the header); no NIC: one host, so no traffic leaves"
                + " it"), r.out());
        assertFalse(r.out().contains("NIC per GPU"), r.out());
        assertTrue(r.out().contains("band factor 1.999 (-49.96 % .. +99.9 %) below 1 MiB, factor 1.82 (-45.2 % .. +82.5 %)"
                + " at >= 1 MiB"), r.out());
        assertFalse(r.out().contains("(wide below 1 MiB"), r.out());
        assertFalse(r.out().contains("but the band is wide"), r.out());
        CliRun efa = CliRun.run("compare", "-m", "../validation/src/test/resources/data/"
                + "A-allreduce-2x8xA100-40GB-aws-p4d-dlami-efa-nccl2.23.txt");
        assertEquals(0, efa.code(), efa.err());
        assertTrue(efa.out().contains("band factor 3.07 (-67.4 % .. +206.7 %) below 1 MiB, factor 2.60 (-61.5 % .."
                + " +159.5 %) at >= 1 MiB (wide at every size"), efa.out());
        assertTrue(efa.out().contains("points, but the band is wide, so being inside says little of the prediction"),
                efa.out());
    }
}
