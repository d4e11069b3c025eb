package dev.collsim.cli.report;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code collsim plan} says which GPUs a layout leaves idle instead of planning on fewer GPUs in silence: Llama 3 70B
 * at tp 8, pp 3 on the default cluster (4 DGX H100 hosts, 32 GPUs) gets the default dp = floor(32 / (8 x 3)) = 1,
 * so ranks 0-23 fill hosts 0-2 and host 3's GPUs 24-31 run nothing; at pp 2 dp = 32 / 16 = 2 fills all 32 and no
 * such line appears.
 */
class PlanIdleGpusTest {

    @Test
    void aLayoutThatLeavesAHostIdleSaysSoUnderTheClusterLine() {
        CliRun plan = run("plan", "--model", "llama3-70b", "--tp", "8", "--pp", "3", "--calibration", "none");
        assertEquals(0, plan.code(), plan.err());
        List<String> lines = plan.out().lines().toList();
        int cluster = lines.indexOf(lines.stream().filter(l -> l.startsWith("# cluster: ")).findFirst().orElseThrow());
        assertEquals("# 8 of 32 GPUs idle (GPUs 24-31, host 3): tp x pp x dp = 8 x 3 x 1 = 24 of 32; dp is bounded"
                + " by 32 GPUs / (tp x pp = 24) = 1.33, rounded down to 1 (a tp x pp that divides 32 fills the"
                + " cluster)", lines.get(cluster + 1), plan.out());
        CliRun full = run("plan", "--model", "llama3-70b", "--tp", "8", "--pp", "2", "--calibration", "none");
        assertEquals(0, full.code(), full.err());
        assertTrue(full.out().contains("dp=2 tp=8 pp=2") && !full.out().contains("idle"), full.out());
    }
}
