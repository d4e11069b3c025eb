package dev.collsim.cli.report;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@code collsim plan}'s "fits with" line on the three layouts of the fresh-user review: every suggestion keeps the
 * cluster's GPUs (tp or pp doubles, dp halves), TP stays in the 8-GPU host, sequence parallelism is tried. The memory
 * figures are worked by hand in the reports module's {@code MemoryFixesTest}.
 */
class PlanMemoryFixesTest {

    /** One DGX H100: dp = 8 GPUs / (tp 1 x pp 1) = 8; --pp 2 and --tp 2 at dp 8 / 2 = 4, still 8 GPUs. */
    @Test
    void eightBillionOnOneHost() {
        CliRun r = run("plan", "--model", "llama3-8b", "--tp", "1", "--pp", "1", "-c", "dgx-h100", "--global-batch",
                "64");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("dp=8 tp=1 pp=1"), r.out());
        assertTrue(r.out().matches("(?s).*--pp 2: [0-9.]+ GiB per GPU on 8 GPUs \\(dp 4\\).*"), r.out());
        assertTrue(r.out().matches("(?s).*--tp 2: [0-9.]+ GiB per GPU on 8 GPUs \\(dp 4\\).*"), r.out());
        assertFalse(r.out().contains("on 16 GPUs"), r.out());
    }

    /**
     * 1024 DGX H100 = 8192 GPUs, tp 8 x pp 16: dp = 64. Without SP no single change fits; the pair SP + ZeRO-2 does,
     * on the same 8192 GPUs. With SP: --tp 16 would span two hosts and 16384 GPUs: not offered.
     */
    @Test
    void fourHundredFiveBillionOnAThousandHosts() {
        String[] args = {"plan", "--model", "llama3-405b", "--tp", "8", "--pp", "16", "-c", "dgx-h100x1024",
            "--seq-len", "8192", "--global-batch", "2048"};
        CliRun r = run(args);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("dp=64 tp=8 pp=16"), r.out());
        assertTrue(r.out().matches("(?s).*fits with: --sequence-parallel --zero 2: [0-9.]+ GiB per GPU on 8192 GPUs"
                + "\n.*"), r.out());
        String[] withSp = Arrays.copyOf(args, args.length + 1);
        withSp[args.length] = "--sequence-parallel";
        CliRun sp = run(withSp);
        assertEquals(0, sp.code(), sp.err());
        assertTrue(sp.out().contains("fits with: "), sp.out());
        assertTrue(sp.out().contains("--zero 2: "), sp.out());
        assertFalse(sp.out().contains("--tp 16") || sp.out().contains("16384 GPUs"), sp.out());
    }
}
