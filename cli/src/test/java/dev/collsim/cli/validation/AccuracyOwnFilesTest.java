package dev.collsim.cli.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * {@code collsim accuracy} on a user's own files: its second table is fitted on those files, so it must not claim to
 * be the shipped profiles' INDEX.md ("Written by `collsim calibrate --profiles configs/calibration/auto -m
 * validation/src/test/resources/data` (do not edit; ...)"), which it printed for any folder.
 */
class AccuracyOwnFilesTest {

    @Test
    void theProfileTableSaysItIsFittedOnTheFilesGiven() {
        CliRun r = CliRun.run("accuracy", "../validation/src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("\n## Calibration profiles per cluster class (the auto choice), fitted on the files"
                + " given\n\nWhat `collsim calibrate --profiles DIR -m FILES...` would write from these files"), r.out());
        assertTrue(!r.out().contains("Written by `collsim calibrate --profiles configs/calibration/auto")
                && !r.out().contains("Shipped calibration profiles"), r.out());
    }
}
