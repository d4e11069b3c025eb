package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Real files that were refused or misread: sendrecv tables with nccl-tests 2.19.6's {@code sum -1} columns, the
 * {@code # collsim settings:} line before each table of the executor's settings sweeps, and rank lines whose middle
 * a vendor elided.
 */
class RealFormatsTest {

    private static final Path DEVICE = Path.of("../data/device");

    /**
     * nccl-tests 2.19.6's own sendrecv_perf on one H200 prints redop 'sum', root -1 and in-place #wrong N/A; the file
     * has 14 rows (8 B .. 1 GiB, x4), counted by hand.
     */
    @Test
    void ncclTestsSendrecvWithRedopColumns() throws Exception {
        for (String f : List.of("h200-nccl-tests-sendrecv.txt", "h200-collsim-sendrecv.txt")) {
            List<Dataset> ds = MeasurementReader.read(DEVICE.resolve(f));
            assertEquals(1, ds.size(), f);
            assertEquals(Collective.SEND_RECV, ds.get(0).collective(), f);
            assertEquals(1, ds.get(0).nRanks(), f);
            assertEquals(14, ds.get(0).points().size(), f);
        }
    }

    /**
     * nccl-tests before 2.13.4 print rank lines without a Group and with the PCI bus number alone
     * ({@code src/common.cu} of v2.0.0 to v2.13.3: {@code "#   Rank %2d Pid %6d on %10s device %2d [0x%02x] %s"}),
     * a float {@code error} column instead of {@code #wrong}, and (before 2.16.7) no 'Collective test starting'
     * line; the table header below is v2.0.0 {@code src/all_reduce.cu}'s. Every rank line is read (rank, group 0, pid,
     * host, device, bus, GPU name as printed), and the collective read from the columns is said as a reading, not
     * as a contradiction (no claim to contradict).
     */
    @Test
    void ncclTestsBeforeGroupsAndWrongCounts() throws Exception {
        StringBuilder t = new StringBuilder("# nThread 1 nGpus 4 minBytes 8 maxBytes 1048576 step: 2(factor) warmup"
                + " iters: 5 iters: 20 validation: 1 \n#\n# Using devices\n");
        int[] bus = {0x06, 0x07, 0x0a, 0x0b};
        for (int r = 0; r < 4; r++) {
            t.append(String.format("#   Rank %2d Pid %6d on %10s device %2d [0x%02x] %s%n", r, 4242, "dgx1", r, bus[r],
                    "Tesla V100-SXM2-32GB"));
        }
        t.append("#\n#                                                     out-of-place                       in-place\n")
                .append("#       size         count    type   redop     time   algbw   busbw  error     time   algbw"
                        + "   busbw  error\n")
                .append("#        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  (GB/s)"
                        + "  (GB/s)\n")
                .append("           8             2   float     sum    39.04    0.00    0.00  1e-07    38.72    0.00"
                        + "    0.00  1e-07\n")
                .append("     1048576        262144   float     sum    62.38   16.81   25.22  2e-07    61.73   16.99"
                        + "   25.48  2e-07\n")
                .append("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 12.675 \n#\n");
        Dataset d = MeasurementReader.read("old.txt", t.toString()).get(0);
        assertEquals(4, d.ranks().size());
        RankInfo r2 = d.ranks().get(2);
        assertEquals(List.of(2, 0, 4242L, "dgx1", 2, "0x0a", "Tesla V100-SXM2-32GB"),
                List.of(r2.rank(), r2.group(), r2.pid(), r2.host(), r2.device(), r2.busId(), r2.gpuModel()));
        assertEquals(Collective.ALL_REDUCE, d.collective());
        assertEquals(2, d.points().size());
        assertTrue(d.notes().stream().anyMatch(n -> n.text().startsWith(Note.NAMES_NO_COLLECTIVE)), d.notes()
                .toString());
        assertTrue(d.notes().stream().noneMatch(n -> n.text().contains("the file claims")), d.notes().toString());
    }

    /**
     * nccl-tests v2.10.0's all_gather prints no redop or root column ({@code src/all_gather.cu}: "size count type",
     * the count per rank, the size the whole buffer) and its broadcast a root instead of a redop ({@code
     * src/broadcast.cu}: "size count type root"); with no line naming the collective, the columns decide: 8 ranks,
     * size = 8 x count x 4 B is all_gather; root 0 with size = count x 4 B is broadcast.
     */
    @Test
    void oldTablesWithoutRedopColumns() throws Exception {
        StringBuilder ranks = new StringBuilder("# nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor)"
                + " warmup iters: 5 iters: 20 validation: 1 \n#\n# Using devices\n");
        for (int r = 0; r < 8; r++) {
            ranks.append(String.format("#   Rank %2d Pid %6d on %10s device %2d [0x%02x] %s%n", r, 77, "dgx1", r,
                    0x1a + r, "Tesla V100-SXM2-32GB"));
        }
        String ag = ranks + "#\n#       size         count      type     time   algbw   busbw  error     time   algbw"
                + "   busbw  error\n     1048576         32768     float    60.12   17.44   15.26  0e+00    58.10   18.05"
                + "   15.79  0e+00\n     4194304        131072     float   120.30   34.87   30.51  0e+00   119.80   35.01"
                + "   30.63  0e+00\n# Avg bus bandwidth    : 23.0\n";
        String bc = ranks + "#\n#       size         count      type   root     time   algbw   busbw  error     time"
                + "   algbw   busbw  error\n     1048576        262144     float      0    60.12   17.44   17.44  0e+00"
                + "    58.10   18.05   18.05  0e+00\n     4194304       1048576     float      0   120.30   34.87   34.87"
                + "  0e+00   119.80   35.01   35.01  0e+00\n# Avg bus bandwidth    : 26.0\n";
        assertEquals(Collective.ALL_GATHER, MeasurementReader.read("ag.txt", ag).get(0).collective());
        assertEquals(Collective.BROADCAST, MeasurementReader.read("bc.txt", bc).get(0).collective());
    }

    /**
     * The 2x2 DGX H100 file read as {@code kubectl logs --timestamps} (RFC 3339 with nanoseconds and Z), a
     * bracketed local time stamp and {@code mpirun --tag-output} print it, one prefix before every line (so the file
     * opens with '[' in two cases, and is still not JSON): the same ranks, sizes and times as the file itself (its 31
     * rows, 8 B .. 8 GiB).
     */
    @Test
    void timeStampedLinesReadAsTheFileItself() throws Exception {
        Path src = Path.of("src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt");
        List<String> lines = Files.readAllLines(src).stream().filter(l -> !l.startsWith("#@")).toList();
        Dataset plain = MeasurementReader.read("plain.txt", String.join("\n", lines)).get(0);
        assertEquals(31, plain.points().size());
        for (String stamp : List.of("2024-05-01T12:00:00.123456789Z ", "[2024-05-01 12:00:00,042] ",
                "[1,0]<stdout>:")) {
            String text = lines.stream().map(l -> stamp + l).collect(Collectors.joining("\n"));
            Dataset d = MeasurementReader.read("stamped.txt", text).get(0);
            assertEquals(plain.nRanks(), d.nRanks(), stamp);
            assertEquals(plain.points().stream().map(p -> p.sizeBytes() + "=" + p.primary().timeUs()).toList(),
                    d.points().stream().map(p -> p.sizeBytes() + "=" + p.primary().timeUs()).toList(), stamp);
        }
    }

    /** An all_reduce table (in-place #wrong checked) with the same columns stays all_reduce. */
    @Test
    void allReduceWithTheSameColumnsStaysAllReduce() throws Exception {
        Dataset d = MeasurementReader.read(DEVICE.resolve("h200-nccl-tests-all_reduce.txt")).get(0);
        assertEquals(Collective.ALL_REDUCE, d.collective());
    }

    /**
     * The executor's NCCL_MAX_NCHANNELS sweep on 2 H200s: four tables, each after a line
     * {@code # collsim settings: NCCL_MAX_NCHANNELS=n} with n = 2, 4, 8, 16 (lines 1, 35, 69, 103).
     */
    @Test
    void collsimSettingsLinesApplyToTheirTable() throws Exception {
        List<Dataset> ds = MeasurementReader.read(DEVICE.resolve("h200x2-2026-11-29/collsim-sweep-NCCL_MAX_NCHANNELS.txt"));
        List<String> got = new ArrayList<>();
        for (Dataset d : ds) {
            got.add(d.env().get("NCCL_MAX_NCHANNELS"));
        }
        assertEquals(List.of("2", "4", "8", "16"), got);
    }

    /**
     * GKE A4 all_gather, run 1: 16 rank lines on node01 (devices 0-7) and node02 (devices 0-7). With Rank 2 .. Rank 13
     * replaced by one '...' line (as vendors print long runs), the file still stands for 16 ranks (last index 15) on
     * 2 hosts (node02's device 7 is listed: 8 ranks a host; 16 / 8 = 2).
     */
    @Test
    void elidedRankLinesKeepRanksAndHosts() throws Exception {
        Path src = Path.of("src/test/resources/data/A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt");
        List<String> lines = Files.readAllLines(src);
        List<String> elided = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            int no = i + 1;
            if (no == 16) {
                elided.add("#  ...");
            }
            if (no < 16 || no > 27) {
                elided.add(lines.get(i));
            }
        }
        Dataset full = MeasurementReader.read("full.txt", String.join("\n", lines)).get(0);
        Dataset cut = MeasurementReader.read("elided.txt", String.join("\n", elided)).get(0);
        assertEquals(16, full.nRanks());
        assertEquals(2, full.nHosts());
        assertEquals(16, cut.nRanks());
        assertEquals(2, cut.nHosts());
        assertTrue(cut.notes().stream().anyMatch(n -> n.text().contains("rank lines elided: 4 listed")), cut.notes()::toString);
    }

    /**
     * SkyPilot prints a job-log prefix before each line of a multi-node job's output ({@code "(head, rank=0,
     * pid=3808) [1,0]<stdout>:"} before mpirun's own tag). The A3 Ultra file's run 1 carries it on every line: read
     * with it, the run has 16 ranks on 2 hosts and 24 sizes (1 KiB .. 8 GiB, x2, counted by hand), all_gather (redop 'none',
     * busbw = algbw x 15/16), and its 8 GiB out-of-place time is 24724 us (file line 60);
     * run 2, the same system without the prefix, reads the same shape.
     */
    @Test
    void skyPilotJobLogPrefixIsStripped() throws Exception {
        Path src = Path.of("src/test/resources/data/A-allgather-2x8xH200-gcp-a3ultra-gke-gib-skypilot-nccl2.26.txt");
        List<Dataset> ds = MeasurementReader.read(src);
        assertEquals(2, ds.size());
        for (Dataset d : ds) {
            assertEquals(Collective.ALL_GATHER, d.collective(), d.label());
            assertEquals(16, d.nRanks(), d.label());
            assertEquals(2, d.nHosts(), d.label());
            assertEquals(24, d.points().size(), d.label());
        }
        PerfPoint last = ds.get(0).points().get(23);
        assertEquals(8589934592L, last.row().size());
        assertEquals(24724.0, last.row().outOfPlace().timeUs(), 1e-9);
        assertEquals(60, last.line());
        assertEquals("#  Rank  0 Group  0 Pid   7774 on nc-d87e1263-head device  0 [0000:8f:00] NVIDIA H200",
                LinePrefixes.strip("(head, rank=0, pid=3808) [1,0]<stdout>:#  Rank  0 Group  0 Pid   7774 on "
                        + "nc-d87e1263-head device  0 [0000:8f:00] NVIDIA H200"));
        assertEquals("(head) not a job prefix", LinePrefixes.strip("(head) not a job prefix"));
    }

    /**
     * dstack's cluster guides (github.com/dstackai/dstack examples/clusters/nebius/README.md, commit 107fefef) print
     * nccl-tests' table with the leading '#' of its comment lines dropped by the console block; nccl-tests 2.17.6
     * src/util.cu prints them with '#'. Counted by hand in the file: one all_reduce run, 31 sizes from 8 B to 8 GiB
     * (lines 15-45), 16 ranks on 2 hosts from the header's nodes_x_gpus '2x8'; the 8 GiB row (line 45) is 34448.4 us
     * out of place. The A3 High guide's table (all_gather, redop none) reads as 11 sizes, 8 MiB to 8 GiB.
     */
    @Test
    void consoleBlockWithoutHashReads() throws Exception {
        List<Dataset> ds = MeasurementReader.read(
                Path.of("src/test/resources/data/A-allreduce-2x8xH100-nebius-ib-dstack-docs.txt"));
        assertEquals(1, ds.size());
        Dataset d = ds.get(0);
        assertEquals(Collective.ALL_REDUCE, d.collective());
        assertEquals(16, d.nRanks());
        assertEquals(2, d.nHosts());
        assertEquals(31, d.points().size());
        PerfPoint last = d.points().get(30);
        assertEquals(8589934592L, last.row().size());
        assertEquals(34448.4, last.row().outOfPlace().timeUs(), 1e-9);
        assertEquals(45, last.line());
        List<Dataset> ag = MeasurementReader.read(
                Path.of("src/test/resources/data/A-allgather-2x8xH100-gcp-a3high-tcpx-dstack.txt"));
        assertEquals(1, ag.size());
        assertEquals(Collective.ALL_GATHER, ag.get(0).collective());
        assertEquals(11, ag.get(0).points().size());
        assertEquals("# size   count   type   redop", LinePrefixes.strip("        size   count   type   redop"));
        assertEquals("# (B)    (elements)", LinePrefixes.strip("        (B)    (elements)"));
        assertEquals("     8388608   2097152", LinePrefixes.strip("     8388608   2097152"));
        assertEquals("a size count type note", LinePrefixes.strip("a size count type note"));
    }
}
