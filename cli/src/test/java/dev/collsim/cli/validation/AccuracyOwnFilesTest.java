package dev.collsim.cli.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.nio.file.Path;
import java.util.List;
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

    @Test
    void calibrationNoneKeepsTheBareColumnsAndLeavesOutTheFits() {
        String file = "../validation/src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt";
        CliRun full = CliRun.run("accuracy", file);
        CliRun bare = CliRun.run("accuracy", "--calibration", "none", file);
        assertEquals(0, bare.code(), bare.err());
        String row = bare.out().lines().filter(l -> l.startsWith("| A-allreduce-2x2xH100-dgx-ib.txt:19")).findFirst()
                .orElseThrow();
        String fullRow = full.out().lines().filter(l -> l.startsWith("| A-allreduce-2x2xH100-dgx-ib.txt:19"))
                .findFirst().orElseThrow();
        // cells: dataset, class, points >= 1 MiB, uncalibrated, calibrated, fitted, refused, note, points, below 1 MiB
        String[] b = row.split(" \\| ");
        String[] f = fullRow.split(" \\| ");
        assertEquals(List.of(f[0], f[1], f[2], f[3], f[8], f[9]), List.of(b[0], b[1], b[2], b[3], b[8], b[9]));
        assertEquals(List.of("-", "-", "-", "not calibrated (--calibration none)"), List.of(b[4], b[5], b[6], b[7]));
        assertTrue(!bare.out().contains("## Calibration profiles per cluster class"), bare.out());
        CliRun wrong = CliRun.run("accuracy", "--calibration", "auto", file);
        assertEquals(2, wrong.code(), wrong.out());
        assertTrue(wrong.err().contains("--calibration: found 'auto'; allowed: leave-one-out, none"), wrong.err());
    }

    /** The table's names are base names: its heading and dataset header name the folder compare -m needs. */
    @Test
    void tableNamesTheFolderOfItsDatasets() {
        CliRun r = CliRun.run("accuracy", "--calibration", "none",
                "../validation/src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("Datasets are FILE:LINE in ../validation/src/test/resources/data (compare one"
                + " with: collsim compare -m ../validation/src/test/resources/data/FILE:LINE)\n\n| dataset (in"
                + " ../validation/src/test/resources/data) | collective / GPU / hosts |"), r.out());
        assertEquals("a/b, .", AccuracyCommand.folders(List.of(Path.of("a/b/x.txt"), Path.of("a/b/y.txt"),
                Path.of("z.txt"))));
    }
}
