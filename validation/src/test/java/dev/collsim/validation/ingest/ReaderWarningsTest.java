package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.validation.diagnose.Diagnoser;
import dev.collsim.validation.diagnose.Finding;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the measurement readers used to drop or accept without a word is now a warning naming its line (printed and
 * counted by the commands, a finding in diagnose) or a located refusal. The reproducers in src/test/resources/fuzz
 * are the public file A-allreduce-2x4xH100-16GB.txt (via s02) with one line changed; line numbers counted by hand.
 */
class ReaderWarningsTest {

    private static final Path DIR = Path.of("src/test/resources/fuzz");

    /** s04: an NCCL WARN line (line 45) between two rows of the table: a warning, and diagnose reports a problem. */
    @Test
    void ncclWarnInsideTheTableIsAWarningAndAFinding() throws Exception {
        Path f = DIR.resolve("s04-ncclt-warn-in-table.txt");
        List<Dataset> ds = MeasurementReader.read(f);
        assertEquals(1, ds.size());
        List<Note> w = ds.get(0).warnings();
        assertEquals(1, w.size(), w.toString());
        assertEquals(45, w.get(0).line());
        assertTrue(w.get(0).text().startsWith("warning: NCCL WARN inside the results table (Cuda failure 'an illegal"
                + " memory access was encountered')"), w.get(0).text());
        assertEquals(32, ds.get(0).points().size(), "every row is kept (8 B .. 16 GiB, 32 sizes)");
        var diagnosis = new Diagnoser().diagnose(ds, Files.readAllLines(f)).get(0);
        Finding warn = diagnosis.findings().stream().filter(x -> x.kind() == Finding.Kind.NCCL_WARN).findFirst()
                .orElseThrow(() -> new AssertionError(diagnosis.findings().toString()));
        assertEquals(Finding.Severity.PROBLEM, warn.severity());
        assertEquals(45, warn.evidence().get(0).line());
    }

