package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.validation.compare.ErrorStats;
import dev.collsim.validation.compare.PredictionBand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code calibrate -o} profile stores its band as every calibration file does ({@link PredictionBand#stored}: 2
 * decimals, rounded up), so the band read back is the one the command printed.
 */
class ProfileBandStoredTest {

    /**
     * 195.9478 % and 12.344 % are stored 195.95 and 12.35 (by hand, rounded up: 19594.78 -> 19595, 1234.4 -> 1235);
     * read back, the band is those values and prints the text the unrounded band printed.
     */
    @Test
    void bandIsStoredRoundedAndReadsBackTheSame(@TempDir Path dir) throws Exception {
        ErrorStats s = new ErrorStats(10, 5, 8, 9);
        Calibration c = new Calibration(PerformanceParameters.DEFAULTS, GpuGeneration.AMPERE,
                List.of(new FittedValue("latencyScale", 2.0, 0.1, 1.0, false)), new double[][] {{0.01}}, List.of(),
                s, s, s, List.of("x.txt:1 (all_reduce), 10"), 10, 3);
        PredictionBand band = new PredictionBand(195.9478, 12.344);
        Path f = dir.resolve("p.yaml");
        CalibrationProfile.writeWithCommand(c, "collsim calibrate -m x.txt -o p.yaml", band, "test rule", f);
        String yaml = Files.readString(f);
        assertTrue(yaml.contains("belowMiBPercent: 195.95\n") && yaml.contains("atLeastMiBPercent: 12.35\n"), yaml);
        PredictionBand back = CalibrationProfile.load(f).band().orElseThrow();
        assertEquals(new PredictionBand(195.95, 12.35), back);
        assertEquals(band.asStored(), back);
        assertEquals(band.regimes() + band.wideNote(), back.regimes() + back.wideNote());
    }
}
