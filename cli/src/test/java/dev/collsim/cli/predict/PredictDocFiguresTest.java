package dev.collsim.cli.predict;

import static dev.collsim.cli.CliRun.run;
import static dev.collsim.cli.DocFigure.assertFigure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The figures docs/predict.md quotes in its prose, which {@code DocsExamplesTest} does not run because they are not
 * {@code $ ./collsim} blocks: every sentence of the form {@code `./collsim predict ...` gives|predicts X us|GB/s} is
 * run as the page writes it and X must be the first row's time (us) or busbw (GB/s) as printed, to the digits the
 * page gives; the figures the page quotes for a variant of such a command (another option, another size) are run
 * with that variant. (The page held four figures the commands no longer printed.)
 */
class PredictDocFiguresTest {

    private static final Path PAGE = Path.of("..", "docs", "predict.md");

    /** `./collsim predict ...` [(remark)] gives|predicts X us|GB/s: command, figure, unit. */
    private static final Pattern GIVES = Pattern.compile(
            "`\\./collsim (predict [^`]*)`(?: \\([^)]*\\))? (?:gives|predicts) ([0-9.]+) (us|GB/s)");

    private static String page() throws IOException {
        return Files.readString(PAGE).replaceAll("\\s*\\n\\s*", " ");
    }

    /** Every "gives X" sentence of the page; the page has at least the nine counted here by hand. */
    @Test
    void everyGivesSentencePrintsItsFigure() throws IOException {
        Matcher m = GIVES.matcher(page());
        int found = 0;
        while (m.find()) {
            String[] row = firstRow(m.group(1));
            assertFigure(m.group(2), row[m.group(3).equals("us") ? 5 : 7], m.group());
            found++;
        }
        // dgx-a100 -g 8, BUFFSIZE, P2P chunk, a4x ring crossings, nvl72 alltoall, GDR LOC, tcpxo; mpirun prints a
        // header line and the machine file predicts several words (both below)
        assertTrue(found >= 7, "found " + found + " 'gives' sentences in " + PAGE);
    }

    /** The figures quoted next to a "gives" sentence for a variant of its command. */
    @Test
    void variantsPrintTheirFigures() throws IOException {
        String page = page();
        variant(page, "-g 8` predicts [0-9.]+ us \\([^)]*\\), `--nprocs 8 -g 1` ([0-9.]+) us", 5,
                "predict -c dgx-a100 allreduce -b 1K -e 1K --nprocs 8 -g 1");
        variant(page, "gives [0-9.]+ GB/s busbw \\(16 channels.*? against ([0-9.]+) with the default 4 MiB", 7,
                "predict allreduce -c dgx-h100x2 -b 1G -e 1G --env NCCL_ALGO=Ring --env NCCL_PROTO=Simple");
        variant(page, "LOC` gives [0-9.]+ GB/s busbw against ([0-9.]+) by default", 7,
                "predict allreduce -c dgx-h100x2 -b 1G -e 1G --env NCCL_ALGO=Ring");
        variant(page, "\\(4 channels x 8 x 16 KiB / 20 us\\), the default chunk ([0-9.]+)", 7,
                "predict sendrecv -c dgx-h100x2 -b 1G -e 1G");
        variant(page, "\\(2 kernels\\) and ([0-9.]+) us with `--env NCCL_WORK_FIFO_BYTES=0`", 5,
                "predict alltoall -c gb200-nvl72 --ranks=64 --nccl-version=2.27 -b 4G -e 4G"
                        + " --env NCCL_WORK_FIFO_BYTES=0");
        variant(page, "`-g 8 -z 1` at 1 KiB on `dgx-a100` predicts 8 x 4\\.4 \\+ 3\\.3 \\+ 24\\.07 = ([0-9.]+) us", 5,
                "predict -c dgx-a100 allreduce -b 1K -e 1K -g 8 -z 1");
        variant(page, "`--network slingshot` gives the same ([0-9.]+) us as InfiniBand", 5,
                "predict allreduce -c dgx-h100x2 -b 8 -e 8 --network slingshot");
        variant(page, "more than the ([0-9.]+) of InfiniBand", 5, "predict allreduce -c dgx-h100x2 -b 8 -e 8");
        variant(page, "NCCL_P2P_READ_ENABLE=0` gives [0-9.]+ us against ([0-9.]+) by default", 5,
                "predict allreduce -c dgx-a100 -b 512M -e 512M --env NCCL_ALGO=Ring --env NCCL_PROTO=Simple");
        variant(page, "NCCL_P2P_READ_ENABLE=1` gives [0-9.]+ us against ([0-9.]+) by default", 5,
                "predict allreduce -c dgx-h100 -b 512M -e 512M --env NCCL_ALGO=Ring --env NCCL_PROTO=Simple");
    }

