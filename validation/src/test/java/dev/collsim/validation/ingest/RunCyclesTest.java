package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.io.InputException;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests {@code -N 2} (run_cycles) prints the whole size sweep twice under one header (NCCL tests 2.19.6
 * src/common.cu: the benchmark loop over sizes sits in a do-while over run_cycles). Such a table is two runs of one
 * sweep: one warning says so, where every repeated row used to get a warning of its own ("two runs in one table?").
 */
class RunCyclesTest {

    private static String table(long... sizes) {
        StringBuilder sb = new StringBuilder("""
                # Collective test starting: all_reduce_perf
                # nThread 1 nGpus 2 minBytes 1048576 maxBytes 2097152 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
                #
                # Using devices
                #  Rank  0 Group  0 Pid   4000 on     node01 device  0 [0x18] NVIDIA H100 80GB HBM3
                #  Rank  1 Group  0 Pid   4000 on     node01 device  1 [0x2a] NVIDIA H100 80GB HBM3
                #
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                """);
        for (long s : sizes) {
            // 2 ranks: busbw = algbw (factor 2 x (2 - 1) / 2 = 1); 20 us at 1 MiB is 52.43 GB/s, at 2 MiB 104.86
            double us = 20;
            double bw = s / us / 1e3;
            sb.append(String.format(Locale.ROOT, "%12d  %12d  float  sum  -1  %7.2f  %6.2f  %6.2f  0  %7.2f"
                    + "  %6.2f  %6.2f  0%n", s, s / 4, us, bw, bw, us, bw, bw));
        }
        return sb.toString();
    }

    private static List<Note> warnings(String text) throws InputException {
        return MeasurementReader.read("t.txt", text).get(0).warnings();
    }

    @Test
    void twoCyclesOfOneSweepAreOneWarning() throws InputException {
        List<Note> w = warnings(table(1 << 20, 2 << 20, 1 << 20, 2 << 20));
        assertEquals(1, w.size(), w.toString());
        // rows are lines 10-13; the second cycle starts at line 12
        assertEquals(12, w.get(0).line());
        assertEquals(Note.WARNING + "the table's 4 rows are 2 runs of the same 2 size(s) in the same order (the"
                + " second from line 12): nccl-tests -N 2 (run_cycles) prints its cycles so, and runs pasted under one"
                + " header look alike; every row is compared", w.get(0).text());
    }

    @Test
    void aRepeatOutsideWholeCyclesIsNamedRowByRow() throws InputException {
        List<Note> w = warnings(table(1 << 20, 2 << 20, 1 << 20));
        assertEquals(1, w.size(), w.toString());
        assertEquals(12, w.get(0).line());
        assertEquals(Note.WARNING + "size 1048576 (float, sum, root -1) again at line 12, first at line 10: two runs in"
                + " one table? both rows are compared; give each run its own header to compare them apart",
                w.get(0).text());
    }

    @Test
    void cyclesCountWholeRunsOnly() {
        assertEquals(1, RepeatedRows.wholeCycles(List.of()));
    }
}
