package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchEnvTest {

    @Test
    void torchrun() {
        LaunchEnv e = LaunchEnv.detect(Map.of("RANK", "5", "WORLD_SIZE", "16", "LOCAL_RANK", "1",
                "MASTER_ADDR", "node0", "MASTER_PORT", "29500", "COLLSIM_RENDEZVOUS_SECRET", "s3")).orElseThrow();
        assertEquals(new LaunchEnv("torchrun", 5, 16, 1, "node0", 29500, "node0", "s3"), e);
        assertTrue(!e.toString().contains("s3"), "the secret is not printed: " + e);
    }

    @Test
    void slurmTakesFirstHostOfTheNodeList() {
        LaunchEnv e = LaunchEnv.detect(Map.of("SLURM_PROCID", "9", "SLURM_NTASKS", "16", "SLURM_LOCALID", "1",
                "SLURM_JOB_NODELIST", "gpu[03-05,7]", "SLURM_JOB_ID", "4711")).orElseThrow();
        assertEquals("collsim-rendezvous|SLURM_JOB_ID=4711|port=29517|world=16", e.secret());
        assertEquals("gpu03", e.masterAddr());
        assertEquals(LaunchEnv.DEFAULT_PORT, e.masterPort());
        assertEquals(9, e.rank());
        assertEquals("a", LaunchEnv.firstHost("a,b[1-2]"));
        assertEquals("node12", LaunchEnv.firstHost("node12"));
    }

    @Test
    void openMpiAndOverrides() {
        LaunchEnv e = LaunchEnv.detect(Map.of("OMPI_COMM_WORLD_RANK", "3", "OMPI_COMM_WORLD_SIZE", "4",
                "OMPI_COMM_WORLD_LOCAL_RANK", "3", "COLLSIM_RDZV_ADDR", "10.0.0.1", "COLLSIM_RDZV_PORT", "4000",
                "COLLSIM_RDZV_BIND", "0.0.0.0", "PMIX_NAMESPACE", "prterun-node0-1234@1")).orElseThrow();
        assertEquals(new LaunchEnv("openmpi", 3, 4, 3, "10.0.0.1", 4000, "0.0.0.0",
                "collsim-rendezvous|PMIX_NAMESPACE=prterun-node0-1234@1|port=4000|world=4"), e);
    }

    @Test
    void noLauncherAndBadValues() {
        assertTrue(LaunchEnv.detect(Map.of("HOME", "/root")).isEmpty());
        ExecutorException bad = assertThrows(ExecutorException.class,
                () -> LaunchEnv.detect(Map.of("RANK", "x", "WORLD_SIZE", "2")));
        assertEquals(ExecutorException.USAGE, bad.exitCode());
        assertTrue(bad.getMessage().contains("RANK='x'"));
        assertThrows(ExecutorException.class, () -> LaunchEnv.detect(Map.of("RANK", "2", "WORLD_SIZE", "2")));
        assertThrows(ExecutorException.class, () -> LaunchEnv.detect(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2")));
    }

    @Test
    void withoutSecretOrJobIdTwoRanksAreRefusedOneRankIsNot() {
        ExecutorException e = assertThrows(ExecutorException.class, () -> LaunchEnv.detect(Map.of("RANK", "1",
                "WORLD_SIZE", "2", "TORCHELASTIC_RUN_ID", "none")));
        assertEquals(ExecutorException.USAGE, e.exitCode());
        assertTrue(e.getMessage().contains("COLLSIM_RENDEZVOUS_SECRET"), e.getMessage());
        assertEquals("", LaunchEnv.detect(Map.of("RANK", "0", "WORLD_SIZE", "1")).orElseThrow().secret());
        assertEquals("collsim-rendezvous|TORCHELASTIC_RUN_ID=abc|port=29517|world=2", LaunchEnv.detect(Map.of(
                "RANK", "1", "WORLD_SIZE", "2", "TORCHELASTIC_RUN_ID", "abc")).orElseThrow().secret());
    }
}
