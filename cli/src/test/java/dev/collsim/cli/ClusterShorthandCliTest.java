package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every command reads {@code -c NAMExN} and {@code -c NAME:N} the same way (one resolution path, ClusterLoader):
 * two DGX H100 hosts are 2 x 8 = 16 GPUs (DGX H100 User Guide).
 */
class ClusterShorthandCliTest {

    @ParameterizedTest
    @ValueSource(strings = {"dgx-h100x2", "dgx-h100:2"})
    void topoShow(String c) {
        CliRun r = CliRun.run("topo", "show", "-c", c);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("hosts      2"), r.out());
        assertTrue(r.out().contains("GPUs       16: 16x H100-SXM5-80GB"), r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"dgx-h100x2", "dgx-h100:2"})
    void predict(String c) {
        CliRun r = CliRun.run("predict", "allreduce", "-c", c, "-b", "1M", "-e", "1M");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("nGpus 16 "), r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"dgx-h100x2", "dgx-h100:2"})
    void plan(String c) {
        CliRun r = CliRun.run("plan", "-c", c, "--params", "7B", "--tp", "8", "--dp", "2");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("(2 hosts, 16 GPUs)"), r.out());
    }

    /** The README's compare example: 2 hosts x 2 GPUs measured, on two catalog DGX H100 hosts. */
    @ParameterizedTest
    @ValueSource(strings = {"dgx-h100x2", "dgx-h100:2"})
    void compare(String c) {
        CliRun r = CliRun.run("compare", "--measured", "../validation/src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt",
                "-c", c);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("all_reduce, 4 ranks, cluster catalog:dgx-h100 (-c " + c + ")"), r.out());
    }

    /** A known host type with a host count of 0 is named as such, not as an unknown name; exit 2 (usage). */
    @ParameterizedTest
    @ValueSource(strings = {"dgx-h100x0", "dgx-h100:0"})
    void zeroHostsIsNamed(String c) {
        CliRun r = CliRun.run("predict", "all_reduce", "-c", c);
        // a bad option value is a usage error (docs/input-limits.md, Exit codes: 2), not an invalid input file (3)
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("-c/--cluster " + c + ": hosts must be >= 1, found 0 (dgx-h100x1 is one host)"),
                r.err());
    }

    /**
     * {@code -c machine.txt:2} (the catalog's host count on a machine file, which describes one host) said
     * "machine.txt:2: -c/--cluster: no such file", as if line 2 of an existing file were missing; it now says the
     * count is for catalog types and how to get 2 such hosts (exit 2, a bad option value).
     */
    @Test
    void aHostCountOnAMachineFileIsExplained() {
        String file = "src/test/resources/machines/B-topo-dgx-a100.txt";
        CliRun r = CliRun.run("topo", "show", "-c", file + ":2");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("-c/--cluster " + file + ":2: " + file + " is a file; a host count (:2) applies"
                + " to catalog host types only."), r.err());
        assertTrue(r.err().contains("write a YAML cluster (hosts: a catalog host type or an inline host, count: 2"),
                r.err());
    }
}
