package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What compare says of a one-host consumer box (2 RTX 2080 Ti behind one PCIe Gen3 switch, no P2P): no NIC is
 * assumed, since no traffic leaves the host; its class has no file in the band data, so it takes the band over every
 * class, 151.8 % below 1 MiB and 106.75 % at >= 1 MiB (configs/calibration/auto/bare-model-bands.yaml `all`: by hand
 * factor 2.518, 1 - 1 / 2.518 = 60.3 %; 2.0675, 1 - 1 / 2.0675 = 51.6 %): wide at every size (factors above 2),
 * and compare says so. One ND H200 v5 host (class hopper-1host-nvswitch, 40.59 / 19.31 %: factors 1.41
 * and 1.19, 1 - 1 / 1.4059 = 28.9 %, 1 - 1 / 1.1931 = 16.2 %) takes a band that is not wide, and nothing calls it
 * wide. Two p4d hosts (class ampere-efa, 206.65 / 159.53 %: factors 3.07 and 2.60, 1 - 1 / 3.0665 = 67.4 %) take a
 * band wide at every size. (The figure printed next to factor 2 is PredictionBandWideTest's.)
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
        assertTrue(r.out().contains("band factor 2.52 (-60.3 % .. +151.8 %) below 1 MiB, factor 2.07 (-51.6 % .."
                + " +106.8 %) at >= 1 MiB (wide at every size"), r.out());
        assertTrue(r.out().contains("points, but the band is wide, so being inside says little of the prediction"),
                r.out());
        CliRun nvs = CliRun.run("compare", "-m", "../validation/src/test/resources/data/"
                + "A-allreduce-8xH200-azure-ndh200v5-nvls-nccl2.20-busbw-table.txt");
        assertEquals(0, nvs.code(), nvs.err());
        assertTrue(nvs.out().contains("band factor 1.41 (-28.9 % .. +40.6 %) below 1 MiB, factor 1.19 (-16.2 % .."
                + " +19.3 %) at >= 1 MiB"), nvs.out());
        assertFalse(nvs.out().contains("(wide"), nvs.out());
        assertFalse(nvs.out().contains("but the band is wide"), nvs.out());
        CliRun efa = CliRun.run("compare", "-m", "../validation/src/test/resources/data/"
                + "A-allreduce-2x8xA100-40GB-aws-p4d-dlami-efa-nccl2.23.txt");
        assertEquals(0, efa.code(), efa.err());
        assertTrue(efa.out().contains("band factor 3.07 (-67.4 % .. +206.7 %) below 1 MiB, factor 2.60 (-61.5 % .."
                + " +159.5 %) at >= 1 MiB (wide at every size"), efa.out());
        assertTrue(efa.out().contains("points, but the band is wide, so being inside says little of the prediction"),
                efa.out());
    }
}
