package dev.collsim.reports.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.validation.calibration.ProfileSelector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report variant timed with {@code backend: flow} says on its calibration line that the profile corrects only the
 * analytical time, as {@code predict --backend flow} says its profile is not applied to the flow time: the flow
 * variant is the slower of the calibrated analytical time and the uncalibrated flow time (FlowPredictor SLOWER).
 */
class FlowCalibrationLineTest {

    @TempDir
    Path dir;

    /** A profile named by the variant (read by a stand-in: the line, not the parameters, is under test). */
    @Test
    void flowVariantsSayTheirProfileSkipsTheFlowTime() throws Exception {
        Files.writeString(dir.resolve("p.yaml"), "not read: the stand-in below makes the predictor\n");
        ReportSpec spec = ReportSpecReader.read(dir.resolve("w.yaml").toString(), """
                cluster: dgx-h100x2
                backend: flow
                variants:
                  - name: analytical one
                    backend: analytical
                    calibration: p.yaml
                  - name: flow one
                    calibration: p.yaml
                  - name: bare flow
                    calibration: none
                sweeps: [{collective: allreduce, min: 1M, max: 1M}]
                """, dir);
        SimulatorResolver r = new SimulatorResolver(file -> new NcclPredictor());
        for (int i = 1; i < 4; i++) {
            r.resolve(spec, spec.variants().get(i));
        }
        List<String> lines = r.selections();
        assertEquals(List.of("analytical one: calibration: p.yaml", "flow one: calibration: p.yaml"
                + SimulatorResolver.FLOW_NOTE), lines.subList(0, 2));
        assertFalse(lines.get(2).contains(SimulatorResolver.FLOW_NOTE), "the bare model has nothing to skip");
    }

    /**
     * The shipped profile of the cluster's class (auto): a flow variant's line carries the note exactly when its
     * class ships a profile (pcie-8x-l40s: one host of 8 L40S, Ada, joined by PCIe).
     */
    @Test
    void theShippedProfileLineSaysItToo() throws Exception {
        ReportSpec spec = ReportSpecReader.read(dir.resolve("w.yaml").toString(), """
                cluster: pcie-8x-l40s
                backend: flow
                sweeps: [{collective: allreduce, min: 1M, max: 1M}]
                """, dir);
        SimulatorResolver r = new SimulatorResolver();
        var base = r.resolve(spec, spec.variants().get(0));
        boolean ships = ProfileSelector.select(base.topology()).calibration().isPresent();
        assertEquals(ships, r.selections().get(0).endsWith(SimulatorResolver.FLOW_NOTE), r.selections()::toString);
    }
}
