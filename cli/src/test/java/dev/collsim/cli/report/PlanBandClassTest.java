package dev.collsim.cli.report;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * plan prints the band of the class of the NCCL nodes its job spans, as predict does: on dgx-h100x2 (two DGX H100
 * hosts of 8 GPUs, NVIDIA's datasheet) a job of tp 8 x dp 1 = 8 GPUs runs on the first host alone
 * (hopper-1host-nvswitch); dp 2 makes 16 GPUs, both hosts over InfiniBand (hopper-infiniband).
 */
class PlanBandClassTest {

    @Test
    void aJobOnOneHostOfTwoTakesTheOneHostBand() {
        CliRun one = run("plan", "-c", "dgx-h100x2", "--params", "1.3B", "--tp", "8", "--dp", "1");
        assertEquals(0, one.code(), one.err());
        assertTrue(one.out().contains("# calibration: none shipped for hopper-1host-nvswitch (")
                || one.out().contains("# calibration: configs/calibration/auto/hopper-1host-nvswitch.yaml"), one.out());
        CliRun two = run("plan", "-c", "dgx-h100x2", "--params", "1.3B", "--tp", "8", "--dp", "2");
        assertEquals(0, two.code(), two.err());
        assertTrue(two.out().contains("hopper-infiniband"), two.out());
    }
}
