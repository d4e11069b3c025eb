package dev.collsim.reports.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report variant's band comes from the class of the NCCL nodes its communicators span, as predict's and tune's
 * ({@code ProfileClass.ofRanks}): dgx-h100x2 is two DGX H100 hosts of 8 GPUs each (NVIDIA DGX H100 datasheet), so a
 * sweep of {@code gpus: 8} runs on the first host alone (one NCCL node: hopper-1host-nvswitch) and one of all 16 GPUs
 * crosses the InfiniBand between them (hopper-infiniband).
 */
class VariantRanksClassTest {

    @TempDir
    Path dir;

    @Test
    void aSweepOnOneHostOfTwoTakesTheOneHostClass() throws Exception {
        assertEquals("hopper-1host-nvswitch", selection("gpus: 8"));
        assertEquals("hopper-infiniband", selection("gpus: 16"));
        assertEquals("hopper-infiniband", selection("gpus: all"));
    }

    /** The bare model ({@code calibration: none}) prints the band of the same class. */
    @Test
    void theBareBandFollowsTheSameRanks() throws Exception {
        ReportSpec one = spec("gpus: 8", "\n    calibration: none");
        ReportSpec two = spec("gpus: 16", "\n    calibration: none");
        SimulatorResolver r = new SimulatorResolver();
        r.resolve(one, one.variants().get(1));
        String oneHost = r.calibrationLabel(one.variants().get(1));
        SimulatorResolver r2 = new SimulatorResolver();
        r2.resolve(two, two.variants().get(1));
        String twoHosts = r2.calibrationLabel(two.variants().get(1));
        assertTrue(oneHost.startsWith("none") && twoHosts.startsWith("none"), oneHost + " / " + twoHosts);
        assertTrue(!oneHost.equals(twoHosts), "one host and two hosts carry different class bands: " + oneHost);
    }

    private String selection(String gpus) throws Exception {
        ReportSpec spec = spec(gpus, "");
        SimulatorResolver r = new SimulatorResolver();
        r.resolve(spec, spec.variants().get(1));
        String line = r.selections().get(0);
        return line.contains("hopper-1host-nvswitch") ? "hopper-1host-nvswitch"
                : line.contains("hopper-infiniband") ? "hopper-infiniband" : line;
    }

    private ReportSpec spec(String gpus, String calibration) throws Exception {
        return ReportSpecReader.read(dir.resolve("w.yaml").toString(), """
                cluster: dgx-h100x2
                variants:
                  - name: v
                    env: {NCCL_PROTO: Simple}%s
                sweeps: [{collective: allreduce, min: 1M, max: 1M, %s}]
                """.formatted(calibration, gpus), dir);
    }
}
