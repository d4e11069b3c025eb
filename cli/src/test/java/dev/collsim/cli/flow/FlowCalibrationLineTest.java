package dev.collsim.cli.flow;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * {@code predict --backend flow|links} says when the cluster's calibration profile is not in its times. A profile's
 * parameters correct the analytical time (NCCL's protocol efficiencies, per-channel caps, launch and latency terms;
 * configs/calibration/auto/ada-1host-pcie.yaml's {@code parameters:} block), and the flow time has none of these
 * terms, so they are not applied there. The catalog's 8x L40S PCIe host is of the shipped class ada-1host-pcie (one
 * host of Ada GPUs over PCIe: the profile's file name and its {@code fittedOn} L40S runs), so the default (auto)
 * names that file; {@code --calibration none} applies nothing and prints no such line.
 */
class FlowCalibrationLineTest {

    private static final String LINE = "# Calibration: configs/calibration/auto/ada-1host-pcie.yaml not applied"
            + " to the flow times (its parameters correct the analytical time); it sets NCCL's choice and the latency"
            + " floor only";

    @Test
    void flowNamesTheProfileItDoesNotApply() {
        CliRun auto = run("predict", "allreduce", "-c", "pcie-8x-l40s", "-b", "1G", "-e", "1G", "--backend", "flow");
        assertEquals(0, auto.code(), auto.err());
        assertTrue(auto.out().lines().anyMatch(LINE::equals), auto.out());
        CliRun none = run("predict", "allreduce", "-c", "dgx-h100x2", "-b", "1G", "-e", "1G", "--backend", "links",
                "--calibration", "none");
        assertEquals(0, none.code(), none.err());
        assertFalse(none.out().contains("# Calibration:"), none.out());
    }
}
