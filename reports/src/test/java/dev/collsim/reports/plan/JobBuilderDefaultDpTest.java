package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The default data-parallel degree ({@link JobBuilder#clusterFillingDp}), the one rule {@code collsim plan} without
 * {@code --dp} and a report plan without {@code dp} share: floor(GPUs / (tp x pp x cp)), at least 1. Values worked by
 * hand from that rule and the builder's default global batch G = dp x b x (pp > 1 ? 4 pp : 1).
 */
class JobBuilderDefaultDpTest {

    private static JobBuilder builder(int tp, int pp, int cp) {
        JobBuilder b = new JobBuilder();
        b.model = "llama3-70b";
        b.tp = tp;
        b.pp = pp;
        b.cp = cp;
        return b;
    }

    /** 32 GPUs at tp 8, pp 3: 32 / 24 = 1.33, rounded down to 1 (docs/planning-validation.md's example). */
    @Test
    void aReplicaThatDoesNotDivideTheClusterRoundsDown() {
        assertEquals(1, builder(8, 3, 1).clusterFillingDp(32));
    }

    /** 64 GPUs at tp 8, pp 2, cp 2: a replica of 8 x 2 x 2 = 32 GPUs, so dp = 64 / 32 = 2 (cp counts). */
    @Test
    void contextParallelIsPartOfTheReplica() {
        assertEquals(2, builder(8, 2, 2).clusterFillingDp(64));
        assertEquals(4, builder(8, 2, 1).clusterFillingDp(64));
    }

    /**
     * The division on its own, which {@code GroupPlacement.idleGpus} names as the bound: 32 GPUs hold one replica of
     * 24 (32 / 24 = 1.33) and four of 8; a replica size below 1 counts as 1.
     */
    @Test
    void theDivisionOnItsOwn() {
        assertEquals(1, JobBuilder.clusterFillingDp(32, 24));
        assertEquals(4, JobBuilder.clusterFillingDp(32, 8));
        assertEquals(32, JobBuilder.clusterFillingDp(32, 0));
    }

    /** A replica larger than the cluster (tp 8 x pp 2 = 16 on 8 GPUs) and an unread cluster (0 GPUs) both give 1. */
    @Test
    void neverBelowOne() {
        assertEquals(1, builder(8, 2, 1).clusterFillingDp(8));
        assertEquals(1, builder(2, 1, 1).clusterFillingDp(0));
    }

    /**
     * The default global batch follows the filled dp: 16 GPUs at tp 2, pp 2 give dp = 16 / 4 = 4 and G = 4 x 1 x 4 x 2
     * = 32 sequences, 8 micro-batches per step.
     */
    @Test
    void theDefaultGlobalBatchFollowsTheFilledDp() {
        JobBuilder b = builder(2, 2, 1);
        b.dp = b.clusterFillingDp(16);
        TrainingJob job = b.build();
        assertEquals(4, job.dp());
        assertEquals(32, job.globalBatch());
        assertEquals(16, job.nGpus());
    }

    /**
     * A given global batch does not lower the default: 32 GPUs at tp 8 give dp = 4, and G = 2 with b = 1 is not a
     * multiple of b x dp = 4, so the job refuses it naming both options rather than running on 2 x 8 = 16 GPUs.
     */
    @Test
    void aGivenGlobalBatchDoesNotBoundTheDefault() {
        JobBuilder b = builder(8, 1, 1);
        b.globalBatch = 2;
        b.dp = b.clusterFillingDp(32);
        assertEquals(4, b.dp);
        String m = assertThrows(IllegalArgumentException.class, b::build).getMessage();
        assertTrue(m.contains("--global-batch 2 must be a multiple of --micro-batch x --dp = 4"), m);
    }
}
