package dev.collsim.cli.predict;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code collsim predict} in-process: exit codes, the nccl-tests table shape, CSV/JSON, errors. */
class PredictCommandTest {

    private static List<String> dataLines(String out) {
        return out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    }

    /** -b 8 -e 8G -f 2 gives 31 sizes (2^3 .. 2^33), as nccl-tests sweeps them. */
    @Test
    void sweepFollowsNcclTestsFlags() {
        CliRun r = run("predict", "all_reduce_perf", "-b", "8", "-e", "8G", "-f", "2");
        assertEquals(0, r.code(), r.err());
        List<String> rows = dataLines(r.out());
        assertEquals(31, rows.size());
        String[] first = rows.get(0).trim().split("\\s+");
        assertEquals("8", first[0]);
        assertEquals("2", first[1], "count = 8 B / 4 B per float");
        assertEquals("float", first[2]);
        assertEquals("sum", first[3]);
        assertEquals("-1", first[4]);
        assertEquals("N/A", first[8]);
        assertTrue(r.out().contains("#       size         count      type   redop    root"), r.out());
    }

    /**
     * nccl-tests 2.19.6 {@code src/common.cu parsesize} reads only the first letter of a suffix, so {@code -e 4GB} is
     * 4 GiB = 2^32 (sizes 2^30 .. 2^32 with -f 2: 3 rows); {@code -b 0 -f 2} would repeat size 0 for ever there and is
     * a usage error here.
     */
    @Test
    void sizesAreReadAsNcclTestsReadsThem() {
        CliRun r = run("predict", "allreduce", "-b", "1G", "-e", "4GB", "-f", "2");
        assertEquals(0, r.code(), r.err());
        List<String> rows = dataLines(r.out());
        assertEquals(3, rows.size());
        assertTrue(rows.get(2).trim().startsWith("4294967296 "), rows.get(2));
        CliRun zero = run("predict", "allreduce", "-b", "0", "-e", "16", "-f", "2");
        assertEquals(2, zero.code());
        assertTrue(zero.err().contains("-b > 0"), zero.err());
    }

    /**
     * The size column is nccl-tests' max(send, recv) bytes of the count it ran, not the requested size (nccl-tests
     * 2.19.6 {@code src/common.cu setupArgs}: count = size / wordSize; {@code src/all_gather.cu GetCollByteCount}:
     * per-rank count rounded down to a multiple of 16 bytes). By hand: all_reduce -b 7 float: count 7/4 = 1, size 4;
     * all_gather -b 1000 on 8 ranks: 250 elements / 8 = 31, down to a multiple of 4 floats = 28 per rank, size
     * 28 x 8 x 4 = 896, count column 28.
     */
    @Test
    void sizeColumnIsTheSizeNcclTestsRan() {
        CliRun ar = run("predict", "all_reduce", "-c", "dgx-h100", "-b", "7", "-e", "7");
        assertEquals(0, ar.code(), ar.err());
        String[] row = dataLines(ar.out()).get(0).trim().split("\\s+");
        assertEquals("4", row[0], ar.out());
        assertEquals("1", row[1]);
        CliRun ag = run("predict", "all_gather", "-c", "dgx-h100", "-b", "1000", "-e", "1000", "--format", "csv");
        assertEquals(0, ag.code(), ag.err());
        String data = ag.out().lines().filter(l -> l.matches("^[0-9].*")).findFirst().orElseThrow();
        assertTrue(data.startsWith("896,28,float,"), data);
    }

    /** -i: additive steps 1M, 2M, 3M. */
    @Test
    void additiveStep() {
        CliRun r = run("predict", "broadcast", "-b", "1M", "-e", "3M", "-i", "1M", "-c", "dgx-a100");
        assertEquals(0, r.code(), r.err());
        List<String> rows = dataLines(r.out());
        assertEquals(3, rows.size());
        assertTrue(rows.get(2).trim().startsWith("3145728"));
        assertTrue(rows.get(0).contains("     0 "), "broadcast prints root 0: " + rows.get(0));
    }

    @Test
    void jsonHasOnePointPerSizeWithBothEstimates() throws Exception {
        CliRun r = run("predict", "allgather", "-b", "1M", "-e", "4M", "-f", "2", "--format", "json", "--all-algorithms");
        assertEquals(0, r.code(), r.err());
        JsonNode root = new ObjectMapper().readTree(r.out());
        assertEquals(3, root.get("points").size());
        JsonNode p = root.get("points").get(0);
        assertTrue(p.get("nccl_estimate_us").asDouble() > 0);
        assertTrue(p.get("time_us").asDouble() > 0);
        assertTrue(p.get("candidates").size() >= 2);
    }

