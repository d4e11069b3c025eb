package dev.collsim.cli.flow;

import static dev.collsim.cli.CliRun.run;
import static dev.collsim.cli.DocFigure.assertFigure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The figures docs/flow-backend.md quotes in prose and in its "NCCL's choice against the analytical backend" table,
 * which {@code DocsExamplesTest} does not run: the page's own commands are run and every analytical, flow,
 * flow-NVLSTree and bound figure (and each "(Ring)" mark) must be what they print, to the digits the page gives.
 * The measured column comes from a file, not a command, and is not checked here.
 */
class FlowDocFiguresTest {

    private static final Path PAGE = Path.of("..", "docs", "flow-backend.md");

    private static String page() throws IOException {
        return Files.readString(PAGE).replaceAll("\\s*\\n\\s*", " ");
    }

    /** Each table row: hosts, size, measured, analytical, flow, flow with --algo NVLSTree ("=": as flow), bound. */
    @Test
    void choiceTableIsWhatTheCommandsPrint() throws IOException {
        String text = page();
        Matcher cmd = Pattern.compile("`\\./collsim (predict allreduce -c dgx-h100xH [^`]*--backend flow)`, the same"
                + " with `--backend analytical`").matcher(text);
        assertTrue(cmd.find(), "the table's command in " + PAGE);
        Matcher row = Pattern.compile("(?m)^\\| ([0-9]+) \\| ([0-9]+) (MiB|GiB) \\| [0-9.]+ \\| ([0-9.]+)( \\(Ring\\))?"
                + " \\| ([0-9.]+)( \\(Ring\\))? \\| (=|[0-9.]+) \\| ([0-9.]+) \\|$").matcher(Files.readString(PAGE));
        Map<String, Map<Long, String[]>> runs = new HashMap<>();
        int rows = 0;
        while (row.find()) {
            String hosts = row.group(1);
            long bytes = Long.parseLong(row.group(2)) << (row.group(3).equals("MiB") ? 20 : 30);
            String flowCmd = cmd.group(1).replace("dgx-h100xH", "dgx-h100x" + hosts);
            String[] analytical = sizes(runs, flowCmd.replace("--backend flow", "--backend analytical")).get(bytes);
            String[] flow = sizes(runs, flowCmd).get(bytes);
            String where = row.group();
            assertFigure(row.group(4), analytical[7], where);
            assertEquals(row.group(5) != null, analytical[9].equals("Ring"), where + ": analytical " + analytical[9]);
            assertFigure(row.group(6), flow[7], where);
            assertEquals(row.group(7) != null, flow[9].equals("Ring"), where + ": flow " + flow[9]);
            String nvlsTree = sizes(runs, flowCmd + " --algo NVLSTree").get(bytes)[7];
            assertFigure(row.group(8).equals("=") ? row.group(6) : row.group(8), nvlsTree, where + " (NVLSTree)");
            assertFigure(row.group(9), analytical[13], where + " (bound)");
            rows++;
        }
        assertEquals(10, rows, "the table's 10 rows (2 and 4 hosts x 64 MiB .. 8 GiB) in " + PAGE);
        // the analytical NVLSTree figures quoted after the table
        Matcher quoted = Pattern.compile("\\(analytical with `--algo NVLSTree`: ([0-9.]+), ([0-9.]+), ([0-9.]+) at 1,"
                + " 4, 8 GiB; ([0-9.]+) at 256 MiB\\)").matcher(text);
        assertTrue(quoted.find(), "the analytical NVLSTree sentence of " + PAGE);
        Map<Long, String[]> tree = sizes(runs, cmd.group(1).replace("dgx-h100xH", "dgx-h100x4")
                .replace("--backend flow", "--backend analytical --algo NVLSTree"));
        long gib = 1L << 30;
        List<Long> at = List.of(gib, 4 * gib, 8 * gib, gib / 4);
        for (int i = 0; i < at.size(); i++) {
            assertFigure(quoted.group(i + 1), tree.get(at.get(i))[7], quoted.group());
        }
    }

    /** The 16-host sentence: flow busbw and time, analytical busbw, bound. */
    @Test
    void sixteenHostsSentence() throws IOException {
        Matcher m = Pattern.compile("`\\./collsim (predict allreduce -c dgx-h100x16 [^`]*--backend flow)`\\): flow"
                + " ([0-9.]+) GB/s busbw \\(([0-9,.]+) us\\), analytical ([0-9.]+), bound ([0-9]+\\.[0-9]+)")
                .matcher(page());
        assertTrue(m.find(), "the 16-host sentence of " + PAGE);
        String[] flow = rows(m.group(1)).get(0);
        String[] analytical = rows(m.group(1).replace("--backend flow", "--backend analytical")).get(0);
        assertFigure(m.group(2), flow[7], m.group());
        assertFigure(m.group(3).replace(",", ""), flow[5], m.group());
        assertFigure(m.group(4), analytical[7], m.group());
        assertFigure(m.group(5), analytical[13], m.group());
    }

    /**
     * "2 DGX H100 at 1 GiB, Ring, X GB/s against Y (sockets)", then "With GDR off ... to X' GB/s, under the bound's
     * Y'": the page's words as options (NCCL_ALGO Ring, --network socket, NCCL_NET_GDR_LEVEL=LOC); flow's busbw, the
     * bound, and the warning the page names where flow passes the bound (sockets) and not where it stays under it.
     */
    @Test
    void aboveTheBoundWithoutGdr() throws IOException {
        Matcher m = Pattern.compile("predict prints a `(Warning: busbw above the bound)` line: 2 DGX H100 at 1 GiB,"
                + " Ring, ([0-9.]+) GB/s\\s+against ([0-9.]+) \\(sockets\\); read the bound there\\. With GDR off"
                + " \\(`NCCL_NET_GDR_LEVEL=LOC`\\) flow follows NCCL's graph\\s+through the CPU \\(8 x 24 GB/s at PHB\\)"
                + " to ([0-9.]+) GB/s, under the bound's ([0-9]+\\.[0-9]+)").matcher(page());
        assertTrue(m.find(), "the above-the-bound sentence of " + PAGE);
        String ring = "predict allreduce -c dgx-h100x2 -b 1G -e 1G --backend flow --env NCCL_ALGO=Ring";
        for (String[] variant : List.of(new String[] {" --network socket", m.group(2), m.group(3), "true"},
                new String[] {" --env NCCL_NET_GDR_LEVEL=LOC", m.group(4), m.group(5), "false"})) {
            CliRun r = run((ring + variant[0]).split(" "));
            assertEquals(0, r.code(), r.err());
            assertEquals(Boolean.parseBoolean(variant[3]), (r.out() + r.err()).contains("# " + m.group(1)),
                    r.out());
            String[] row = r.out().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).findFirst().orElseThrow()
                    .trim().split("\\s+");
            assertFigure(variant[1], row[7], m.group() + variant[0]);
            assertFigure(variant[2], row[13], m.group() + variant[0]);
        }
    }

    private static Map<Long, String[]> sizes(Map<String, Map<Long, String[]>> runs, String command) {
        return runs.computeIfAbsent(command, c -> {
            Map<Long, String[]> bySize = new HashMap<>();
            rows(c).forEach(r -> bySize.put(Long.parseLong(r[0]), r));
            return bySize;
        });
    }

    private static List<String[]> rows(String command) {
        CliRun r = run(command.split(" "));
        assertEquals(0, r.code(), command + ": " + r.err());
        return r.out().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.trim().split("\\s+"))
                .toList();
    }

}
