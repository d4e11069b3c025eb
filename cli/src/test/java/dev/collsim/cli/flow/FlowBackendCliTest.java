package dev.collsim.cli.flow;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code collsim predict --backend flow|links} and {@code collsim merge}, in-process. */
class FlowBackendCliTest {

    @TempDir
    Path dir;

    /** @return time (us) of the first data row of a text table */
    private static double time(String out) {
        String row = out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).findFirst().orElseThrow();
        return Double.parseDouble(row.trim().split("\\s+")[5]);
    }

    /**
     * 4 DGX H100 on a 2:1 fat-tree with 16 host ports per leaf (hosts 0,1 on leaf0; 2,3 on leaf1; 8 uplinks of
     * 400 Gb/s = 50 GB/s per leaf), spraying. A hostfile orders the hosts h0, h2, h1, h3, so each of the 4 host
     * boundaries of the ring crosses leaves: per channel, 2 flows leave each leaf; 8 channels: 16 flows over 8
     * uplinks, 25 GB/s each, where alone each would get its NIC's 50 GB/s. Ring AllReduce of 1 GiB on 32 ranks,
     * 8 channels: 62 steps of 2^30 / (32 x 8) = 4,194,304 B: 167.77216 us at 25 GB/s (flow); the links backend
     * times each flow alone (83.88608 us at 50 GB/s) but no step shorter than its busiest link's bytes over its
     * capacity, 2 x 4,194,304 B / 50,000 B/us = 167.77216 us too; plus the route latency (0.6 us per switch entered,
     * a few us at most).
     */
    @Test
    void oversubscribedFatTreeHalvesTheRateOfCrossLeafFlows() throws IOException {
        Path hosts = Files.writeString(dir.resolve("hosts"), "h0\nh2\nh1\nh3\n");
        String[] common = {"predict", "allreduce", "-c", "dgx-h100x4", "-b", "1G", "-e", "1G", "--fabric",
            "fat-tree", "--oversubscription", "2:1", "--leaf-radix", "16", "--routing", "spray", "--placement",
            "hostfile:" + hosts, "--channels", "8"};
        CliRun flow = run(concat(common, "--backend", "flow"));
        CliRun links = run(concat(common, "--backend", "links"));
        assertEquals(0, flow.code(), flow.err());
        assertEquals(0, links.code(), links.err());
        double f = time(flow.out());
        double l = time(links.out());
        assertTrue(f >= 62 * 167.77216 && f <= 62 * (167.77216 + 5), "flow " + f);
        assertTrue(l >= 62 * 167.77216 - 0.01 && l <= 62 * (167.77216 + 5), "links " + l);
        assertTrue(flow.out().contains("busiest links leaf"), flow.out());
    }

    /**
     * Without any shared link (2 hosts, one ring channel), flow and links print the same table row. (NCCL's Tree
     * shares links even on one channel: a chain rank receives its child's reduce and its parent's broadcast at once.)
     */
    @Test
    void flowEqualsLinksWhereNothingIsShared() {
        CliRun flow = run("predict", "allreduce", "-c", "dgx-h100x2", "-b", "1M", "-e", "64M", "-f", "8", "--channels",
                "1", "--schedule", "ring", "--backend", "flow");
        CliRun links = run("predict", "allreduce", "-c", "dgx-h100x2", "-b", "1M", "-e", "64M", "-f", "8", "--channels",
                "1", "--schedule", "ring", "--backend", "links");
        assertEquals(0, flow.code(), flow.err());
        assertEquals(rows(links.out()), rows(flow.out()));
    }

    private static List<String> rows(String out) {
        return out.lines().filter(x -> !x.startsWith("#") && !x.isBlank()).toList();
    }

    @Test
    void shardsMergeToTheWholeSweep() throws IOException {
        String[] sweep = {"predict", "allgather", "-c", "dgx-h100x2", "-b", "1M", "-e", "8M", "-f", "2", "--backend",
            "flow", "--format", "csv"};
        CliRun whole = run(sweep);
        Path a = Files.writeString(dir.resolve("a.csv"), run(concat(sweep, "--shard", "0/2")).out());
        Path b = Files.writeString(dir.resolve("b.csv"), run(concat(sweep, "--shard", "1/2")).out());
        assertEquals(3, Files.readAllLines(a).size(), "header + sizes 1M, 4M");
        CliRun merged = run("merge", b.toString(), a.toString());
        assertEquals(0, merged.code(), merged.err());
        assertEquals(whole.out().strip(), merged.out().strip());
        CliRun dup = run("merge", a.toString(), a.toString(), b.toString());
        assertEquals(3, dup.code(), "a file given twice overlaps itself");
        assertTrue(dup.err().contains(a + ":2:1: size: size 1048576 also in " + a + " (the same row); shards must not"
                + " overlap"), dup.err());
        Path bad = Files.writeString(dir.resolve("c.csv"), Files.readString(a).replace("1048576,", "1048576,9,"));
        CliRun conflict = run("merge", a.toString(), bad.toString());
        assertEquals(3, conflict.code());
        assertTrue(conflict.err().contains("c.csv:2:1: size: size 1048576 also in"), conflict.err());
    }

    @Test
    void concurrentJobsReportSlowdownAndTimelineIsWritten() throws IOException {
        Path tl = dir.resolve("timeline.csv");
        CliRun r = run("predict", "allreduce", "-c", "dgx-h100x4", "--ranks", "16", "-b", "64M", "-e", "64M",
                "--backend", "flow", "--fabric", "fat-tree", "--oversubscription", "2:1", "--leaf-radix", "16",
                "--job", "name=other,coll=allreduce,size=64M,ranks=16", "--timeline", tl.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("job other start 0.00 us"), r.out());
        assertTrue(r.out().contains("slowdown"), r.out());
        List<String> lines = Files.readAllLines(tl);
        assertEquals(TimelineCsv.HEADER, lines.get(0));
        assertTrue(lines.stream().anyMatch(x -> x.contains(",other,")), "other job's flows are in the timeline");
    }

    @Test
    void badOptionsAreUsageErrorsAndBadHostfilesInputErrors() throws IOException {
        CliRun fabric = run("predict", "allreduce", "-c", "dgx-h100x2", "--backend", "flow", "--fabric", "torus");
        assertEquals(2, fabric.code());
        assertTrue(fabric.err().contains("unknown --fabric 'torus'; allowed: single-switch, fat-tree, rail-optimized"),
                fabric.err());
        CliRun shard = run("predict", "allreduce", "-c", "dgx-h100x2", "--backend", "flow", "--shard", "2/2");
        assertEquals(2, shard.code());
        assertTrue(shard.err().contains("use I/N with 0 <= I < N"), shard.err());
        Path hosts = Files.writeString(dir.resolve("bad-hosts"), "h0\nnode9 slots=2\n");
        CliRun hf = run("predict", "allreduce", "-c", "dgx-h100x2", "--backend", "flow", "--placement",
                "hostfile:" + hosts);
        assertEquals(3, hf.code());
        assertTrue(hf.err().contains("bad-hosts:2:1: host: unknown host 'node9'"), hf.err());
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
