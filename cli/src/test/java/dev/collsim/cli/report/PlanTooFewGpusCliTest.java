package dev.collsim.cli.report;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * A plan larger than the cluster is a usage error (exit 2) that shows its factors and what is allowed: 2 HGX B200 hosts
 * of 8 GPUs (the catalog) are 16 GPUs; tp 8 x pp 4 with dp 1 (the cluster-filling dp is at least 1) needs 32.
 */
class PlanTooFewGpusCliTest {

    @Test
    void theFactorsAndTheLimitAreNamed() {
        CliRun r = run("plan", "-c", "hgx-b200x2", "--model", "llama3-70b", "--tp", "8", "--pp", "4");
        assertEquals(2, r.code(), r.err());
        assertEquals("collsim: the job needs 32 GPUs (dp=1 x tp=8 x pp=4), cluster 'hgx-b200x2' has 16;"
                + " allowed: dp x tp x pp at most 16 (fewer pipeline stages or less parallelism), or a cluster of more"
                + " hosts (-c NAMExN)", r.err().lines().filter(l -> l.startsWith("collsim: the job")).findFirst()
                .orElse(r.err()));
    }
}