    /**
     * The figures of the proxy-posting and GDR paragraphs, each quoted for a command the page names in words: a forced
     * Ring/Simple AllReduce on 2 DGX H100 at 512 KiB, 16 MiB (16 channels) and 64 B (1 channel, with NCCL's estimate),
     * on 8 channels at 16 MiB, and NVLSTree at 1 GiB with GDR off and by default. (The page said 360 us from 64 B,
     * where one channel prints the slot cycle's 300, and 354.65 us with {@code --channels 8}, which the analytical
     * backend refuses; NVLSTree's 433.99 and 444.24 were no longer printed.)
     */
    @Test
    void proxyPostingAndGdrFiguresArePrinted() throws IOException {
        String page = page();
        String ring = "predict allreduce -c dgx-h100x2 --env NCCL_ALGO=Ring --env NCCL_PROTO=Simple ";
        variant(page, "it costs 2 x 60 x 3 us = ([0-9.]+) us from 512 KiB", 5, ring + "-b 512K -e 512K");
        variant(page, "= ([0-9.]+) us from 512 KiB to 16 MiB, where NCCL gives it 16 channels", 5,
                ring + "-b 16M -e 16M");
        // the same sentence's figure at 16 MiB, read again for the 16 channels it names
        assertEquals("16", firstRow(ring + "-b 16M -e 16M")[11]);
        variant(page, "the slot cycle alone binds: ([0-9.]+) us", 5, ring + "-b 64 -e 64");
        variant(page, "estimate \\(([0-9.]+) us at 64 B\\)", 12, ring + "-b 64 -e 64");
        variant(page, "`--env NCCL_MAX_NCHANNELS=8`, 1 connection per rank\\) take ([0-9.]+) us at 16 MiB", 5,
                ring + "-b 16M -e 16M --env NCCL_MAX_NCHANNELS=8");
        // the empty call's row: collsim's per-call overhead alone (PerformanceParameters launchOverheadUs)
        variant(page, "\\(`launchOverheadUs`, ([0-9.]+) us by default\\)", 5,
                "predict allreduce -c dgx-h100 -b 0 -e 0 --calibration none");
        // the socket class's bound column (size-independent: the streams' and the staged paths' rates)
        variant(page, "on `-c dgx-h100x2 --network socket` ([0-9.]+) GB/s", 13,
                "predict allreduce -c dgx-h100x2 --network socket -b 1G -e 1G");
        variant(page, "128 streams' [0-9.]+; Ring alone ([0-9.]+)\\)", 13,
                "predict allreduce -c dgx-h100x2 --network socket -b 1G -e 1G --env NCCL_ALGO=Ring");
        String gdr = "predict allreduce -c dgx-h100x2 -b 1G -e 1G";
        variant(page, "NVLSTree at 1 GiB ([0-9.]+) GB/s busbw", 7, gdr + " --env NCCL_NET_GDR_LEVEL=LOC");
        variant(page, "NVLSTree at 1 GiB [0-9.]+ GB/s busbw\\s*\\(([0-9.]+)\\)", 7, gdr);
        variant(page, "the bound column reads ([0-9.]+) \\(", 13, gdr + " --env NCCL_NET_GDR_LEVEL=LOC");
        variant(page, "the bound column reads [0-9.]+ \\(([0-9.]+) by default\\)", 13, gdr);
    }

    /** The machine-file sentence: algorithm/protocol, channels and busbw of a real DGX A100's topo -m. */
    @Test
    void machineFilePredictsItsWords() throws IOException {
        Matcher m = Pattern.compile("`\\./collsim (predict [^`]*B-topo-dgx-a100\\.txt[^`]*)` \\([^)]*\\) predicts"
                + " (\\w+)/(\\w+), ([0-9]+ x [0-9]+) GB/s graph, ([0-9]+) channels, ([0-9.]+) GB/s busbw")
                .matcher(page());
        assertTrue(m.find(), "the machine-file sentence of " + PAGE);
        CliRun r = run(args(m.group(1)));
        assertEquals(0, r.code(), r.err());
        String[] row = firstRowOf(r.out());
        assertEquals(m.group(2) + "/" + m.group(3) + " " + m.group(5), row[9] + "/" + row[10] + " " + row[11]);
        assertFigure(m.group(6), row[7], m.group());
        // the graph the ring search found: "# Channels: ring 12 x 20.0/20.0 GB/s"
        assertTrue(r.out().contains("# Channels: ring " + m.group(4) + ".0/"), r.out());
    }

    /** The pasted mpirun line prints the {@code # Ranks:} line the page quotes, word for word. */
    @Test
    void launcherLinePrintsItsRanksLine() throws IOException {
        Matcher m = Pattern.compile("`\\./collsim (predict mpirun [^`]*)` prints `(# Ranks: [^`]*)`").matcher(page());
        assertTrue(m.find(), "the mpirun sentence of " + PAGE);
        CliRun r = run(args(m.group(1)));
        assertEquals(0, r.code(), r.err());
        assertEquals(m.group(2), r.out().lines().filter(l -> l.startsWith("# Ranks:")).findFirst().orElse("(none)"));
    }

    private static void variant(String page, String regex, int column, String command) {
        Matcher m = Pattern.compile(regex).matcher(page);
        assertTrue(m.find(), regex + " in " + PAGE);
        assertFigure(m.group(1), firstRow(command)[column], command + " (page: " + m.group() + ")");
    }


    private static String[] firstRow(String command) {
        CliRun r = run(args(command));
        assertEquals(0, r.code(), command + ": " + r.err());
        return firstRowOf(r.out());
    }

    private static String[] firstRowOf(String out) {
        return out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).findFirst()
                .orElseThrow(() -> new AssertionError("no row in:\n" + out)).trim().split("\\s+");
    }

    /** The page's words, with repository paths made relative to the cli module the test runs in. */
    private static String[] args(String command) {
        List<String> out = new ArrayList<>();
        for (String a : command.trim().split(" ")) {
            out.add(a.startsWith("cli/") || a.startsWith("validation/") ? "../" + a : a);
        }
        return out.toArray(String[]::new);
    }
}
