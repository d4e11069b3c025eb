package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import org.junit.jupiter.api.Test;

/** Rows before any table header: one problem at the first, with their count, naming a header that was not read. */
class OrphanRowsTest {

    private static final String ROWS = """
                       8             2     float     sum      -1    16.03    0.00    0.00      0    15.73    0.00    0.00      0
                      16             4     float     sum      -1    15.67    0.00    0.00      0    15.84    0.00    0.00      0
                      32             8     float     sum      -1    15.90    0.00    0.00      0    15.72    0.00    0.00      0
            """;

    private static InputProblem only(String text) {
        InputException e = assertThrows(InputException.class, () -> NcclTestsTextReader.read("o.txt", text));
        assertEquals(1, e.problems().size(), e::getMessage);
        return e.problems().get(0);
    }

    /** Three rows on lines 1 to 3 and no header at all: one problem at line 1, column 1. */
    @Test
    void rowsWithoutAHeaderAreOneProblem() {
        InputProblem p = only(ROWS);
        assertEquals(1, p.line());
        assertEquals(1, p.column());
        assertEquals("row", p.field());
        assertTrue(p.message().startsWith("3 data rows (lines 1 to 3) before any nccl-tests table header; allowed:"),
                p.message());
    }

    /**
     * A header edited to {@code time(us)} (line 2) is no nccl-tests header (it prints "time", src/util.cu
     * writeResultHeader): the problem sits on the first row, line 3, and names line 2.
     */
    @Test
    void aHeaderThatIsNotOneIsNamed() {
        InputProblem p = only("# nThread 1 nGpus 2 minBytes 8 maxBytes 32 step: 2(factor) warmup iters: 5 iters: 20\n"
                + "#       size         count      type   redop    root  time(us)  algbw   busbw #wrong  time(us)  algbw"
                + "   busbw #wrong\n" + ROWS);
        assertEquals(3, p.line());
        assertTrue(p.message().startsWith("3 data rows (lines 3 to 5) before any nccl-tests table header; line 2 ('#"
                + "       size         count      type"), p.message());
        assertTrue(p.message().contains("it lacks nccl-tests' 'time' (or 'cputime') and 'busbw' columns"),
                p.message());
    }
}
