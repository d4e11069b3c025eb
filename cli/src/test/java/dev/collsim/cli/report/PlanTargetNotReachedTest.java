package dev.collsim.cli.report;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * {@code collsim plan --target-tokens-per-s} that no layout reaches says the largest GPU count the search really
 * tried and what stopped it, not the --max-gpus it never got near.
 */
class PlanTargetNotReachedTest {

    /**
     * By hand: without --global-batch the plan's G is dp x b = 4 x 1 on the default cluster's 32 GPUs (tp 8), so the
     * search may grow dp only to G/b = 4: 4 x 8 = 32 GPUs, far below the default --max-gpus 4096.
     */
    @Test
    void theGlobalBatchCapsTheSearch() {
        assertEquals("  target 1,000,000,000 tokens/s: not reached up to 32 GPUs (dp=4, the largest the global batch"
                + " allows: dp divides G/b = 4; a larger --global-batch lets dp grow; layouts that do not fit in"
                + " GPU memory do not count)", target("--model", "llama3-8b", "--tp", "8", "--target-tokens-per-s",
                "1e9"));
    }

    /**
     * By hand: G 128, b 1, tp 8 x pp 2 = 16 GPUs a replica; --max-gpus 100 leaves dp <= 6, and the largest of those
     * dividing 128 is 4: 64 GPUs.
     */
    @Test
    void maxGpusCapsTheSearch() {
        assertEquals("  target 1,000,000,000 tokens/s: not reached up to 64 GPUs (dp=4, the largest within --max-gpus"
                + " 100 where dp divides G/b = 128; layouts that do not fit in GPU memory do not count)",
                target("--model", "llama3-8b", "--tp", "8", "--pp", "2", "--global-batch", "128", "--max-gpus", "100",
                "--target-tokens-per-s", "1e9"));
    }

    private static String target(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "plan";
        all[1] = "--calibration";
        all[2] = "none";
        System.arraycopy(args, 0, all, 3, args.length);
        CliRun r = run(all);
        assertEquals(0, r.code(), r.err());
        return r.out().lines().filter(l -> l.startsWith("  target ")).findFirst().orElseThrow();
    }
}
