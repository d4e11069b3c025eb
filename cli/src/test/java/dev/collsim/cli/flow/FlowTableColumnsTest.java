package dev.collsim.cli.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code bound} and {@code links} columns and the footer of {@code collsim predict --backend flow}. */
class FlowTableColumnsTest {

    private static List<String> row(String out) {
        String r = out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).findFirst().orElseThrow();
        return List.of(r.trim().split("\\s+"));
    }

    private static String footer(String out) {
        return out.lines().filter(l -> l.startsWith("# Simulated by collsim") || l.startsWith("# Predicted by"))
                .findFirst().orElseThrow();
    }

    /**
     * AllToAll on 4 DGX H100 (n = 32 ranks, q = 8 per node, N = 8 x 400 Gb/s = 400 GB/s of NICs per node): the
     * physical bound is N (n-1) / (q (n-q)) = 400 x 31 / (8 x 24) = 64.58 GB/s (PhysicalBound's javadoc). The flow
     * table's bound is that number, the analytical table's too; the links column is the links backend's busbw but
     * never above the bound: alone on its route each transfer would reach far more, which the 8 NICs of a host cannot
     * carry for all its 8 GPUs at once, so the links backend bounds each step by its busiest link and stays within it
     * (its step-by-step schedule leaves the NICs idle part of the time: about 50 GB/s, not the bound).
     */
    @Test
    void boundIsThePhysicalBoundAndLinksTheLinksBackendsBusBw() {
        String[] common = {"predict", "alltoall", "-c", "dgx-h100x4", "-b", "64M", "-e", "64M"};
        CliRun flow = CliRun.run(with(common, "--backend", "flow"));
        CliRun analytical = CliRun.run(common);
        CliRun links = CliRun.run(with(common, "--backend", "links"));
        assertEquals(0, flow.code(), flow.err());
        assertEquals("64.58", row(flow.out()).get(13));
        assertEquals("64.58", row(analytical.out()).get(13));
        assertTrue(Double.parseDouble(row(links.out()).get(7)) <= 64.58, "busiest links bound it: " + links.out());
        assertEquals(row(links.out()).get(7), row(flow.out()).get(14), "links column = the links backend's busbw");
        assertTrue(flow.out().contains("  bound      links"), flow.out());
        assertTrue(Double.parseDouble(row(flow.out()).get(7)) <= 64.58, "flow busbw within the bound");
        assertTrue(footer(flow.out()).contains("links is the links backend's busbw (each transfer alone on its route,"
                + " no link over its capacity), at most the bound"), flow.out());
        assertTrue(footer(flow.out()).contains("Not modelled: congestion from other jobs (add --job)"), flow.out());
    }

    /**
     * With {@code --fail} the footer no longer says "nothing failed": the bound column still ignores failures. On 2 DGX
     * H100 (8 x 400 Gb/s = 400 GB/s of NICs per host, 16 ranks) an AllReduce host moves at least S out and S in, so
     * busbw &lt;= 2 x 15/16 x 400 = 750.00 GB/s with leaf0 (rail 0's switch) failed or not.
     */
    @Test
    void theFooterSaysTheBoundCountsFailedLinksAsWorking() {
        String[] common = {"predict", "allreduce", "-c", "dgx-h100x2", "-b", "1G", "-e", "1G", "--backend", "flow"};
        CliRun failed = CliRun.run(with(common, "--fail", "leaf0"));
        assertEquals(0, failed.code(), failed.err());
        assertEquals("750.00", row(failed.out()).get(13));
        assertTrue(footer(failed.out()).contains("(oversubscription counted, ECMP collisions not, the failed links and"
                + " devices counted as working)"), failed.out());
        assertFalse(footer(failed.out()).contains("nothing failed"), failed.out());
        assertTrue(footer(CliRun.run(common).out()).contains("ECMP collisions not, nothing failed)"));
    }

    /**
     * By default the flow backend simulates NCCL's choice: at every size its algo, proto and nch columns are the
     * analytical table's (NCCL's model) for the same point, and the header says so; {@code --schedule ring} replaces
     * the algorithm (no protocol then) and, without {@code --channels}, gives one channel per NIC (8 on a DGX H100).
     */
    @Test
    void defaultSimulatesNcclsChoiceAndScheduleReplacesIt() {
        String[] common = {"predict", "allreduce", "-c", "dgx-h100x4", "-b", "64M", "-e", "1G", "-f", "4"};
        CliRun analytical = CliRun.run(common);
        CliRun flow = CliRun.run(with(common, "--backend", "flow"));
        assertEquals(0, flow.code(), flow.err());
        List<String> a = analytical.out().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        List<String> f = flow.out().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        assertEquals(3, a.size());
        assertEquals(a.size(), f.size());
        for (int i = 0; i < a.size(); i++) {
            List<String> ar = List.of(a.get(i).trim().split("\\s+"));
            List<String> fr = List.of(f.get(i).trim().split("\\s+"));
            assertEquals(ar.subList(9, 12), fr.subList(9, 12), "algo, proto, nch at " + ar.get(0));
        }
        assertTrue(flow.out().contains("(NCCL's choice: "), flow.out());
        CliRun ring = CliRun.run(with(common, "--backend", "flow", "--schedule", "ring"));
        assertTrue(ring.out().contains("# Schedule: Ring, 8 channels (schedule given)"), ring.out());
        assertTrue(ring.out().lines().filter(l -> !l.startsWith("#") && !l.isBlank())
                .allMatch(l -> l.contains(" Ring      -         8 ")), ring.out());
    }

    /**
     * Ring AllReduce on 4 DGX H100 (n = 32 ranks, 8 per host, N = 8 x 400 Gb/s = 400 GB/s of NICs per host): a ring
     * enters and leaves every host once per channel, so each host sends 2 (n-1)/n S over its NICs and busbw =
     * 2 (n-1)/n S / t <= N = 400 GB/s (nccl-tests 2.19.6 doc/PERFORMANCE.md's busbw; PhysicalBound#nodeNicBytes
     * with k = n). Alone on its route each of a NIC's channels would see the whole NIC (the links backend alone
     * said 516.67, the all-algorithm bound N m/(m-1) (n-1)/n = 400 x 4/3 x 31/32); the links column must not.
     */
    @Test
    void ringLinksColumnStaysWithinTheHostsNics() {
        CliRun flow = CliRun.run("predict", "allreduce", "-c", "dgx-h100x4", "-b", "1G", "-e", "1G", "--backend",
                "flow", "--schedule", "ring");
        assertEquals(0, flow.code(), flow.err());
        List<String> r = row(flow.out());
        assertEquals("516.67", r.get(13));
        assertTrue(Double.parseDouble(r.get(14)) <= 400.0, "links column within the ring's NIC bound: " + r);
        assertTrue(Double.parseDouble(r.get(7)) <= Double.parseDouble(r.get(14)) * (1 + 1e-3), r.toString());
    }

    @Test
    void footerSaysOnlyJobsNotGivenAreMissing() {
        CliRun r = CliRun.run("predict", "allreduce", "-c", "dgx-h100x2", "--ranks", "8",
                "-b", "1M", "-e", "1M", "--backend", "flow", "--job", "coll=allreduce,size=1M,ranks=8");
        assertEquals(0, r.code(), r.err());
        assertFalse(footer(r.out()).contains("congestion from other jobs"), r.out());
        assertTrue(footer(r.out()).contains("Not modelled: jobs other than the --job ones"), r.out());
    }

    @Test
    void csvAndJsonCarryTheLinksColumn() {
        String[] common = {"predict", "allgather", "-c", "dgx-h100x2", "-b", "1M", "-e", "1M", "--backend", "flow"};
        String csv = CliRun.run(with(common, "--format", "csv")).out();
        assertTrue(csv.lines().findFirst().orElseThrow().endsWith(",physical_bound_bus_bw,chosen,bottleneck,"
                + "links_bus_bw,note"), csv);
        assertTrue(CliRun.run(with(common, "--format", "json")).out().contains("\"links_bus_bw\""));
    }

    private static String[] with(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * 4 DGX H100 have 4 x 8 = 32 compute NICs: with the default 32 ports per leaf they fill one leaf, so a 2:1
     * fat-tree has no spine and the ratio changes nothing (warned); with 16 ports per leaf there are 2 leaves and
     * spines, and no warning.
     */
    @Test
    void oversubscriptionWithoutSpinesIsWarned() {
        String[] common = {"predict", "allreduce", "-c", "dgx-h100x4", "-b", "1M", "-e", "1M", "--backend", "flow",
            "--fabric", "fat-tree", "--oversubscription", "2:1"};
        CliRun one = CliRun.run(common);
        assertEquals(0, one.code(), one.err());
        assertTrue(one.out().contains("# Warning: --oversubscription 2:1 has no effect: the fat-tree fabric has 1 leaf"
                + " switch and no spines (--leaf-radix 32 holds every host's NICs)"), one.out());
        CliRun two = CliRun.run(with(common, "--leaf-radix", "16"));
        assertFalse(two.out().contains("Warning"), two.out());
    }
}
