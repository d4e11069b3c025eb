package dev.collsim.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class NcclTestsRowsTest {

    /**
     * A row as nccl-tests 2.19.6 prints it (src/util.cu) with the check off in place ({@code N/A}), and one of
     * the format before the root column, whose {@code error} column is a maximum error, not a count: both halves
     * of that one read as not checked. The numbers are the rows' own text.
     */
    @Test
    void readsCurrentAndOldTables() {
        List<PerfRow> rows = NcclTestsRows.readAll(List.of(
                "#  Rank  0 Group  0 Pid 1 on host device  0 [0000:1b:00] NVIDIA H200",
                "       33554432       8388608     float     sum      -1   379.41   88.44  154.77      0   "
                        + "377.20   88.96  155.68    N/A",
                "#       size         count      type   redop      root     time   algbw   busbw #wrong     "
                        + "time   algbw   busbw #wrong",
                "       33554432       8388608     float     sum      -1   379.41   88.44  154.77      0   "
                        + "377.20   88.96  155.68    N/A",
                "#  size  count  type  redop  time  algbw  busbw  error  time  algbw  busbw  error",
                "   1024    256  float   sum  25.10   0.04   0.07  1e-06  24.90   0.04   0.07  1e-06",
                "   2048    512  float   sum  25.3"));
        assertEquals(2, rows.size(), "the row before any header and the cut-short row are skipped");
        PerfRow now = rows.get(0);
        assertEquals(33554432L, now.size());
        assertEquals(8388608L, now.count());
        assertEquals(-1, now.root());
        assertEquals(379.41, now.outOfPlace().timeUs(), 1e-9);
        assertEquals(154.77, now.outOfPlace().busBw(), 1e-9);
        assertEquals(Long.valueOf(0), now.outOfPlace().wrong());
        assertNull(now.inPlace().wrong());
        assertEquals(155.68, now.peakBusBw(), 1e-9);
        assertEquals(377.20, now.bestTimeUs(), 1e-9);
        PerfRow old = rows.get(1);
        assertEquals(Integer.MIN_VALUE, old.root());
        assertEquals("sum", old.redop());
        assertNotNull(old.inPlace());
        assertNull(old.outOfPlace().wrong());
        assertNull(old.inPlace().wrong());
    }

    /** A garbled number is a problem naming line, column and the column's name. */
    @Test
    void garbledNumberNamesItsColumn() {
        NcclTestsLayout layout = NcclTestsLayout.parse("#  size  count  type  redop  root  time  algbw  busbw  "
                + "#wrong  time  algbw  busbw  #wrong", 7);
        NcclTestsRows.Result r = NcclTestsRows.parse("f.txt", layout,
                "1024  256  float  sum  -1  2x.1  0.04  0.07  0  24.9  0.04  0.07  0", 8);
        assertNull(r.row());
        assertEquals(8, r.problem().line());
        assertEquals(28, r.problem().column()); // 1-based: "1024  256  float  sum  -1  " is 27 characters
        assertEquals("time", r.problem().field()); // the column is the field, as in file:line:column: field: found
        assertEquals("found '2x.1'; allowed: a finite number", r.problem().message());
        // nccl-tests prints N/A in #wrong when the data check is off (-c 0): the message allows it there only
        NcclTestsRows.Result w = NcclTestsRows.parse("f.txt", layout,
                "1024  256  float  sum  -1  24.1  0.04  0.07  x  24.9  0.04  0.07  0", 8);
        assertEquals(46, w.problem().column()); // "1024  256  float  sum  -1  24.1  0.04  0.07  " is 45 characters
        assertEquals("#wrong", w.problem().field());
        assertEquals("found 'x'; allowed: a finite number or N/A", w.problem().message());
    }
}
