package dev.collsim.cli.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * {@code compare -c dgx-h100} names one host of a type; a dataset that ran on more hosts is compared on its own host
 * count, and the output says so in an {@code assumed:} line instead of resizing silently.
 */
class CompareHostCountCliTest {

    /** Its header, line 4: "nodes_x_gpus: 4x8 (32 ranks)": 4 hosts, where -c dgx-h100 names 1. */
    private static final String FILE = "../validation/src/test/resources/data/"
            + "A-allreduce-4x8xV100-32GB-tcp-100GbE-problem-issue-nccl450.txt";

    @Test
    void aOneHostTypeNameSaysHowManyHostsItUsed() {
        CliRun r = CliRun.run("compare", "-m", FILE, "-c", "dgx-h100");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("  assumed: 4 host(s) of dgx-h100, not the 1 that -c dgx-h100 names: the file puts"
                + " its 32 ranks on 4 hosts\n"), r.out());
    }

    /** -c dgx-h100x4 names the file's 4 hosts: nothing is assumed about the count. */
    @Test
    void aMatchingCountAssumesNothing() {
        CliRun r = CliRun.run("compare", "-m", FILE, "-c", "dgx-h100x4");
        assertEquals(0, r.code(), r.err());
        assertTrue(!r.out().contains("host(s) of dgx-h100"), r.out());
    }

    /**
     * A machine file is one host (the DGX A100's nvidia-smi topo -m); the 4-host file cannot be placed on it: exit 2,
     * and the message says why and what is allowed instead of only "ran on 4 hosts; cluster ... has 1".
     */
    @Test
    void aMachineFileOfOneHostSaysWhatIsAllowed() {
        CliRun r = CliRun.run("compare", "-m", FILE, "-c", "src/test/resources/machines/B-topo-dgx-a100.txt");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(" ran on 4 hosts; cluster ") && r.err().contains(" has 1 (a machine file or NCCL"
                + " XML describes one host; allowed: a cluster of 4 or more hosts: -c TYPE:4 for a catalog host type, or a"
                + " YAML cluster spec)"), r.err());
    }
}
