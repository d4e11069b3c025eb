package dev.collsim.validation.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.collsim.validation.calibration.CalibrationProfile;
import dev.collsim.validation.compare.PredictionBand;
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
        assertEquals(22.2218, b.percentAt(1 << 20), 1e-4);
        assertEquals(22.2218, b.percentAt(8), 1e-4);
        assertEquals("p90 of the calibration fit's residuals (91 points)", b.source());
    }

    @Test
    void uncalibratedBandIsTheRecordedAccuracyGateMedian() throws Exception {
        Properties gate = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/accuracy-gate.properties")) {
            gate.load(in);
        }
        assertEquals(Double.parseDouble(gate.getProperty("medianOfMedians")), TuningBand.UNCALIBRATED.percentAt(1 << 20),
                1e-9);
    }

    @Test
    void refusesNonPositive() {
        assertThrows(IllegalArgumentException.class, () -> new TuningBand(0, "x"));
        assertThrows(IllegalArgumentException.class, () -> new TuningBand(Double.NaN, "x"));
        assertThrows(IllegalArgumentException.class, () -> new TuningBand(0, 5, "x"));
    }

    @Test
    void classBandHasOneFigurePerRegimeSplitAtOneMiB() {
        TuningBand b = TuningBand.ofClass(new PredictionBand(31.9, 50.1), "class");
        // 1 MiB = 1048576 B is the first size of the >= 1 MiB regime
        assertEquals(31.9, b.percentAt(1048575), 1e-12);
        assertEquals(50.1, b.percentAt(1048576), 1e-12);
        assertEquals("31.9 % below 1 MiB, 50.1 % at >= 1 MiB", b.text());
        assertEquals("10.1 %", new TuningBand(10.1, "x").text());
    }
}
