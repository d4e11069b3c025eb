package dev.collsim.cli.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * 0-byte rows of the point-to-point collectives, in both backends. NCCL 2.28.9 src/enqueue.cc ncclEnqueueCheck hands
 * Send/Recv to p2pTaskAppend before "Empty collectives can be discarded", so a 0-byte alltoall still runs (a row with
 * a time); nccl-tests 2.19.6 src/common.cu prints algbw = size / time, so a 0-byte row has algbw and busbw 0.00.
 */
class ZeroByteP2pRowsTest {

    private static List<String> row(String out) {
        String r = out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).findFirst().orElseThrow();
        return List.of(r.trim().split("\\s+"));
    }

    /** Analytical alltoall -b 0 on 8 ranks: the row has a time, algbw/busbw 0.00 and a header line says why. */
    @Test
    void analyticalZeroByteAlltoallIsExplained() {
        CliRun r = CliRun.run("predict", "-c", "dgx-h100", "alltoall", "-b", "0", "-e", "0");
        assertEquals(0, r.code(), r.err());
        List<String> row = row(r.out());
        assertEquals("0", row.get(0));
        assertEquals(List.of("0.00", "0.00"), row.subList(6, 8), r.out());
        assertTrue(r.out().contains("# size 0 of alltoall on 8 ranks is 0 bytes: NCCL still runs a 0-byte send and"
                + " receive with each peer"), r.out());
    }

    /**
     * Flow alltoall -b 1K on the 72 GPUs of a GB200 NVL72 rack: nccl-tests' AlltoAllGetCollByteCount (src/alltoall.cu)
     * gives paramcount = (1024 / 4 / 72) &amp; ~(16 / 4 - 1) = 3 &amp; ~3 = 0, so size 0; algbw, busbw and the links
     * column are 0.00 (were 912.68, 900.00 and 900.00), with the same header line as the analytical backend.
     */
    @Test
    void flowZeroByteAlltoallPrintsZeroBandwidth() {
        CliRun r = CliRun.run("predict", "--backend", "flow", "-c", "bm.gpu.gb200.4", "alltoall", "-b", "1K", "-e",
                "1K");
        assertEquals(0, r.code(), r.err());
        List<String> row = row(r.out());
        assertEquals("0", row.get(0));
        assertEquals(List.of("0.00", "0.00"), row.subList(6, 8), r.out());
        assertEquals("0.00", row.get(14), "links column: " + r.out());
        assertTrue(r.out().contains("# size 1024 of alltoall on 72 ranks is 0 bytes: NCCL still runs a 0-byte send"),
                r.out());
    }
}
