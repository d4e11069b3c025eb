package dev.collsim.cli.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * {@code --rails N}: only the first N compute NICs of each host are cabled. With one rail on 4 DGX H100 hosts every
 * ring channel leaves and enters each host through its single 400 Gb/s NIC, so a ring AllReduce of 1 GiB runs at
 * the NIC's 50 GB/s bus bandwidth (ring busbw = the per-host bottleneck bandwidth; here the one NIC carries all 8
 * channels, 6.25 GB/s each): between 49 and 50 GB/s once the 1 GiB transfer dwarfs the per-step latencies.
 */
class FlowRailsTest {

    private static final String[] ONE_RAIL = {"predict", "allreduce", "-c", "dgx-h100x4", "-b", "1G", "-e", "1G",
        "--backend", "flow", "--schedule", "ring", "--fabric", "rail-optimized", "--rails", "1"};

    @Test
    void oneRailLimitsTheRingToOneNic() {
        CliRun r = CliRun.run(ONE_RAIL);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("1rails (1 NICs/host)"), r.out());
        String row = r.out().lines().filter(l -> l.trim().startsWith("1073741824")).findFirst().orElseThrow();
        double busBw = Double.parseDouble(row.trim().split("\\s+")[7]);
        assertTrue(busBw > 49 && busBw <= 50, row);
    }

    /**
     * Four rails: the ring's 8 channels enter and leave every host only through the 4 GPUs with a cabled NIC (two
     * channels per NIC, as NCCL's search would place them), so the per-host network bandwidth is 4 x 50 GB/s and
     * ring busbw approaches 200 GB/s (ring busbw = the per-host bottleneck bandwidth).
     */
    @Test
    void fourRailsGiveFourNicsOfBandwidth() {
        String[] args = ONE_RAIL.clone();
        args[args.length - 1] = "4";
        CliRun r = CliRun.run(args);
        assertEquals(0, r.code(), r.err());
        String row = r.out().lines().filter(l -> l.trim().startsWith("1073741824")).findFirst().orElseThrow();
        double busBw = Double.parseDouble(row.trim().split("\\s+")[7]);
        assertTrue(busBw > 196 && busBw <= 200, row);
    }

    @Test
    void moreRailsThanNicsIsRefused() {
        String[] args = ONE_RAIL.clone();
        args[args.length - 1] = "9";
        CliRun r = CliRun.run(args);
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--rails: found 9, more than the 8 compute NICs"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void railsNeedAFabric() {
        CliRun r = CliRun.run("predict", "allreduce", "-c", "dgx-h100x4", "--backend",
                "flow", "--rails", "2");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("need --fabric"), r.err());
    }
}
