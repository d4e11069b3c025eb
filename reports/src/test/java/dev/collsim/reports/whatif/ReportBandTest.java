package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import org.junit.jupiter.api.Test;

/**
 * The report names each variant's band and says "open squares: measured times" only under a time chart that has
 * measured times. dgx-h100 is class hopper-1host-nvswitch, shipped without a profile; its bare band in
 * configs/calibration/auto/bare-model-bands.yaml is 46.88 % below 1 MiB and 54.59 % at >= 1 MiB: factors 1.4688 and
 * 1.5459, reaching 1 - 1 / 1.4688 = 31.9 % and 1 - 1 / 1.5459 = 35.3 % below the prediction.
 */
class ReportBandTest {

    private static String timeCaption(ReportData d) {
        return ReportCharts.build(d).stream().filter(c -> c.caption().startsWith("Predicted time of one"))
                .findFirst().orElseThrow().caption();
    }

    @Test
    void eachVariantNamesItsBand() throws InputException {
        ReportData d = DgxH100Sweep.run("");
        assertEquals("- (bare model; band factor 1.47 (-31.9 % .. +46.9 %) below 1 MiB, factor 1.55 (-35.3 % .. "
                + "+54.6 %) at >= 1 MiB)", d.variants().get(0).calibration());
    }

    @Test
    void openSquaresOnlyWithMeasuredTimes() throws InputException {
        String without = timeCaption(DgxH100Sweep.run(""));
        assertFalse(without.contains("open squares"), without);
        String with = timeCaption(DgxH100Sweep.run(
                "    measured: A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt\n"));
        assertTrue(with.contains("open squares: measured times"), with);
    }
}
