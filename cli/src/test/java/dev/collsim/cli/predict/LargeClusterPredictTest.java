package dev.collsim.cli.predict;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import dev.collsim.topology.fabric.ClusterLimits;
import org.junit.jupiter.api.Test;

/**
 * {@code predict -c dgx-h100x100000}: 100,000 hosts of one type are described once, so the analytical prediction
 * answers without building them. Building them is refused past {@link ClusterLimits#maxHosts()} (32,768 unless
 * COLLSIM_MAX_HOSTS says otherwise), so a prediction that built every host would exit 3 here instead of 0.
 */
class LargeClusterPredictTest {

    @Test
    void hundredThousandHostsArePredictedWithoutBuildingThem() {
        CliRun r = run("predict", "-c", "dgx-h100x100000", "allreduce", "-b", "1G", "-e", "1G");
        assertEquals(0, r.code(), r.err());
        // 100,000 hosts x 8 GPUs of a DGX H100; one NCCL node per host
        assertTrue(r.out().contains("Cluster: dgx-h100x100000 (100000 hosts, 800000 GPUs); 800000 ranks on 100000"
                + " NCCL node(s), 8 per node"), r.out());
        assertTrue(r.out().contains("NVLSTree  Simple"), r.out());
    }

    @Test
    void commandsThatNeedEveryDeviceStillRefuseTooManyHosts() {
        int over = ClusterLimits.maxHosts() + 1;
        CliRun r = run("topo", "show", "-c", "dgx-h100x" + over);
        assertEquals(3, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("allowed: at most " + ClusterLimits.maxHosts()), r.err());
    }
}
