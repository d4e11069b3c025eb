package dev.collsim.cli.validation;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code FILE:LINE}, as compare's headings, diagnose and accuracy name a dataset, given back to compare and diagnose:
 * it chooses the table of FILE that starts at LINE.
 *
 * <p>The file's five tables start (their {@code #  size  count  type ...} column titles) at lines 81, 122, 179, 268
 * and 309, read off the file ({@code grep -n "^#  *size  *count"}): run 1 (8 hosts), 2 (2 hosts), 3 (4 hosts), 4 (8
 * hosts, NCCL_MIN_CTAS=24) and 5 (2 hosts, NCCL_ALGO=Ring).
 */
class TableAtLineCliTest {

    private static final Path DATA = Path.of("../validation/src/test/resources/data");
    private static final String RUNS = "A-allreduce-2x8-4x8-8x8xH100-ib400-mincta24-issue-nccltests309-gjaion.txt";
    private static final List<Integer> STARTS = List.of(81, 122, 179, 268, 309);

    @Test
    void compareReadsOnlyTheTableThatStartsAtTheLine() {
        CliRun r = run("compare", "-m", DATA.resolve(RUNS) + ":122", "--calibration", "none", "--summary");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains(RUNS + ":122 (run 2: 2 nodes x 8 GPUs"), r.out());
        assertTrue(r.out().contains("all_reduce, 16 ranks"), r.out());
        for (int other : STARTS) {
            assertEquals(other == 122, r.out().contains(RUNS + ":" + other + " ("), other + "\n" + r.out());
        }
    }

    @Test
    void diagnoseReadsOnlyTheTableThatStartsAtTheLine() {
        CliRun r = run("diagnose", DATA.resolve(RUNS) + ":268");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains(RUNS + ":268 (run 4: 8 nodes x 8 GPUs, NCCL_MIN_CTAS=24"), r.out());
        for (int other : STARTS) {
            assertEquals(other == 268, r.out().contains(RUNS + ":" + other + " ("), other + "\n" + r.out());
        }
    }

    @Test
    void diagnoseJudgesTheChosenRunAgainstTheFilesOtherRuns() {
        // the DGX Spark file: run 1 (via a switch, RS-FEC) has its table at line 20, run 2 (direct cable, FEC off) at
        // 40; their 4 GiB rows (lines 24 and 44) read 22.46 and 2.83 GB/s busbw in place: 7.9x apart
        String file = "A-allgather-2x1xGB10-dgxspark-roce200-switch-vs-direct.txt";
        CliRun r = run("diagnose", DATA.resolve(file) + ":40");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains(file + ":40 (run 2: direct QSFP cable"), r.out());
        assertFalse(r.out().contains(file + ":20 ("), r.out());
        assertTrue(r.out().contains("busbw at 4294967296 bytes is 2.83 GB/s here but 22.46 GB/s in 'run 1: via QSFP"
                + " switch, Active FEC encoding: RS' (7.9x)"), r.out());
        assertTrue(r.out().contains("evidence " + file + ":24:"), r.out());
    }

    @Test
    void aLineThatStartsNoTableIsAnInputErrorListingTheLinesThatDo() {
        String file = DATA.resolve(RUNS).toString();
        // 270 is a row of run 4's table, not where a table starts; the other file is fine, yet the command fails
        CliRun r = run("compare", "-m", file + ":270", DATA.resolve("A-allreduce-2x2xH100-dgx-ib.txt").toString(),
                "--calibration", "none");
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains(file + ":270: table: found no table starting at line 270; allowed: 81, 122, 179,"
                + " 268, 309 (the lines its tables start at, as compare and accuracy print FILE:LINE)"), r.err());
        CliRun d = run("diagnose", file + ":0");
        assertEquals(3, d.code(), d.err());
        assertTrue(d.err().contains(file + ": table: found no table starting at line 0; allowed: 81, 122, 179, 268,"
                + " 309"), d.err());
    }

    @Test
    void aFileWhoseNameHasAColonAndDigitsIsStillThatFile(@TempDir Path dir) throws Exception {
        Path named = dir.resolve("runs.txt:81");
        Files.copy(DATA.resolve(RUNS), named);
        CliRun whole = run("diagnose", named.toString());
        assertEquals(0, whole.code(), whole.err());
        for (int line : STARTS) {
            assertTrue(whole.out().contains("runs.txt:81:" + line + " ("), line + "\n" + whole.out());
        }
        CliRun one = run("diagnose", named + ":309");
        assertEquals(0, one.code(), one.err());
        assertTrue(one.out().contains("runs.txt:81:309 (run 5"), one.out());
        assertFalse(one.out().contains("runs.txt:81:81 ("), one.out());
    }

    @Test
    void aLineAfterAFolderIsRefusedSayingSo() {
        CliRun r = run("diagnose", DATA + ":5");
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains("collsim: " + DATA + ":5: no such file, and " + DATA + " is a folder; allowed:"
                + " FILE:LINE (a table of one file) or a folder (every table of its files)"), r.err());
        CliRun missing = run("diagnose", DATA.resolve("no-such-run.txt") + ":5");
        assertEquals(3, missing.code(), missing.err());
        assertTrue(missing.err().contains(DATA.resolve("no-such-run.txt") + ":5: no such file"), missing.err());
    }

    /** A word that is a file and a colon but no line number (a typo, a column pasted too) names the file it found. */
    @Test
    void aColonAfterAFileWithoutALineNumberIsRefusedSayingSo() {
        Path file = DATA.resolve(RUNS);
        CliRun letters = run("diagnose", file + ":abc");
        assertEquals(3, letters.code(), letters.err());
        assertTrue(letters.err().contains("collsim: " + file + ":abc: no such file, and after " + file + " comes"
                + " ':abc', which is not a line number; allowed: FILE or FILE:LINE"), letters.err());
        CliRun column = run("compare", "-m", file + ":122:3", "--calibration", "none");
        assertEquals(3, column.code(), column.err());
        assertTrue(column.err().contains("after " + file + " comes ':122:3', which is not a line number"),
                column.err());
    }
}
