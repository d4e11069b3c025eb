package dev.collsim.cli.validation;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code collsim diagnose -c CLUSTER FILE}: a user's own log across hosts (the 2x2 DGX H100 run without its {@code #@}
 * lines, AllReduce on 4 ranks, peak busbw 147.98 GB/s) judged against the NICs of the cluster the user names.
 */
class DiagnoseClusterCliTest {

    private static final Path DATA = Path.of("../validation/src/test/resources/data");

    @TempDir
    Path dir;

    private Path userLog() throws Exception {
        Path f = dir.resolve("user.txt");
        Files.writeString(f, Files.readString(DATA.resolve("A-allreduce-2x2xH100-dgx-ib.txt")).lines()
                .filter(l -> !l.startsWith("#@")).collect(Collectors.joining("\n", "", "\n")));
        return f;
    }

    /**
     * Without -c the log (H100 GPUs, no network named) is judged on the cluster compare assumes for it, a DGX H100
     * from the GPU model, and says so in compare's words; with -c dgx-h100:2 on the same NICs, and nothing is wrong.
     */
    @Test
    void theNamedClusterGivesTheBound() throws Exception {
        Path f = userLog();
        CliRun without = run("diagnose", f.toString());
        assertEquals(0, without.code(), without.err());
        assertFalse(without.out().contains("bound unknown"), without.out());
        // the NICs' source in the parentheses, compare's assumption on a line of its own below
        assertTrue(without.out().contains("network 2 x 400 Gb/s per host (the NICs local to 2 GPU(s) of the 8 per"
                + " host of catalog:dgx-h100)\n  assumed: host type dgx-h100 from the GPU model"), without.out());
        CliRun r = run("diagnose", "-c", "dgx-h100:2", f.toString());
        assertEquals(0, r.code(), r.err());
        assertFalse(r.out().contains("bound unknown"), r.out());
        assertFalse(r.out().contains("far below"), r.out());
        // one 400 Gb/s NIC per GPU on a DGX H100 (NVIDIA DGX H100 user guide): the run's 2 GPUs a host use 2
        assertTrue(r.out().contains("network 2 x 400 Gb/s per host (the NICs local to 2 GPU(s) of the 8 per host of"
                + " -c dgx-h100:2)"), r.out());
        assertFalse(r.out().contains("assumed:"), "the run's own GPUs on -c's hosts: nothing assumed\n" + r.out());
    }

    /**
     * compare, calibrate and tune take their files after -m, so a user goes on with {@code diagnose -m FILE}: the same
     * diagnosis as {@code diagnose FILE} (it once failed with "Unknown option: '-m'"); with neither, a usage error
     * that names both forms (exit 2).
     */
    @Test
    void filesAfterMAsCompareTakesThem() throws Exception {
        Path f = userLog();
        CliRun plain = run("diagnose", f.toString());
        CliRun m = run("diagnose", "-m", f.toString());
        assertEquals(0, m.code(), m.err());
        assertEquals(plain.out(), m.out());
        CliRun none = run("diagnose");
        assertEquals(2, none.code(), none.out());
        assertTrue(none.err().contains("no measurement file given; allowed: FILE... or -m FILE..."), none.err());
    }

    /**
     * diagnose places a run on -c by compare's rule (one home, DatasetCluster.place; Comparer.otherGpu): a cluster of
     * other GPUs is assumed, not refused, with compare's line (printed below the network line, the NICs being the only
     * thing -c sets in diagnose); a catalog type without a count takes the run's 2 hosts as compare does; a loaded cluster of fewer
     * hosts than the run spans is a usage error (exit 2) naming the file, as in compare.
     */
    @Test
    void aClusterIsPlacedAsCompareDoes() throws Exception {
        Path f = userLog();
        CliRun gpu = run("diagnose", "-c", "dgx-a100:2", f.toString());
        assertEquals(0, gpu.code(), gpu.err());
        String assumed = "assumed: the given cluster's GPUs (A100-SXM4-80GB), although the file's ranks ran on NVIDIA"
                + " H100 80GB HBM3 (H100 SXM): ";
        assertTrue(gpu.out().contains("of -c dgx-a100:2)\n  " + assumed
                + "the NICs judged by are that cluster's, the GPU figures the run's\n"), gpu.out());
        CliRun compare = run("compare", "-m", f.toString(), "-c", "dgx-a100:2", "--calibration", "none");
        assertEquals(0, compare.code(), compare.err());
        assertTrue(compare.out().contains(assumed + "the errors below are of that cluster"), compare.out());
        CliRun type = run("diagnose", "-c", "dgx-h100", f.toString());
        assertEquals(0, type.code(), type.err());
        assertTrue(type.out().contains("network 2 x 400 Gb/s per host (the NICs local to 2 GPU(s) of the 8 per host of"
                + " -c dgx-h100)"), type.out());
        Path one = Files.writeString(dir.resolve("one.yaml"), "schema: collsim/v1\nname: one\nsource: a test\n"
                + "hosts: dgx-h100\ncount: 1\n");
        CliRun hosts = run("diagnose", "-c", one.toString(), f.toString());
        assertEquals(2, hosts.code(), hosts.out());
        assertTrue(hosts.err().contains("user.txt") && hosts.err().contains("ran on 2 hosts; cluster " + one + " has 1"),
                hosts.err());
        assertEquals("", hosts.out());
    }

