package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Logs cut short: the rows that are there are read, and one note says what was cut. Real files of the corpus. */
class CutShortTest {

    private static final Path DATA = Path.of("src/test/resources/data");

    private static List<Note> cutNotes(Dataset d) {
        return d.notes().stream().filter(n -> n.text().startsWith("output cut short")
                || n.text().startsWith(Note.WARNING + "output cut short")).toList();
    }

    /**
     * H100 PCIe pair (#@ command {@code all_reduce_perf -b 1G -e 8G -f 2 -g 2}): rows 1, 2 and 4 GiB (lines 19-21);
     * the 4 GiB row ends in {@code [truncated in source copy]} after the in-place algbw, the 8 GiB row and the footer
     * are missing.
     */
    @Test
    void truncatedRowAndMissingSizesInOneNote() throws Exception {
        Dataset d = MeasurementReader.read(DATA.resolve(
                "D-info-partial-allreduce-1x2xH100-pcie-nvlink-bridge-issue-nccltests194.txt")).get(0);
        assertEquals(List.of(1073741824L, 2147483648L, 4294967296L),
                d.points().stream().map(PerfPoint::sizeBytes).toList());
        List<Note> cut = cutNotes(d);
        assertEquals(1, cut.size(), d.notes().toString());
        assertEquals(Note.warning(21, "output cut short: last row cut short (line 21): in-place columns dropped; the table"
                + " stops at 4294967296 B (line 21) without nccl-tests' footer, the run asked for sizes up to"
                + " 8589934592 B"), cut.get(0));
    }

    /** Tencent H20 alltoall (command {@code -b 1M -e 16G}): the table ends at 4 GiB without a footer. */
    @Test
    void tableStoppingBeforeItsLastSize() throws Exception {
        Dataset d = MeasurementReader.read(DATA.resolve(
                "D-info-alltoall-2x2xH20-tencent-vm-roce-bond-nccl2.26-issue-nccltests321.txt")).get(0);
        List<Note> cut = cutNotes(d);
        assertEquals(1, cut.size(), d.notes().toString());
        assertEquals(Note.WARNING + "output cut short: the table stops at 4294967296 B (line " + d.largest().orElseThrow().line()
                + ") without nccl-tests' footer, the run asked for sizes up to 17179869184 B", cut.get(0).text());
    }

    /** A whole run (footer present, last size = maxBytes) gets no such note: collsim's own 2x H200 all_reduce. */
    @Test
    void wholeRunHasNoNote() throws Exception {
        for (Dataset d : MeasurementReader.read(Path.of("../data/device/h200x2-2026-11-29/nccl-tests-all_reduce.txt"))) {
            assertEquals(List.of(), cutNotes(d));
        }
    }

