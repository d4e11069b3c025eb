package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests built without MPI ({@code src/Makefile}: {@code MPI ?= 0}) and started twice by {@code mpirun -np 2}:
 * each process is rank 0 of its own one-GPU test ({@code src/common.cu run}: {@code proc = 0} without
 * {@code MPI_SUPPORT}) and the two outputs interleave line by line (the shape of nccl-tests issue 107, our own text).
 */
class RepeatedRankTest {

    private static List<String> single(String host, int pid) {
        return List.of("# nThread 1 nGpus 1 minBytes 1048576 maxBytes 4194304 step: 4(factor) warmup iters: 5 iters: 20",
                "#", "# Using devices",
                "#  Rank  0 Group  0 Pid " + pid + " on " + host + " device  0 [0x1b] NVIDIA H100 80GB HBM3", "#",
                "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw"
                        + "   busbw #wrong",
                "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)"
                        + "  (GB/s)",
                "     1048576        262144     float     sum      -1     5.00  209.72    0.00      0     0.30  "
                        + "3495.25    0.00      0",
                "# Avg bus bandwidth    : 0");
    }

    @Test
    void twoProcessesClaimingRankZeroIsAnError() {
        List<String> a = single("nodeA", 1320);
        List<String> b = single("nodeB", 2066);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            lines.add(a.get(i));
            lines.add(b.get(i));
        }
        InputException e = assertThrows(InputException.class,
                () -> MeasurementReader.read("nompi.txt", String.join("\n", lines)));
        InputProblem p = e.problems().get(0);
        assertEquals(8, p.line(), "nodeB's Rank 0 line: index 3 of 'single', interleaved second: 2 * 3 + 2");
        assertEquals("Rank", p.field());
        assertTrue(p.message().contains("pid 1320 on nodeA at line 7") && p.message().contains("MPI=1"), p.message());
    }

    /** The same Rank line pasted twice (same host and pid) is not a second process. */
    @Test
    void theSameLineTwiceIsNotTwoProcesses() {
        RankInfo r = new RankInfo(0, 0, 1320, "nodeA", 0, "0x1b", "NVIDIA H100 80GB HBM3", 4);
        RankInfo again = new RankInfo(0, 0, 1320, "nodeA", 0, "0x1b", "NVIDIA H100 80GB HBM3", 5);
        assertTrue(RanksPerProcess.repeated("f", List.of(r, again)).isEmpty());
    }
}
