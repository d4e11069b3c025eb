package dev.collsim.validation.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.calibration.CalibrationProfile;
import dev.collsim.validation.compare.PredictionBand;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class TuningBandTest {

    /**
     * The band of a calibration is its fit's residual p90: the shipped profile's text with its residuals set by hand
     * to n 40, p90 17.5 gives 17.5 % at every size, named with its 40 points.
     */
    @Test
    void calibratedBandIsTheProfilesResidualP90() throws Exception {
        String text = Files.readString(Path.of("../configs/calibration/h200x2-nv18-nccl2.28.yaml"));
        String edited = text.replaceFirst("(?m)^residualsPercent:\\n(?:  .*\\n)+",
                "residualsPercent:\n  \"n\": 40\n  median: 9.0\n  p90: 17.5\n  max: 30.0\n");
        assertTrue(!edited.equals(text), "the profile has a residualsPercent block");
        TuningBand b = TuningBand.of(CalibrationProfile.load("edited.yaml", edited).calibration());
        assertEquals(17.5, b.percentAt(1 << 20), 1e-12);
        assertEquals(17.5, b.percentAt(8), 1e-12);
        assertEquals("p90 of the calibration fit's residuals (40 points)", b.source());
    }

    @Test
    void uncalibratedBandIsTheRecordedAccuracyGateMedian() throws Exception {
        Properties gate = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/accuracy-gate.properties")) {
            gate.load(in);
        }
        // the band line stores the reach rounded UP to 2 decimals (PredictionBand.stored) and prints it to one; the
        // gate's headline rounds the same median to one decimal: 5.146 is 5.1 in the headline and 5.2 in the band
        double gateMedian = Double.parseDouble(gate.getProperty("medianOfMedians"));
        double band = TuningBand.UNCALIBRATED.percentAt(1 << 20);
        assertTrue(band >= gateMedian - 1e-9 && band <= gateMedian + 0.1 + 1e-9, band + " vs the gate's " + gateMedian);
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
