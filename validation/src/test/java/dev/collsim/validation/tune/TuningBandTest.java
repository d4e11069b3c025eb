package dev.collsim.validation.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.collsim.validation.calibration.CalibrationProfile;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class TuningBandTest {

    @Test
    void calibratedBandIsTheShippedProfilesResidualP90() throws Exception {
        // configs/calibration/h200x2-nv18-nccl2.28.yaml: residualsPercent n 91, p90 22.221752890838314
        TuningBand b = TuningBand.of(CalibrationProfile.read(
                Path.of("../configs/calibration/h200x2-nv18-nccl2.28.yaml")));
        assertEquals(22.2218, b.percent(), 1e-4);
        assertEquals("p90 of the calibration fit's residuals (91 points)", b.source());
    }

    @Test
    void uncalibratedBandIsTheRecordedAccuracyGateMedian() throws Exception {
        Properties gate = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/accuracy-gate.properties")) {
            gate.load(in);
        }
        assertEquals(Double.parseDouble(gate.getProperty("medianOfMedians")), TuningBand.UNCALIBRATED.percent(), 1e-9);
    }

    @Test
    void refusesNonPositive() {
        assertThrows(IllegalArgumentException.class, () -> new TuningBand(0, "x"));
        assertThrows(IllegalArgumentException.class, () -> new TuningBand(Double.NaN, "x"));
    }
}
