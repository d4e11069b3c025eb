package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import org.junit.jupiter.api.Test;

/** Files that are not what they claim: each fails with the line (and column) of the problem. */
class BadInputTest {

    private static final String HEAD = """
            # Collective test starting: all_reduce_perf
            # nThread 1 nGpus 2 minBytes 8 maxBytes 64 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
            #  Rank  0 Group  0 Pid 1 on h device  0 [0x01] NVIDIA A100-SXM4-80GB
            #  Rank  1 Group  0 Pid 1 on h device  1 [0x02] NVIDIA A100-SXM4-80GB
            #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
            """;

    private static InputProblem only(String content) {
        InputException e = assertThrows(InputException.class, () -> NcclTestsTextReader.read("bad.txt", content));
        return e.problems().get(0);
    }

    @Test
    void garbledNumberNamesLineAndColumn() {
        InputProblem p = only(HEAD
                + "           8             2     float     sum      -1    1x.25    0.00    0.00      0    12.00    0.00    0.00      0\n"
                + "          16             4     float     sum      -1    11.77    0.00    0.00      0    11.69    0.00    0.00      0\n");
        assertEquals(6, p.line());
        assertEquals(57, p.column());
        assertTrue(p.message().contains("found '1x.25'; allowed: a finite number"), p.message());
    }

    @Test
    void shortRowInTheMiddleIsAnError() {
        InputProblem p = only(HEAD
                + "           8             2     float     sum      -1    12.25    0.00    0.00      0    12.00\n"
                + "          16             4     float     sum      -1    11.77    0.00    0.00      0    11.69    0.00    0.00      0\n");
        assertEquals(6, p.line());
        assertTrue(p.message().contains("cut short"), p.message());
    }

    @Test
    void claimContradictedByRows() {
        InputProblem p = only(HEAD
                + "          64             8     float    none      -1    12.25    0.00    0.00      0    12.00    0.00    0.00    N/A\n"
                + "         128            16     float    none      -1    11.77    0.00    0.00      0    11.69    0.00    0.00    N/A\n");
        assertEquals(6, p.line());
        assertTrue(p.message().contains("line 1") && p.message().contains("all_reduce"), p.message());
    }

    @Test
    void rowWithoutHeader() {
        InputProblem p = only("# nThread 1 nGpus 2\n   8   2  float  sum  -1  1.0  0.0  0.0  0  1.0  0.0  0.0  0\n");
        assertEquals(2, p.line());
    }

    @Test
    void extraColumnIsAnError() {
        InputProblem p = only(HEAD
                + "           8             2     float     sum      -1    12.25    0.00    0.00      0    12.00    0.00    0.00      0   77\n");
        assertEquals(6, p.line());
        assertTrue(p.message().contains("'77'"), p.message());
    }

    @Test
    void nothingMeasurable() {
        InputProblem p = only("#@ source: nowhere\nhello\n");
        assertTrue(p.message().contains("no nccl-tests table"));
    }

    /**
     * A log whose table rows were all cut away keeps nccl-tests' footer (line 4 here) but names no collective or
     * ranks to read it with; the message used to say no 'Avg bus bandwidth' line was found although there is one.
     * It is now located at that footer line and says what more the footer needs.
     */
    @Test
    void footerWithoutTableNorCollectiveIsLocatedAtTheFooter() {
        InputProblem p = only("#       size         count      type   redop    root     time   algbw   busbw #wrong\n"
                + "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)\n"
                + "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 123.45\n");
        assertEquals(4, p.line());
        assertEquals("Avg bus bandwidth", p.field());
        assertTrue(p.message().startsWith("found this footer but no table rows, and no collective or rank count"),
                p.message());
    }

    /**
     * A footer with two '#  Rank' lines (2 ranks known) but no *_perf command and no 'Collective test starting'
     * line: only the collective is missing, and the message says so instead of "no collective or rank count".
     */
    @Test
    void footerWithRankLinesSaysOnlyTheCollectiveIsMissing() {
        InputProblem p = only("#  Rank  0 Group  0 Pid 1 on h device  0 [0x01] NVIDIA A100-SXM4-80GB\n"
                + "#  Rank  1 Group  0 Pid 1 on h device  1 [0x02] NVIDIA A100-SXM4-80GB\n"
                + "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 123.45\n");
        assertEquals(4, p.line());
        assertTrue(p.message().startsWith("found this footer but no table rows, and no collective to read it with;"),
                p.message());
    }

    @Test
    void unknownColumnInReducedTable() {
        InputProblem p = only("### all_reduce (8 GPUs)\n| Size | Speed |\n|---|---|\n| 1K | 2.0 |\n");
        assertEquals(2, p.line());
        assertTrue(p.message().contains("'Speed'"), p.message());
    }

    /**
     * nccl-tests -C 1 heads both time columns "cputime" (2.19.6 src/util.cu writeResultHeader, "%7s" of timeStr);
     * algbw is the GPU time's, so a row's time is size / algbw (CpuTimeTest), but with every algbw printed as 0.00 no
     * time is known and the table is refused at its first cputime: "# %10s  %12s  %8s  %6s  %6s  " is 2 + 10 + 2 +
     * 12 + 2 + 8 + 2 + 6 + 2 + 6 + 2 = 54 characters, so the 7-wide "cputime" starts at column 55 of line 5.
     */
    @Test
    void cputimeTableWithoutAlgbwIsRefusedAtItsTimeColumn() {
        String head = HEAD.replace("#       size         count      type   redop    root     time   algbw   busbw #wrong"
                + "     time   algbw   busbw #wrong", "#       size         count      type   redop    root  cputime   algbw"
                + "   busbw  #wrong  cputime   algbw   busbw  #wrong");
        InputException e = assertThrows(InputException.class, () -> NcclTestsTextReader.read("c.txt", head
                + "           8             2     float     sum      -1     4.10    0.00    0.00       0     4.05    0.00"
                + "    0.00       0\n"));
        assertEquals(1, e.problems().size(), e::getMessage);
        InputProblem p = e.problems().get(0);
        assertEquals(5, p.line());
        assertEquals(55, p.column());
        assertEquals("time", p.field());
        assertTrue(p.message().startsWith("found 'cputime' (nccl-tests -C 1") && p.message().contains("allowed: time"),
                p.message());
    }

    @Test
    void badJson() {
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read("x.json", "{\"results\": ["));
        assertTrue(e.getMessage().contains("not valid JSON"));
    }
}
