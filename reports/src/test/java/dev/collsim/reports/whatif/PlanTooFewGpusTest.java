package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.reports.plan.ComputeRate;
import dev.collsim.reports.plan.ModelShape;
import dev.collsim.reports.plan.Recompute;
import dev.collsim.reports.plan.TrainingJob;
import org.junit.jupiter.api.Test;

/**
 * Why a report's plan does not fit a variant with fewer GPUs than the plan needs. A variant that changes the GPUs per
 * host (host-type gb200-nvl72 on a 4-host base: 4 trays x 4 GPUs = 16) keeps the plan's dp, as only a variant that
 * sets hosts has its dp scaled; the row said "no dp of at most 2 (what fits) is allowed: global batch 4 / (micro-batch
 * 1 x dp) must be whole", though dp=2 divides 4.
 */
class PlanTooFewGpusTest {

    /** A 10B job at tp=8, pp=1, dp=4 (32 GPUs), micro-batch 1, global batch {@code g}, expert parallelism ep. */
    private static TrainingJob job(int g, int ep, int experts) {
        return new TrainingJob(new ModelShape(10_000_000_000L, 2048, 16), 4, 2, 2, 4, 8, 1, 1, ep, experts,
                experts > 0 ? 2 : 0, 1, 1.0, 0, false, 1024, 1, g, ComputeRate.stepComputeMs(100), Recompute.NONE, 0);
    }

    /** 16 GPUs hold 16 / 8 = 2 replicas; G = 4, b = 1: dp = 2 gives 4 / 2 = 2 micro-batches, whole: dp=2 fits. */
    @Test
    void aSmallerDpThatFitsIsNamed() {
        assertEquals("does not fit: needs 32 GPUs (dp=4 x tp=8 x pp=1), the cluster has 16; dp=2 would fit its GPUs,"
                + " but the report changes a plan's dp only on a variant that sets hosts (set hosts, or give the plan"
                + " that dp)", PlanRows.tooFew(job(4, 1, 0), 16));
    }

    /** ep = 4 needs dp a multiple of 4; 16 GPUs hold at most dp = 2: none allowed, as the row said before. */
    @Test
    void noAllowedDpKeepsTheReason() {
        assertEquals("does not fit: needs 32 GPUs (dp=4 x tp=8 x pp=1), the cluster has 16; no dp of at most 2 (what"
                + " fits) is allowed: global batch 4 / (micro-batch 1 x dp) must be whole, dp a multiple of ep=4",
                PlanRows.tooFew(job(4, 4, 8), 16));
    }

    /** One replica (tp=8) needs 8 GPUs; a cluster of 4 cannot hold it. */
    @Test
    void oneReplicaTooBig() {
        assertEquals("does not fit: needs 32 GPUs (dp=4 x tp=8 x pp=1), the cluster has 4; even dp=1 needs 8",
                PlanRows.tooFew(job(4, 1, 0), 4));
    }
}