    /** --network cannot change diagnose's bound (the NICs' line rate): refused, not ignored. */
    @Test
    void networkIsRefused() throws Exception {
        CliRun r = run("diagnose", "-c", "dgx-h100:2", "--network", "roce", userLog().toString());
        assertEquals(2, r.code(), r.out());
        assertTrue(r.err().contains("--network changes nothing in 'diagnose'"), r.err());
    }

    /**
     * A table cut from its log names no GPU (the Nebius 2x8 H100 run without its '#@' lines: no device lines, no
     * header): without -c its bound is unknown and said so; with -c dgx-h100:2 the run is judged on that cluster's
     * GPU and on the 2 hosts its 16 ranks span there (16 / 8 GPUs a DGX H100), as compare predicts it, and the text says the GPU is -c's. Its 468.46 GB/s peak (the file's 8 GiB
     * in-place busbw) is above 50 % of any H100 bound, so nothing is flagged.
     */
    @Test
    void aFileWithoutGpuIsJudgedOnTheNamedClustersGpu() throws Exception {
        Path f = dir.resolve("my-run.log");
        Files.writeString(f, Files.readString(DATA.resolve("A-allreduce-2x8xH100-nebius-ib-dstack-docs.txt")).lines()
                .filter(l -> !l.startsWith("#@")).collect(Collectors.joining("\n", "", "\n")));
        CliRun without = run("diagnose", f.toString());
        assertEquals(0, without.code(), without.err());
        assertTrue(without.out().contains("unknown GPU") && without.out().contains("bound unknown"), without.out());
        CliRun r = run("diagnose", "-c", "dgx-h100:2", f.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("16 ranks on 2 hosts, H100 SXM (the GPU of -c's cluster: the file names none)"), r.out());
        assertTrue(r.out().contains("peak busbw 468.46 GB/s"), r.out());
        assertFalse(r.out().contains("bound unknown"), r.out());
        assertTrue(r.out().contains("no problem found: the peak is"), r.out());
    }

    /**
     * A file that states no host count (the 2x8 H100 run 1 of nccl-tests#319 without its {@code #@} lines but the
     * GPU model, and without its rank lines: 16 ranks, hosts unknown) is judged on the hosts its ranks span on -c: 16
     * ranks on DGX H100s of 8 GPUs are 2 hosts, and the output says so. On 2 hosts the NICs' plateau is found as in
     * the file with its rank lines: 88.8 GB/s busbw flat from 512 MiB, over a ring's 50 GB/s per 400 Gb/s NIC, is
     * about 2 NICs' worth.
     */
    @Test
    void aFileWithoutHostsIsJudgedOnTheNamedClustersHosts() throws Exception {
        String text = Files.readString(DATA.resolve("A-allreduce-2x8xH100-supermicro-ndr-doca-default-vs-ring"
                + "-nccl2.26-problem-issue-nccltests319.txt"));
        Path f = dir.resolve("nohosts.txt");
        Files.writeString(f, "#@ hardware: 8x H100 80GB HBM3 SXM\n" + text.substring(0, text.indexOf("### run 2"))
                .lines().filter(l -> !l.startsWith("#@") && !l.matches("#\\s+Rank\\s+\\d+ .*"))
                .collect(Collectors.joining("\n", "", "\n")));
        CliRun r = run("diagnose", "-c", "dgx-h100:2", f.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("all_reduce, 16 ranks on 2 hosts, H100"), r.out());
        assertTrue(r.out().contains("\n  assumed: judged on 2 hosts of 8 GPUs, the hosts its 16 ranks span on -c dgx-h100:2 (the"
                + " file states no host count)"), r.out());
        assertTrue(r.out().contains("about 2 of the 8 NICs' worth"), r.out());
    }

    /**
     * A run on one host (the ND H200 v5 table: 8 ranks on 1 host) judged with -c dgx-h100 names no network: nothing
     * of a one-host AllReduce leaves the host, so the cluster's 8 x 400 Gb/s NICs are not part of its story; the
     * assumed line (the cluster's GPUs against the run's) stays.
     */
    @Test
    void aOneHostRunNamesNoNetwork() {
        CliRun r = run("diagnose", "-c", "dgx-h100",
                DATA.resolve("A-allreduce-8xH200-azure-ndh200v5-nvls-nccl2.20-busbw-table.txt").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("8 ranks on 1 host"), r.out());
        assertFalse(r.out().contains("network "), r.out());
        assertTrue(r.out().contains("assumed: the given cluster's GPUs"), r.out());
    }
}
