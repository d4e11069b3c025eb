package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.perf.NcclTestsRows;
import dev.collsim.perf.PerfResult;
import dev.collsim.perf.PerfRow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompareAndLogTest {

    @Test
    void identicalTablesMeetTargetsAndShiftedOnesDoNot() throws IOException {
        List<PerfRow> ref = NcclTestsRows.readAll(NcclTestsTableTest.lines("nccl-tests-all_reduce-1gpu.txt"));
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        assertEquals(0, CompareMain.compare(ref, ref, new PrintStream(b, true, StandardCharsets.UTF_8)));
        List<PerfRow> slower = new ArrayList<>();
        for (PerfRow r : ref) {
            PerfResult o = r.outOfPlace();
            // +1.5 us everywhere: the 6 sizes <= 8 KiB miss; at 128 MiB 66.19 -> 67.69 us is 2.2 % slower (misses),
            // at 512 MiB 255.65 -> 257.15 is 0.6 % (meets)
            double t = o.timeUs() + 1.5;
            double alg = o.algBw() * o.timeUs() / t;
            slower.add(new PerfRow(r.collective(), r.type(), r.redop(), r.root(), 1, r.size(), r.count(),
                    new PerfResult(t, alg, 0, 0L), r.inPlace(), null));
        }
        b.reset();
        assertEquals(6 + 1, CompareMain.compare(ref, slower, new PrintStream(b, true, StandardCharsets.UTF_8)));
        assertTrue(b.toString(StandardCharsets.UTF_8).contains("MISSED"));
        assertEquals(2.0, CompareMain.med(new double[] {5, 1, 2}));
        assertEquals(1.5, CompareMain.med(new double[] {2, 1}));
    }

    /** A wrong nccl-tests folder leaves files with no rows: that comparison fails, it does not "meet all targets". */
    @Test
    void anEmptySideIsAFailureNotAPass() throws IOException {
        List<PerfRow> ref = NcclTestsRows.readAll(NcclTestsTableTest.lines("nccl-tests-all_reduce-1gpu.txt"));
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        assertEquals(1, CompareMain.compare(List.of(), ref, new PrintStream(b, true, StandardCharsets.UTF_8)));
        String o = b.toString(StandardCharsets.UTF_8);
        assertTrue(o.contains("nothing to compare: nccl-tests gave 0 row(s)"), o);
        assertTrue(!o.contains("all targets met"), o);
        b.reset();
        assertEquals(1, CompareMain.compare(ref, List.of(), new PrintStream(b, true, StandardCharsets.UTF_8)));
    }

    /** Lines as NCCL 2.28.3 logged them on the H200 (device run 2026-11-29). */
    @Test
    void logFilterKeepsChannelAndGraphLines() {
        List<String> lines = List.of(
                "vm:728:729 [0] NCCL INFO NCCL version 2.28.3+cuda13.0",
                "vm:728:729 [0] NCCL INFO cudaDriverVersion 13000",
                "vm:728:729 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 32, bw 60.000000/60.000000, type LOC/PIX, sameChannels 1",
                "vm:728:729 [0] NCCL INFO Tree 0 : -1 -> 0 -> -1/-1/-1",
                "vm:728:729 [0] NCCL INFO Channel 00/32 : 0",
                "vm:728:729 [0] NCCL INFO Bootstrap timings total 0.000 s",
                "unrelated line");
        List<String> kept = NcclLogFilter.keep(lines, 100);
        assertEquals(4, kept.size());
        assertTrue(kept.get(1).contains("Pattern 4"));
        assertEquals(2, NcclLogFilter.keep(lines, 2).size());
    }
}