    @Test
    void csvHasHeaderAndRows() {
        CliRun r = run("predict", "alltoall", "-b", "1M", "-e", "1M", "--format", "csv", "-c", "dgx-h100x2");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).startsWith("size,count,type,redop,root,time_us,alg_bw,bus_bw,algorithm"));
        assertTrue(lines.get(1).contains(",p2p,"), lines.get(1));
        assertTrue(lines.get(1).contains(",-1.00000,"), "NCCL has no estimate for AllToAll: " + lines.get(1));
    }

    /**
     * The csv's bandwidth columns are GB/s, as --help says: nccl-tests' algbw = size / time, so 1048576 B over
     * time_us us is 1048576 / time_us / 1e3 GB/s (1 B/us = 1e6 B/s = 1e-3 GB/s); AllReduce busbw = algbw x 2 (8-1)/8
     * on the 8 GPUs of a DGX H100.
     */
    @Test
    void csvBandwidthsAreGigabytesPerSecond() {
        CliRun r = run("predict", "allreduce", "-b", "1M", "-e", "1M", "--format", "csv", "-c", "dgx-h100");
        assertEquals(0, r.code(), r.err());
        List<String> head = List.of(r.out().lines().findFirst().orElseThrow().split(","));
        String[] row = r.out().lines().skip(1).findFirst().orElseThrow().split(",");
        double us = Double.parseDouble(row[head.indexOf("time_us")]);
        double alg = Double.parseDouble(row[head.indexOf("alg_bw")]);
        assertEquals(1048576 / us / 1e3, alg, 1e-3 * alg);
        assertEquals(alg * 2 * 7 / 8, Double.parseDouble(row[head.indexOf("bus_bw")]), 1e-3 * alg);
        CliRun help = run("predict", "--help");
        assertTrue(help.out().replaceAll("\\s+", " ").contains("alg_bw, bus_bw and physical_bound_bus_bw in GB/s"),
                help.out());
    }

    @Test
    void badNcclValueIsAUsageErrorNamingTheVariable() {
        CliRun r = run("predict", "allreduce", "--env", "NCCL_NTHREADS=100");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("NCCL_NTHREADS") && r.err().contains("multiple of 32"), r.err());
        CliRun u = run("predict", "allreduce", "--env", "NCCL_FOO=1");
        assertEquals(2, u.code());
        assertTrue(u.err().contains("NCCL_FOO"), u.err());
    }

    /** Every shipped config (configs/index.txt) predicts; an unknown cluster is an input error (exit 3). */
    @Test
    void everyShippedConfigPredicts() throws Exception {
        for (String name : Files.readAllLines(Path.of("../configs/index.txt"))) {
            if (name.isBlank()) {
                continue;
            }
            CliRun r = run("predict", "allreduce", "-c", name.trim(), "-b", "1M", "-e", "1G", "-f", "1024");
            assertEquals(0, r.code(), name + ": " + r.err());
            assertEquals(2, dataLines(r.out()).size(), name);
        }
        assertEquals(2, run("predict", "allreduce", "-c", "dgx-z9000").code());
    }

    @Test
    void unknownCollectiveAndBadGpuCountAreUsageErrors() {
        assertEquals(2, run("predict", "allsum").code());
        assertEquals(2, run("predict", "allreduce", "-g", "9").code());
    }

    @Test
    void hierarchicalComposition() {
        CliRun r = run("predict", "allreduce", "-c", "dgx-h100x2", "-b", "1G", "-e", "1G", "--algo", "hier:rs-ar-ag");
        assertEquals(0, r.code(), r.err());
        assertTrue(dataLines(r.out()).get(0).contains("hier:rs-ar-ag"), r.out());
    }

    @Test
    void helpDocumentsEveryFlag() {
        CliRun r = run("predict", "--help");
        assertEquals(0, r.code());
        for (String flag : List.of("-c", "-b", "-e", "-f", "-i", "-d", "-o", "-r", "-g", "--ranks", "--nccl-version",
                "--env", "--algo", "--proto", "--all-algorithms", "--format", "--params")) {
            assertTrue(r.out().contains(flag), flag);
        }
        // nccl-tests 2.19.6 src/common.cu: -b 32M -e 32M -i 1M -f 1
        String help = r.out().replaceAll("\\s+", " ");
        assertTrue(help.contains("first size in bytes; K, M, G = 2^10, 2^20, 2^30 (default: 32M)"), help);
        assertTrue(help.contains("last size in bytes (default: 32M)"), help);
        assertTrue(help.contains("add SIZE each step when -f is 1 (default: 1M)"), help);
        assertTrue(help.contains("1 = use -i (default: 1)"), help);
    }

    /**
     * A pasted nccl-tests command line works: its timing and check flags ({@code src/common.cu}: -w -N -a -G -T -C
     * -t, and -c N the data check) change nothing in a prediction, are named in one note, and -c 1 is not read as a
     * cluster file; -n 20 -m 1 -z 0 are nccl-tests' defaults, used (PredictTimedCallsTest) and not named. A non-number
     * for -n is refused as nccl-tests' atoi would not silently accept it.
     */
    @Test
    void ncclTestsTimingAndCheckFlagsAreAcceptedAndNamed() {
        CliRun plain = run("predict", "all_reduce_perf", "-b", "8", "-e", "128M", "-f", "2", "-g", "8");
        CliRun pasted = run("predict", "all_reduce_perf", "-b", "8", "-e", "128M", "-f", "2", "-g", "8", "-n", "20",
                "-w", "5", "-c", "1", "-z", "0", "-G", "0", "-a", "1", "-m", "1", "-N", "1", "-T", "0", "-C", "0",
                "-t", "1");
        assertEquals(0, pasted.code(), pasted.err());
        assertEquals(dataLines(plain.out()), dataLines(pasted.out()));
        assertTrue(pasted.out().contains("# nccl-tests flags -w -N -a -G -T -C -c read and ignored"),
                pasted.out());
        assertTrue(!plain.out().contains("read and ignored"), plain.out());
        assertEquals(2, run("predict", "all_reduce", "-n", "x").code());
    }
}