    /**
     * A file that ends inside a row's out-of-place half (a job killed mid-write): the DGX H100 2x2 file (command
     * {@code -b 8 -e 8192M}) cut after the 16384 B row's "291.4" (its out-of-place time; algbw, busbw and #wrong
     * missing). The 11 rows before it (8 B .. 8192 B by x2: 2^3 .. 2^13) are read; the cut row is dropped, and the
     * notes say so and that the run asked for sizes up to 8192 MiB = 8589934592 B.
     */
    @Test
    void aFileEndingInsideARowDropsThatRow() throws Exception {
        String text = Files.readString(DATA.resolve("A-allreduce-2x2xH100-dgx-ib.txt"));
        String cut = text.substring(0, text.indexOf("291.4") + "291.4".length());
        Dataset d = MeasurementReader.read("cut.txt", cut).get(0);
        assertEquals(11, d.points().size());
        assertEquals(8192, d.points().get(10).sizeBytes());
        List<String> notes = cutNotes(d).stream().map(Note::text).toList();
        assertTrue(notes.stream().anyMatch(n -> n.startsWith(Note.WARNING + "output cut short: the file ends inside the row at line 32 ")
                && n.endsWith("; the row is dropped")), notes.toString());
        assertTrue(notes.stream().anyMatch(n -> n.contains("the table stops at 8192 B")
                && n.contains("up to 8589934592 B")), notes.toString());
        // the same row followed by a newline and more text is a broken row, not a cut: still an error with its line
        String broken = cut + "\n       32768          8192     float     sum      -1    29.22    1.12    1.68      0"
                + "    29.55    1.11    1.66      0\n";
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read("broken.txt", broken));
        assertTrue(e.getMessage().contains("broken.txt:32"), e.getMessage());
    }

    /**
     * A row cut short in the middle of a table (line 3: only the out-of-place half, 9 values of the header's 13) is an
     * error at the column just past its last value and a space (the row is 84 characters long: column 86), naming
     * the first missing column (the in-place {@code time}), what was found and what is allowed.
     */
    @Test
    void cutRowInTheMiddleNamesColumnFoundAndAllowed() {
        String head = "#       size         count      type   redop    root     time   algbw   busbw #wrong"
                + "     time   algbw   busbw #wrong\n#        (B)    (elements)                               (us)"
                + "  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n";
        String cut = "     1048576        262144     float     sum      -1    10.00  104.86  183.50      0";
        String whole = "     2097152        524288     float     sum      -1    20.00  104.86  183.50      0    20.00"
                + "  104.86  183.50      0\n";
        InputException e = assertThrows(InputException.class, () -> NcclTestsTextReader.read("bad.txt",
                head + cut + "\n" + whole));
        assertEquals(84, cut.length());
        assertTrue(e.getMessage().contains("bad.txt:3:86: time: row is cut short but is not the last row of its table:"
                + " found 9 values, the last '0'; allowed: the 13 columns of the header at line 1"), e.getMessage());
    }
    private static final String HEAD = "#       size         count      type   redop    root     time   algbw   busbw #wrong"
            + "     time   algbw   busbw #wrong\n#        (B)    (elements)                               (us)"
            + "  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n";
    private static final String WHOLE = "     2097152        524288     float     sum      -1    20.00  104.86  183.50"
            + "      0    20.00  104.86  183.50      0\n";

    /**
     * A row cut before its out-of-place half in the middle of a table: "size count type redop" and nothing more
     * (12 + 14 + 10 + 8 = 44 characters, nccl-tests' %12li %12li %8s %6s with two spaces between). The error is at
     * column 46 (past the row and a space), names the first missing column ({@code root}), the 4 values found and
     * the 9 columns through the out-of-place {@code #wrong} that a row needs; it used to say "not a number: missing
     * root" with no column.
     */
    @Test
    void rowCutBeforeItsOutOfPlaceHalfNamesColumnFoundAndAllowed() {
        String cut = "     1048576        262144     float     sum";
        assertEquals(44, cut.length());
        InputException e = assertThrows(InputException.class, () -> NcclTestsTextReader.read("bad.txt",
                HEAD + cut + "\n" + WHOLE));
        assertTrue(e.getMessage().contains("bad.txt:3:46: root: row is cut short: found 4 values, the last 'sum';"
                + " allowed: at least the first 9 of the 13 columns of the header at line 1"), e.getMessage());
    }

    /**
     * A row of only its size and count (26 characters: %12li, two spaces, %12li) in the middle of a table was skipped
     * as prose, so a measured size vanished unseen; it is an error at column 28 naming {@code type}, the first
     * column missing.
     */
    @Test
    void rowOfTwoNumbersIsAnErrorNotProse() {
        String cut = "     1048576        262144";
        InputException e = assertThrows(InputException.class, () -> NcclTestsTextReader.read("bad.txt",
                HEAD + cut + "\n" + WHOLE));
        assertTrue(e.getMessage().contains("bad.txt:3:28: type: row is cut short: found 2 values, the last"
                + " '262144'"), e.getMessage());
    }

    /**
     * A size written with a unit suffix ("1M": a table edited by hand or reformatted) was skipped as prose, leaving
     * the sweep one size short with no word; nccl-tests 2.19.6 prints the size as bytes ({@code "%12li"},
     * src/util.cu writeBenchmarkLinePreamble), so it is an error at the size's column (10 spaces, then column 11).
     */
    @Test
    void sizeWithUnitSuffixIsRefusedAtItsColumn() {
        String row = "          1M        262144     float     sum      -1    10.00  104.86  183.50      0    10.00"
                + "  104.86  183.50      0";
        InputException e = assertThrows(InputException.class, () -> NcclTestsTextReader.read("bad.txt",
                HEAD + row + "\n" + WHOLE));
        assertTrue(e.getMessage().contains("bad.txt:3:11: size: found '1M'; allowed: a whole number of bytes"),
                e.getMessage());
    }
    /**
     * A units row naming milliseconds: nccl-tests prints only (B), (elements), (us), (GB/s) and (%) there (2.19.6
     * src/util.cu writeResultHeader), and the reader takes times as microseconds, so "(ms)" was read 1000x off with no
     * word. The units row below is the header's with the first "(us)" made "(ms)": "#", 8 spaces, "(B)", 4 spaces,
     * "(elements)", 31 spaces puts it at column 1 + 8 + 3 + 4 + 10 + 31 + 1 = 58 of line 2.
     */
    @Test
    void unitsRowWithMillisecondsIsRefused() {
        String head = HEAD.replaceFirst("\\(us\\)", "(ms)");
        assertEquals(57, head.split("\n")[1].indexOf("(ms)"));
        InputException e = assertThrows(InputException.class, () -> NcclTestsTextReader.read("bad.txt",
                head + WHOLE));
        assertTrue(e.getMessage().contains("bad.txt:2:58: units: found '(ms)'; allowed: (B) (elements) (us) (GB/s)"
                + " (%)"), e.getMessage());
    }

    /**
     * nccl-tests -T 30: the watchdog prints "%s: Test timeout (%ds) %s:%d\n" (hostname, timeout, file, line) right
     * after the row's preamble ("%12li  %12li  %8s  %6s  %6s", util.cu writeBenchmarkLinePreamble), then each
     * TESTCHECK on the way out prints " .. %s pid %d: Test failure %s:%d" (2.19.6 src/common.cu
     * testStreamSynchronize, src/common.h TESTCHECK), and the run ends with no footer. The 2 MiB row before it is
     * read; the 4 MiB row (line 5) is dropped with a warning, not refused as a garbled number.
     */
    @Test
    void timeoutInsideARowEndsTheRun() throws Exception {
        String text = HEAD + WHOLE + "     4194304       1048576     float     sum      -1host01: Test timeout (30s)"
                + " common.cu:523\n .. host01 pid 4242: Test failure common.cu:596\n";
        Dataset d = NcclTestsTextReader.read("t.txt", "# Collective test starting: all_reduce_perf\n" + text).get(0);
        assertEquals(List.of(2097152L), d.points().stream().map(PerfPoint::sizeBytes).toList());
        List<Note> cut = cutNotes(d);
        assertEquals(1, cut.size(), d.notes().toString());
        assertEquals(5, cut.get(0).line());
        assertTrue(cut.get(0).text().contains("output cut short: nccl-tests -T stopped the run after 30 s inside the"
                + " row ('Test timeout (30s)') at line 5"), cut.get(0).text());
    }

    /** The DGX H100 2x2 file cut after the 16384 B row's out-of-place time "291.4" (line 32), as in the test above. */
    private static String cutAt291() throws Exception {
        String text = Files.readString(DATA.resolve("A-allreduce-2x2xH100-dgx-ib.txt"));
        return text.substring(0, text.indexOf("291.4") + "291.4".length());
    }

    /**
     * A killed job's file as users keep it: the unfinished row (line 32) followed by a newline, or by Slurm's own
     * lines (slurmstepd's time-limit message, srun's abort notice), and no more of the table. The 11 rows before it
     * (8 B .. 8192 B) are read and the row is dropped with a warning; it used to be refused (exit 3) unless the row
     * was the very last byte of the file.
     */
    @Test
    void aCutRowFollowedByANewlineOrTheSchedulersLinesIsACut() throws Exception {
        String slurm = "\nslurmstepd: error: *** STEP 4242.0 ON node01 CANCELLED AT 2026-11-30T10:11:12 DUE TO TIME"
                + " LIMIT ***\nsrun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n";
        for (String tail : List.of("\n", "\n\n", slurm)) {
            Dataset d = MeasurementReader.read("cut.txt", cutAt291() + tail).get(0);
            assertEquals(11, d.points().size(), tail);
            assertEquals(8192, d.points().get(10).sizeBytes());
            List<String> notes = cutNotes(d).stream().map(Note::text).toList();
            String where = tail.equals(slurm) ? "the output ends inside the row (no row, footer or table header"
                    + " follows it; next: 'slurmstepd: error: *** STEP 4242.0 ON node01 CANCELLED AT" : "the file ends"
                    + " inside the row";
            assertTrue(notes.stream().anyMatch(n -> n.startsWith(Note.WARNING + "output cut short: " + where)),
                    notes.toString());
        }
    }

    /**
     * nccl-tests' NCCLCHECK prints "%s: Test NCCL failure %s:%d '%s / %s'" into the row whose call failed (2.19.6
     * src/common.h), here right after the 16384 B row's preamble "size count type redop root" (line 32); TESTCHECK's
     * " .. %s pid %d: Test failure %s:%d" lines follow. The 11 rows before are read; the note quotes the failure.
     */
    @Test
    void anNcclFailureInsideARowEndsTheRun() throws Exception {
        String text = Files.readString(DATA.resolve("A-allreduce-2x2xH100-dgx-ib.txt"));
        String row = "       16384          4096     float     sum      -1";
        String failed = text.substring(0, text.indexOf(row) + row.length()) + "node02: Test NCCL failure"
                + " common.cu:1005 'remote process exited or there was a network error / NET/IB : Got completion'\n"
                + " .. node02 pid 2485837: Test failure common.cu:1076\n .. node02 pid 2485837: Test failure"
                + " all_reduce.cu:90\n";
        Dataset d = MeasurementReader.read("failed.txt", failed).get(0);
        assertEquals(11, d.points().size());
        List<String> notes = cutNotes(d).stream().map(Note::text).toList();
        assertTrue(notes.stream().anyMatch(n -> n.startsWith(Note.WARNING + "output cut short: the run failed inside"
                + " the row ('Test NCCL failure common.cu:1005 'remote process exited") && n.contains("at line 32")),
                notes.toString());
    }

    /**
     * A killed run's unfinished row followed by a second, whole run (nccl-tests' preamble from "# nThread" on: the
     * file's lines 10-44): the cut row ends the first run (11 rows), and the second run's 31 rows (8 B .. 8 GiB by
     * x2: 2^3 .. 2^33) are read.
     */
    @Test
    void aCutRowBeforeTheNextRunEndsItsOwnRun() throws Exception {
        String text = Files.readString(DATA.resolve("A-allreduce-2x2xH100-dgx-ib.txt"));
        List<Dataset> ds = MeasurementReader.read("two.txt", cutAt291() + "\n"
                + text.substring(text.indexOf("# nThread")));
        assertEquals(List.of(11, 31), ds.stream().map(d -> d.points().size()).toList());
    }
}
