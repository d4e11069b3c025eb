package dev.collsim.cli;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Azure's ND H100 v5 NCCL_TOPO_FILE (no NVLink elements, no GPU model): predict warns in its header; with the GPU
 * model and {@code --nvlink nvswitch} the GPUs meet in an NVSwitch (ring channels on NVL paths, sm 90 for H100).
 */
class MissingNvlinksCliTest {

    private static final String AZURE = "src/test/resources/machines/C-topo-azure-ndv5-8xH100.xml";

    @Test
    void bareFileIsWarned() {
        CliRun r = run("predict", "-c", AZURE, "allreduce", "-b", "1G", "-e", "1G");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("# warning: the cluster names no GPU model and gives its GPUs no NVLink"), r.out());
    }

    @Test
    void declaredNvlinksReachTheChannelSearch() {
        CliRun r = run("predict", "-c", AZURE, "--gpu-model", "H100-SXM5-80GB", "--nvlink", "nvswitch", "allreduce",
                "-b", "1G", "-e", "1G");
        assertEquals(0, r.code(), r.err());
        assertFalse(r.out().contains("# warning:"), r.out());
        assertTrue(r.out().contains("(NVL/PIX)") && r.out().contains("sm90"), r.out());
    }

    @Test
    void badNvlinkSpecIsAUsageError() {
        CliRun r = run("predict", "-c", AZURE, "--nvlink", "nvswitch:99", "allreduce");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--nvlink: found 'nvswitch:99'; allowed:"), r.err());
    }

    @Test
    void catalogClusterRefusesTheHint() {
        CliRun r = run("predict", "-c", "dgx-h100", "--nvlink", "nvswitch", "allreduce");
        assertEquals(2, r.code(), r.err());
    }
}
