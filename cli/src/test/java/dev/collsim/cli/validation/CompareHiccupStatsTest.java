package dev.collsim.cli.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * compare's |error| statistics leave out a row diagnose calls a hiccup (its error is the run's, not the model's) and
 * say how many they left out.
 */
class CompareHiccupStatsTest {

    /**
     * validation/src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt has 31 sizes (lines 21-51, 8 B to 8 GiB);
     * line 32 (16384 B) is out-of-place 291.4 us against in-place 24.76 us, 11.8x: a hiccup. Its error is about
     * -93 % (the model predicts near the in-place time), the largest of the file; left out, the statistics count 30
     * points, 12 of them below 64 KiB (lines 21-33: 13 sizes from 8 to 32768 B, less the hiccup), and no max is 93.3.
     */
    @Test
    void hiccupIsLeftOutOfTheStatistics() {
        CliRun r = CliRun.run("compare", "--measured",
                "../validation/src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt", "-c", "dgx-h100:2");
        assertEquals(0, r.code(), r.err());
        String line = r.out().lines().filter(l -> l.startsWith("  |error| of time (%)")).findFirst().orElseThrow();
        assertTrue(line.startsWith("  |error| of time (%), 1 hiccup left out (16384 B): all n=30 "), line);
        assertTrue(line.contains("| < 64 KiB: n=12 "), line);
        assertFalse(line.contains("max 93.3"), line);
        assertTrue(r.out().contains("  hiccup (diagnose, line 32)"), r.out());
    }
}
