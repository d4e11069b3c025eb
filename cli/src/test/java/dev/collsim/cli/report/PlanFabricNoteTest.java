package dev.collsim.cli.report;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code collsim plan} times a 2:1 oversubscribed fat-tree no faster than its leaf uplinks allow, shared by the
 * concurrent DP groups, and names them as the bottleneck; the 1:1 twin keeps the host-NIC time; the last line says
 * what is still left out (link sharing above the leaf uplinks: a report variant with backend: flow).
 */
class PlanFabricNoteTest {

    private static final String CLUSTER = "schema: collsim/v1\nname: c16\nhosts: dgx-h100\ncount: 16\nfabric:\n"
            + "  kind: fat-tree\n  oversubscription: \"%s\"\n  leafRadix: 8\n  linkSpeed: 400 Gb/s\n";

    /**
     * By hand: tp 8 x pp 2 on 16 hosts leaves dp = 8; ZeRO-1 reduce-scatters the fp32 gradients of 70e9 / (8 x 2) =
     * 4.375e9 parameters = 17.5e9 B per call. Each of a host's 8 GPUs is in its own DP group of 8 ranks on 8 hosts,
     * and with leafRadix 8 a DGX H100 (8 NICs of 50 GB/s) fills its leaf. 2:1: every ring hop leaves the leaf through
     * 8 x 50 / 2 = 200 GB/s of uplink, shared by the 8 groups: 25 GB/s each, so busbw &lt;= 25 and a call takes
     * 7/8 x 17.5e9 / 25e9 s = 612,500 us. 1:1: 400 GB/s of uplink = the host's NICs; the host sends 8 x 7/8 x
     * 17.5e9 = 122.5e9 B through them: 306,250 us, the host-NIC floor, and the uplinks' share is the same 50 GB/s
     * a group: neither binds, the model's own time for one group (above 306,250) stands as before.
     */
    @Test
    void oversubscribedFabricPlansAtItsUplinksAndSaysSo(@TempDir Path dir) throws IOException {
        String[] one = plan(dir, "1:1");
        String[] two = plan(dir, "2:1");
        assertEquals(612_500.0, Double.parseDouble(two[0]), 0.05);
        assertTrue(two[2].startsWith("fabric leaf uplinks: busbw <= 25.0 GB/s (8 leaf groups, 25.0 GB/s of uplink"
                + " each), the share of each of 8 concurrent DP groups"), two[2]);
        double oneUs = Double.parseDouble(one[0]);
        assertTrue(oneUs > 306_250 && oneUs < 612_500, one[0]);
        assertTrue(!one[2].startsWith("fabric") && !one[2].startsWith("host NICs"), one[2]);
        assertTrue(two[1].startsWith("# model leaves out: ") && two[1].contains("link sharing above the leaf uplinks")
                && two[1].contains("backend: flow"), two[1]);
        assertTrue(two[1].contains("other jobs' traffic") && two[1].contains("data loading"), two[1]);
        // overlap 1 (default): headroom = (2/3 c - 612.50) + (1/3 c - 306.25) = c - 918.75 ms, c the printed compute
        assertEquals(Double.parseDouble(two[3]) - 918.75, Double.parseDouble(two[4]), 0.015);
    }

    /**
     * @return the ZeRO gradient ReduceScatter's us/call, the plan's last line, the row's bottleneck, compute and
     *         overlap headroom (ms)
     */
    private static String[] plan(Path dir, String ratio) throws IOException {
        Path file = dir.resolve("c16-" + ratio.replace(':', '-') + ".yaml");
        Files.writeString(file, String.format(CLUSTER, ratio));
        CliRun plan = run("plan", "-c", file.toString(), "--params", "70B", "--tp", "8", "--pp", "2", "--zero", "1",
                "--sequence-parallel", "--global-batch", "128", "--calibration", "none");
        assertEquals(0, plan.code(), plan.err());
        String row = plan.out().lines().filter(l -> l.trim().startsWith("ZeRO gradient ReduceScatter")).findFirst()
                .orElseThrow();
        String[] f = row.trim().split("\\s+");
        assertEquals("16.3G", f[6], row);
        String last = plan.out().lines().reduce((a, b) -> b).orElseThrow();
        return new String[] {f[8], last, row.substring(row.indexOf(f[11]) + f[11].length()).trim(),
            figure(plan.out(), "compute"), figure(plan.out(), "overlap headroom")};
    }

    /** @return the number after a summary line's label, e.g. {@code 2252.86} of {@code "  compute   2252.86 ms"} */
    private static String figure(String out, String label) {
        String line = out.lines().filter(l -> l.startsWith("  " + label + " ")).findFirst().orElseThrow();
        return line.substring(label.length() + 2).trim().split("\\s+")[0];
    }
}