    /** An NCCL WARN before the table is not inside it: no warning (the log keeps it for the transport checks). */
    @Test
    void ncclWarnBeforeTheTableIsNoWarning() throws Exception {
        String text = Files.readString(DIR.resolve("s04-ncclt-warn-in-table.txt"));
        String[] lines = text.split("\n", -1);
        String warn = lines[44];
        StringBuilder moved = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            if (i == 21) {
                moved.append(warn).append('\n');
            }
            if (i != 44) {
                moved.append(lines[i]).append(i < lines.length - 1 ? "\n" : "");
            }
        }
        List<Dataset> ds = MeasurementReader.read("moved.txt", moved.toString());
        assertEquals(List.of(), ds.get(0).warnings());
        assertEquals(1, ds.get(0).log().flagged().size());
    }

    /** s05: the 256 KiB row (line 40) has time -207.5: dropped with a warning naming the line; 31 rows remain. */
    @Test
    void negativeTimeDropsTheRowWithAWarning() throws Exception {
        List<Dataset> ds = MeasurementReader.read(DIR.resolve("s05-ncclt-negative-time.txt"));
        List<Note> w = ds.get(0).warnings();
        assertEquals(1, w.size(), w.toString());
        assertEquals(40, w.get(0).line());
        assertEquals("warning: out-of-place time -207.5 us: no measured value is below zero; the row is dropped",
                w.get(0).text());
        assertEquals(31, ds.get(0).points().size());
        assertFalse(ds.get(0).points().stream().anyMatch(p -> p.sizeBytes() == 262144));
    }

    /**
     * nccl-tests prints a non-finite double with printf, as glibc spells it ({@code nan}, {@code -nan}, {@code inf});
     * Java spells it {@code NaN}, {@code Infinity}. Every spelling is refused at its cell (line 45, column 57) with the
     * same message, in the nccl-tests table reader and in a reduced markdown table.
     */
    @ParameterizedTest
    @ValueSource(strings = {"nan", "NaN", "-nan", "inf", "Infinity", "-inf"})
    void everySpellingOfNotANumberIsRefusedAlike(String word) throws Exception {
        String text = Files.readString(DIR.resolve("s06-ncclt-time-nan.txt")).replace("    nan   25.76",
                "    " + word + "   25.76");
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read("t.txt", text));
        assertEquals("t.txt:45:57: time: found '" + word + "'; allowed: a finite number", e.problems().get(0).toString());
        String md = "## all_reduce, 8 GPUs\n\n| size | busbw (GB/s) |\n|---|---|\n| 1 MiB | 10.5 |\n| 2 MiB | " + word
                + " |\n";
        InputException m = assertThrows(InputException.class, () -> MeasurementReader.read("m.md", md));
        assertEquals("m.md:6:11: busbw (GB/s): found '" + word + "'; allowed: a finite decimal number, e.g. 12.5 or"
                + " 1.2e3", m.problems().get(0).toString());
    }

    /** Every file of the corpus reads the same with CRLF line ends as with LF: same datasets, rows and notes. */
    @Test
    void crlfReadsAsLf() throws Exception {
        List<Path> files;
        try (var s = Files.list(Corpus.DIR)) {
            files = s.filter(p -> p.getFileName().toString().startsWith("A-")
                    || p.getFileName().toString().startsWith("D-")).sorted().toList();
        }
        assertTrue(files.size() >= 20, files.toString());
        for (Path f : files) {
            String lf = Files.readString(f).replace("\r\n", "\n");
            List<Dataset> a = MeasurementReader.read("x", lf);
            List<Dataset> b = MeasurementReader.read("x", lf.replace("\n", "\r\n"));
            // FileHeader has no equals: compare everything else, and the header's text
            assertEquals(a.toString().replaceAll("FileHeader@\\w+", ""),
                    b.toString().replaceAll("FileHeader@\\w+", ""), f.toString());
            for (int i = 0; i < a.size(); i++) {
                assertEquals(a.get(i).header().text("source"), b.get(i).header().text("source"), f.toString());
            }
        }
    }

    /** Bytes that are not UTF-8: a located refusal naming the byte and its offset, not the JDK's "Input length = 1". */
    @Test
    void bytesThatAreNotTextAreRefusedWithTheirOffset(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("random.bin");
        // line 1 "# ok\n" (5 bytes), line 2 "ab" then 0xFF (never valid in UTF-8) at byte offset 7, column 3
        Files.write(f, new byte[] {'#', ' ', 'o', 'k', '\n', 'a', 'b', (byte) 0xFF, 'c'});
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read(f));
        assertEquals(f + ":2:3: not UTF-8 text: byte 0xFF at byte offset 7 cannot start or continue a UTF-8"
                + " character; allowed: a text file (UTF-8 or ASCII, or UTF-16 after its byte order mark), e.g."
                + " nccl-tests output, YAML, NCCL XML, nvidia-smi topo -m", e.problems().get(0).toString());
    }

    /**
     * A log saved compressed is named as such: gzip's header is 1F 8B then the method byte 08 (deflate), RFC 1952
     * section 2.3.1; 0x8B at byte offset 1 is a UTF-8 continuation byte with no lead byte, so line 1, column 2.
     */
    @Test
    void aGzipFileSaysToDecompressIt(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("run.log.gz");
        Files.write(f, new byte[] {0x1F, (byte) 0x8B, 0x08, 0x00});
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read(f));
        assertEquals(f + ":1:2: not UTF-8 text: byte 0x8B at byte offset 1 cannot start or continue a UTF-8"
                + " character (the file is gzip-compressed: decompress it first, e.g. gunzip -k FILE); allowed: a"
                + " text file (UTF-8 or ASCII, or UTF-16 after its byte order mark), e.g. nccl-tests output, YAML,"
                + " NCCL XML, nvidia-smi topo -m", e.problems().get(0).toString());
    }

    /**
     * A log saved by Windows tools: UTF-8 with a byte order mark (EF BB BF, Notepad's "UTF-8 with BOM") or UTF-16LE
     * with one (FF FE, PowerShell 5.1's {@code >}), CRLF line ends. Read as the plain file is: the first line
     * "# nccl-tests version 2.19.6 nccl-headers=22803 nccl-library=22803" still gives NCCL 2.28.3 (22803 =
     * 2 x 10000 + 28 x 100 + 3, NCCL_VERSION_CODE); with the BOM kept as text it was missed (the default release was
     * modelled), and a BOM before "schema:" or "&lt;?xml" made a cluster file "unrecognized format".
     */
    @Test
    void aByteOrderMarkIsNotText(@TempDir Path dir) throws Exception {
        StringBuilder ranks = new StringBuilder();
        for (int r = 0; r < 8; r++) { // 8 ranks: busbw 183.50 = algbw 104.86 x 2 x 7 / 8 (nccl-tests' all_reduce)
            ranks.append("#  Rank  ").append(r).append(" Group  0 Pid   1000 on     node01 device  ").append(r)
                    .append(" [0000:1").append(r).append(":00] NVIDIA H100 80GB HBM3\r\n");
        }
        String log = "# nccl-tests version 2.19.6 nccl-headers=22803 nccl-library=22803\r\n"
                + "# Collective test starting: all_reduce_perf\r\n# Using devices\r\n" + ranks
                + "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw"
                + "   busbw #wrong\r\n#        (B)    (elements)                               (us)  (GB/s)  (GB/s)  "
                + "          (us)  (GB/s)  (GB/s)\r\n"
                + "     1048576        262144     float     sum      -1    10.00  104.86  183.50      0    10.00  104.86"
                + "  183.50      0\r\n";
        byte[] text = log.getBytes(StandardCharsets.UTF_8);
        byte[] utf8Bom = new byte[text.length + 3];
        utf8Bom[0] = (byte) 0xEF;
        utf8Bom[1] = (byte) 0xBB;
        utf8Bom[2] = (byte) 0xBF;
        System.arraycopy(text, 0, utf8Bom, 3, text.length);
        byte[] le = log.getBytes(StandardCharsets.UTF_16LE);
        byte[] utf16Bom = new byte[le.length + 2];
        utf16Bom[0] = (byte) 0xFF;
        utf16Bom[1] = (byte) 0xFE;
        System.arraycopy(le, 0, utf16Bom, 2, le.length);
        for (byte[] bytes : List.of(utf8Bom, utf16Bom)) {
            Path f = dir.resolve("win.txt");
            Files.write(f, bytes);
            Dataset d = MeasurementReader.read(f).get(0);
            assertEquals("2.28.3", d.ncclRelease().toString());
            assertEquals(1048576L, d.points().get(0).sizeBytes());
        }
    }

    /** Problems name the file as the user gave it (a relative path); the dataset id keeps the base name. */
    @Test
    void problemsNameThePathAsGiven(@TempDir Path dir) throws Exception {
        Path sub = Files.createDirectories(dir.resolve("runs"));
        Path f = sub.resolve("bad.txt");
        Files.writeString(f, Files.readString(DIR.resolve("s06-ncclt-time-nan.txt")));
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read(f));
        assertEquals(f.toString(), e.problems().get(0).file());
        Path ok = sub.resolve("ok.txt");
        Files.writeString(ok, Files.readString(DIR.resolve("s05-ncclt-negative-time.txt")));
        assertEquals("ok.txt", MeasurementReader.read(ok).get(0).file());
    }

    /**
     * nccl-tests -J JSON and collsim JSON: a negative time is dropped with a warning like the text table; a time
     * beyond a double (1e999, which Jackson reads as Infinity) is refused.
     */
    @Test
    void jsonNegativeAndInfiniteTimes() throws Exception {
        String json = "{\"config\": {\"devices\": [{\"rank\": 0, \"hostname\": \"h\", \"device\": 0},"
                + " {\"rank\": 1, \"hostname\": \"h\", \"device\": 1}]},"
                + " \"args\": [\"./build/all_reduce_perf\", \"-b\", \"8\"], \"results\": ["
                + "{\"size\": 8, \"count\": 2, \"type\": \"float\", \"redop\": \"sum\", \"root\": -1,"
                + " \"out_of_place\": {\"time\": TIME, \"alg_bw\": 0.0, \"bus_bw\": 0.0, \"nwrong\": 0}},"
                + "{\"size\": 16, \"count\": 4, \"type\": \"float\", \"redop\": \"sum\", \"root\": -1,"
                + " \"out_of_place\": {\"time\": 10.0, \"alg_bw\": 0.0, \"bus_bw\": 0.0, \"nwrong\": 0}}]}";
        List<Dataset> ds = MeasurementReader.read("r.json", json.replace("TIME", "-10.0"));
        assertEquals(1, ds.get(0).points().size());
        assertEquals(List.of(Note.warning(0, "results[0]: out-of-place time -10.0 us: no measured value is below"
                + " zero; the result is dropped")), ds.get(0).warnings());
        InputException e = assertThrows(InputException.class,
                () -> MeasurementReader.read("r.json", json.replace("TIME", "1e999")));
        assertTrue(e.problems().get(0).toString().startsWith("r.json: results[0]: a time or bandwidth beyond a"
                + " double"), e.problems().get(0).toString());
    }

    /**
     * s04 without its NCCL WARN line (line 45) and with the 16 B row (line 26) pasted again after the 32 B row: the
     * copy, line 28, is a warning naming both lines; both rows stay (33 points: 32 sizes and the copy).
     */
    @Test
    void aRepeatedSizeIsAWarningNamingBothLines(@TempDir Path dir) throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(DIR.resolve("s04-ncclt-warn-in-table.txt")));
        lines.remove(44);
        lines.add(27, lines.get(25));
        Path f = dir.resolve("repeat.txt");
        Files.write(f, lines);
        Dataset d = MeasurementReader.read(f).get(0);
        assertEquals(1, d.warnings().size(), d.warnings().toString());
        Note w = d.warnings().get(0);
        assertEquals(28, w.line());
        assertTrue(w.text().startsWith("warning: size 16 (float, sum, root -1) again at line 28, first at line 26"),
                w.text());
        assertEquals(33, d.points().size());
    }
}
