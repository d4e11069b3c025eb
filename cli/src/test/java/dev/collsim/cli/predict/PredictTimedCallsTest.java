package dev.collsim.cli.predict;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.collsim.cli.CliRun;
import dev.collsim.simulator.HostLaunch;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code collsim predict} passes nccl-tests' {@code -n} (iters) and {@code -m} (agg_iters) to the host launch: nccl-tests
 * 2.19.6 {@code src/common.cu BenchTime} divides the elapsed time of {@code iters x agg_iters} back-to-back calls by
 * their count, so the first call's launch skew under {@code -g G} (G x {@link HostLaunch#HOST_PER_GPU_US}, at most
 * the kernel) is spread over that many calls (HostLaunch's class comment: one iteration reads {@code max + min / n}).
 */
class PredictTimedCallsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** @return the points of a {@code --format json} prediction of all_reduce on dgx-a100 at 1 KiB and 16 MiB */
    private static JsonNode points(String... flags) throws Exception {
        List<String> args = new ArrayList<>(List.of("predict", "-c", "dgx-a100", "all_reduce_perf", "-b", "1K", "-e",
                "16M", "-f", "16384", "--format", "json"));
        args.addAll(List.of(flags));
        CliRun r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        JsonNode points = JSON.readTree(r.out()).path("points");
        assertEquals(2, points.size(), r.out());
        return points;
    }

    /** @return time_us of the 1 KiB and the 16 MiB row */
    private static double[] times(String... flags) throws Exception {
        JsonNode p = points(flags);
        return new double[] {p.get(0).path("time_us").asDouble(), p.get(1).path("time_us").asDouble()};
    }

    private static String bottleneck(int row, String... flags) throws Exception {
        return points(flags).get(row).path("bottleneck").asText();
    }

    /**
     * By hand from HostLaunch's formula, host h = 8 x 4.4 = 35.2 us per iteration under -g 8:
     * <ul>
     *   <li>16 MiB, the GPUs behind (kernel K above h): time = K + h / n, so -n 2 less the default 20 iterations is
     *       h x (1/2 - 1/20) = 15.84 us whatever K is;</li>
     *   <li>1 KiB, the host behind (K below h): time = h + K / n; with K = 20 x (t20 - h) from the default run,
     *       -n 2 gives h + 10 x (t20 - h);</li>
     *   <li>-n 1 -m 2 is 2 timed calls too (nccl-tests divides by iters x agg_iters): the same as -n 2.</li>
     * </ul>
     */
    @Test
    void timedCallsSpreadTheFirstCallsLaunchSkew() throws Exception {
        double h = 8 * HostLaunch.HOST_PER_GPU_US;
        double[] dflt = times("-g", "8");
        double[] two = times("-g", "8", "-n", "2");
        // GPU-bound at 16 MiB: NCCL's Ring/LL128 there, held by Ampere's LL128 cap of 7.0 GB/s a channel on 24
        assertTrue(bottleneck(1, "-g", "8").startsWith("per-channel throughput: 24 channels x 7.0 GB/s"),
                "16 MiB is GPU-bound: " + bottleneck(1, "-g", "8"));
        assertTrue(bottleneck(0, "-g", "8").startsWith("host launch"), "1 KiB is host-bound");
        assertEquals(h * (1.0 / 2 - 1.0 / 20), two[1] - dflt[1], 1e-6);
        assertEquals(15.84, two[1] - dflt[1], 1e-6, "8 x 4.4 x (0.5 - 0.05)");
        assertEquals(h + 10 * (dflt[0] - h), two[0], 1e-6);
        assertTrue(two[0] > dflt[0] + 1, "fewer timed calls leave more of the skew in each: " + two[0]);
        double[] agg = times("-g", "8", "-n", "1", "-m", "2");
        assertEquals(two[0], agg[0], 1e-9);
        assertEquals(two[1], agg[1], 1e-9);
        assertEquals(dflt[1], times("-g", "8", "-n", "20", "-m", "1")[1], 1e-9, "nccl-tests' defaults");
    }

    /**
     * The host line names the timed calls; with one GPU per thread -n changes nothing (no skew charged) and says so;
     * -w stays ignored (nccl-tests runs its warm-up calls before BenchTime's timer starts).
     */
    @Test
    void notesNameTheTimedCalls() throws Exception {
        CliRun g8 = run("predict", "-c", "dgx-a100", "allreduce", "-b", "1K", "-e", "1K", "-g", "8", "-n", "5", "-m",
                "3", "-w", "2");
        assertEquals(0, g8.code(), g8.err());
        assertTrue(g8.out().contains("launch skew spread over 15 timed calls"), g8.out());
        assertTrue(g8.out().contains("# nccl-tests flags -w read and ignored"), g8.out());
        assertFalse(g8.out().contains("flags -n"), g8.out());
        CliRun plain = run("predict", "-c", "dgx-a100", "allreduce", "-b", "1K", "-e", "64M", "-f", "256");
        CliRun n2 = run("predict", "-c", "dgx-a100", "allreduce", "-b", "1K", "-e", "64M", "-f", "256", "-n", "2");
        assertEquals(rows(plain.out()), rows(n2.out()));
        assertTrue(n2.out().contains("nccl-tests -n x -m = 2 timed calls: read"), n2.out());
        // the links backend and a hierarchical composition charge no host launch: -n is one of the ignored flags
        CliRun links = run("predict", "-c", "dgx-a100", "allreduce", "-b", "1M", "-e", "1M", "--backend", "links",
                "-g", "8", "-n", "2");
        assertEquals(0, links.code(), links.err());
        assertTrue(links.out().contains("# nccl-tests flags -n read and ignored: a prediction has no iterations"),
                links.out());
        CliRun hier = run("predict", "-c", "dgx-a100x2", "allreduce", "-b", "1M", "-e", "1M", "--algo",
                "hier:rs-ar-ag", "-n", "2", "-m", "2", "-w", "3");
        assertEquals(0, hier.code(), hier.err());
        assertTrue(hier.out().contains("# nccl-tests flags -n -w -m read and ignored"), hier.out());
    }

    /**
     * -z above 0 (nccl-tests 2.19.6 {@code startColl}: each call's streams polled before the next call): by hand from
     * HostLaunch, a blocking call is its launches + {@link HostLaunch#BLOCKING_ROUND_TRIP_US} (3.3 us, measured:
     * data/device/h100-blocking*.txt) + the kernel K, where the default run with one GPU per process (8 ranks on
     * dgx-a100, K above the 4.4 us launch at both sizes) shows K itself:
     * <ul>
     *   <li>one GPU per process: 4.4 + 3.3 + K, 7.7 us above the default at 1 KiB and at 16 MiB;</li>
     *   <li>-g 8: 8 x 4.4 + 3.3 + K = 38.5 us + K, no first-call skew to spread (-n changes nothing).</li>
     * </ul>
     */
    @Test
    void blockingCallsPayTheirLaunchesBeforeTheKernel() throws Exception {
        double[] k = times();
        double[] z1 = times("-z", "1");
        double[] g8z = times("-g", "8", "-z", "2");
        for (int i = 0; i < 2; i++) {
            assertEquals(7.7, z1[i] - k[i], 1e-6);
            assertEquals(38.5 + k[i], g8z[i], 1e-6);
            assertEquals(g8z[i], times("-g", "8", "-z", "3", "-n", "2")[i], 1e-9);
        }
        assertEquals(k[0], times("-z", "0")[0], 1e-9, "-z 0 is nccl-tests' default");
        CliRun g8 = run("predict", "-c", "dgx-a100", "allreduce", "-b", "1K", "-e", "1K", "-g", "8", "-z", "1");
        assertEquals(0, g8.code(), g8.err());
        assertTrue(g8.out().contains("host launch: blocking calls (nccl-tests -z), 8 GPUs per thread"), g8.out());
        assertFalse(g8.out().contains("read and ignored"), g8.out());
        // the links backend charges no host launch: -z is one of the ignored flags there
        CliRun links = run("predict", "-c", "dgx-a100", "allreduce", "-b", "1M", "-e", "1M", "--backend", "links",
                "-z", "1");
        assertEquals(0, links.code(), links.err());
        assertTrue(links.out().contains("# nccl-tests flags -z read and ignored: a prediction has no iterations,"
                + " blocking,"), links.out());
    }

    /**
     * nccl-tests reads -n and -m with strtol and checks neither; BenchTime then divides by iters x agg_iters, so 0
     * gives no time and a negative count a negative one: refused, exit 2, naming the flag and what is allowed.
     */
    @Test
    void noTimedCallIsRefused() {
        for (String[] bad : List.of(new String[] {"-n", "0"}, new String[] {"-n", "-3"}, new String[] {"-m", "0"},
                new String[] {"--iters", "0"})) {
            CliRun r = run("predict", "allreduce", "-g", "8", bad[0], bad[1]);
            assertEquals(2, r.code(), String.join(" ", bad));
            String flag = bad[0].equals("-m") ? "-m (agg_iters) " : "-n (iters) ";
            assertTrue(r.err().contains("nccl-tests flag " + flag + bad[1] + ": nccl-tests would time no call"),
                    r.err());
            assertTrue(r.err().contains("allowed: a whole number >= 1"), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
        CliRun big = run("predict", "allreduce", "-n", "65536", "-m", "65536");
        assertEquals(2, big.code());
        assertTrue(big.err().contains("4294967296 timed calls"), big.err());
    }

    private static List<String> rows(String out) {
        return out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    }
}
