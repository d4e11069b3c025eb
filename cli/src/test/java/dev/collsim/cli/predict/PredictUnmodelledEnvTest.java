package dev.collsim.cli.predict;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import dev.collsim.cli.ExitCodes;
import org.junit.jupiter.api.Test;

/**
 * A pasted environment: NCCL variables collsim does not model (NCCL_IB_HCA, NCCL_SOCKET_IFNAME, both read by NCCL
 * 2.30.7, {@code docs/env.rst}) are left out with one warning line, the table is the one without them and the
 * header's env line names them (a saved table keeps what was given); a near miss of a modelled name (NCCL_ALOG, 2
 * edits from NCCL_ALGO) is still refused with its did-you-mean.
 */
class PredictUnmodelledEnvTest {

    @Test
    void unmodelledNcclVariablesWarnOnceAndChangeNothing() {
        CliRun plain = run("predict", "-c", "dgx-h100x2", "allreduce", "-b", "1M", "-e", "1M");
        CliRun pasted = run("predict", "-c", "dgx-h100x2", "allreduce", "-b", "1M", "-e", "1M", "--env",
                "NCCL_IB_HCA=mlx5_0", "--env", "NCCL_SOCKET_IFNAME=eth0");
        assertEquals(0, pasted.code(), pasted.err());
        assertTrue(pasted.err().contains("collsim: warning: NCCL_IB_HCA, NCCL_SOCKET_IFNAME: not modelled by"
                + " collsim; the prediction is NCCL's behaviour without them\n"), pasted.err());
        assertEquals(1, pasted.err().split("not modelled by collsim", -1).length - 1, pasted.err());
        // the table is the one without them; only the header's env line names what was left out
        assertTrue(plain.out().contains("# NCCL env: (defaults)\n"), plain.out());
        assertEquals(plain.out().replace("# NCCL env: (defaults)\n", "# NCCL env: (defaults); not modelled, left out:"
                + " NCCL_IB_HCA, NCCL_SOCKET_IFNAME\n"), pasted.out());
    }

    @Test
    void aNearMissOfAModelledNameIsStillRefused() {
        CliRun r = run("predict", "-c", "dgx-h100x2", "allreduce", "-b", "1M", "-e", "1M", "--env", "NCCL_ALOG=Ring");
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        assertTrue(r.err().contains("did you mean 'NCCL_ALGO'?"), r.err());
    }

    /**
     * A variable the launch line exports (mpirun -x), not given with --env, is named without "--env": the warning
     * says only what was left out.
     */
    @Test
    void aLaunchLineExportIsNotCalledAnEnvOption() {
        CliRun r = run("predict", "-c", "dgx-h100x2", "mpirun", "-np", "16", "-x", "NCCL_IB_HCA=mlx5_0",
                "./build/all_reduce_perf", "-b", "1M", "-e", "1M");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("collsim: warning: NCCL_IB_HCA: not modelled by collsim; the prediction is NCCL's"
                + " behaviour without it\n"), r.err());
        assertFalse(r.err().contains("--env"), r.err());
    }
}
