package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
     * A count with a stray suffix is refused by the one reader (HostCount), naming what followed the name and the
     * allowed forms, with the digits found in the example; never read as the name alone (one host). Exit 2 (usage).
     */
    @ParameterizedTest
    @ValueSource(strings = {"dgx-h100:2x", "dgx-h100x2x", "dgx-h100:2.5"})
    void aStraySuffixOnTheCountIsRefused(String c) {
        for (String[] cmd : new String[][] {{"predict", "all_reduce", "-c", c}, {"plan", "--params", "7B", "-c", c},
            {"topo", "show", "-c", c}}) {
            CliRun r = CliRun.run(cmd);
            assertEquals(2, r.code(), String.join(" ", cmd) + ": " + r.out());
            assertTrue(r.err().contains("-c/--cluster " + c + ": 'dgx-h100' is followed by '" + c.substring(8)
                    + "', which is not a host count; allowed: NAMExN or NAME:N"), r.err());
            assertTrue(r.err().contains("e.g. dgx-h100" + c.charAt(8) + "2"), r.err());
            assertTrue(!r.err().contains("Exception") && !r.err().contains("\tat "), r.err());
        }
    }

    /** The same reader refuses FILE:2x for a machine file, naming FILE:N. */
    @Test
    void aStraySuffixOnAFileCountIsRefused() {
        String file = "src/test/resources/machines/B-topo-dgx-a100.txt";
        CliRun r = CliRun.run("topo", "show", "-c", file + ":2x");
        assertEquals(2, r.code(), r.out());
        assertTrue(r.err().contains("'" + file + "' is followed by ':2x', which is not a host count; allowed: FILE:N"
                + " (N copies of the machine file's host) with N a whole number >= 1, e.g. " + file + ":2"), r.err());
    }

    /**
     * {@code -c machine.txt:2} is two copies of the file's host, joined as {@code -c NAME:2} joins a catalog type's
     * (one leaf per NIC rail): the DGX A100's topo -m lists 8 NICs PXB to a GPU, so with {@code --nic-speed 200 Gb/s}
     * the two hosts are cut by 8 x 200 Gb/s = 1600 Gb/s = 200 GB/s per direction (worked by hand).
     */
    @Test
    void aHostCountOnAMachineFileCopiesItsHost() {
        String file = "src/test/resources/machines/B-topo-dgx-a100.txt";
        CliRun r = CliRun.run("topo", "show", "-c", file + ":2", "--gpu-model", "A100-SXM4-80GB", "--nic-speed",
                "200 Gb/s");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("hosts      2"), r.out());
        assertTrue(r.out().contains("GPUs       16: 16x A100-SXM4-80GB"), r.out());
        assertTrue(r.out().contains("bisection  200.0 GB/s per direction"), r.out());
        CliRun p = CliRun.run("predict", "allreduce", "-c", file + ":2", "-b", "1M", "-e", "1M");
        assertEquals(0, p.code(), p.err());
        assertTrue(p.out().contains("# Cluster: " + file + ":2 (2 hosts, 16 GPUs)"), p.out());
        String help = CliRun.run("predict", "--help").out().replaceAll("\\s+", " ");
        assertTrue(help.contains("FILE:N is N copies of a machine file's host on that fabric"), help);
    }

    /**
     * A report's base cluster may be copies of a machine file's host, whose variants then change hosts and NICs as a
     * catalog base's do: 'hosts: 4' of the DGX A100 file's 8 GPUs is 32 GPUs.
     */
    @Test
    void aReportVariesTheCopiesOfAMachineFilesHost(@TempDir Path dir) throws Exception {
        Path spec = dir.resolve("r.yaml");
        Files.writeString(spec, "title: copies\ncluster: " + Path.of("src/test/resources/machines/B-topo-dgx-a100.txt")
                .toAbsolutePath() + ":2\nvariants:\n  - name: four\n    hosts: 4\nsweeps:\n  - collective: allreduce\n"
                + "    min: 1M\n    max: 1M\n");
        CliRun r = CliRun.run("report", spec.toString(), "-o", dir.resolve("out").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("four\\s+32\\s.*")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("base\\s+16\\s.*")), r.out());
    }

    /** A machine file read as it is has no host type to vary; the refusal names the spelling that has one. */
    @Test
    void aReportVariantOnAMachineFileNamesItsCopies(@TempDir Path dir) throws Exception {
        Path spec = dir.resolve("r.yaml");
        String file = Path.of("src/test/resources/machines/B-topo-dgx-a100.txt").toAbsolutePath().toString();
        Files.writeString(spec, "title: as is\ncluster: " + file + "\nvariants:\n  - name: four\n    hosts: 4\n"
                + "sweeps:\n  - collective: allreduce\n    min: 1M\n    max: 1M\n");
        CliRun r = CliRun.run("report", spec.toString(), "-o", dir.resolve("out").toString());
        assertEquals(3, r.code(), r.out());
        assertTrue(r.err().contains("'cluster: " + file + ":1' takes its host as a host type whose hosts, NICs and"
                + " fabric vary"), r.err());
    }

    /** A YAML cluster sets its hosts with 'count:'; a host count after it says so (exit 2, a bad option value). */
    @Test
    void aHostCountOnAYamlClusterPointsToItsCount() {
        String file = "src/test/resources/machines/two-nic-h100x2.yaml";
        CliRun r = CliRun.run("topo", "show", "-c", file + ":3");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(file + " is a YAML cluster; a host count (:3) copies the host of a machine file"
                + " (nvidia-smi topo -m, NCCL XML): set 'count: 3' in " + file), r.err());
    }
}
