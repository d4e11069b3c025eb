package dev.collsim.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import dev.collsim.cli.DocFigure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/report.md quotes the built-in report's "32 hosts" step ({@code 3398.5 ms at dp=16}); it must be the README's
 * row for that variant, which {@code ReadmeMainJobTest} checks line for line against what {@code ./collsim} prints
 * (the page said 3458.4 ms while the command printed 3398.5).
 */
class ReportDocFiguresTest {

    @Test
    void scaledStepQuotedInReportPageIsTheReadmeRow() throws IOException {
        String page = Files.readString(Path.of("..", "docs", "report.md"));
        Matcher quoted = Pattern.compile("prints the step as `([0-9.]+) ms at dp=16`").matcher(page);
        assertTrue(quoted.find(), "docs/report.md's quoted step");
        String row = Files.readAllLines(Path.of("..", "README.md")).stream()
                .filter(l -> l.startsWith("32 hosts ") && l.contains(" ms at dp=16")).findFirst().orElseThrow();
        Matcher m = Pattern.compile("([0-9.]+) ms at dp=16\\s+([0-9,]+)").matcher(row);
        assertTrue(m.find(), row);
        assertEquals(m.group(1), quoted.group(1));
        // By hand: the 70B plan's step holds global batch 128 x seq-len 4096 = 524,288 tokens
        // (examples/whatif-default.yaml), so tokens/s = 524,288 / 3.4149 s = 153,529.5. The step is printed to
        // 0.1 ms, so the unrounded step lies within +-0.05 ms of it: 524,288 / 3.41495 s .. 524,288 / 3.41485 s =
        // 153,527.3 .. 153,531.8, and the printed tokens/s (rounded to 1) within 0.5 of that range.
        double step = Double.parseDouble(quoted.group(1)) / 1e3;
        long tokens = Long.parseLong(m.group(2).replace(",", ""));
        assertTrue(tokens >= 524_288 / (step + 0.5e-4) - 0.5 && tokens <= 524_288 / (step - 0.5e-4) + 0.5, row);
    }

    /**
     * The flow-timed fat-tree variant's AllReduce busbw at 8G and the 1:1 base's, as docs/report.md and the README's
     * prose quote them, must be the README's summary rows (which {@code ReadmeMainJobTest} checks against the built-in
     * report), to the quoted digits; the analytical figure both pages quote for that fabric (the leaf uplinks' 200)
     * must be what {@code predict} prints for the variant's cluster (examples/whatif-default.yaml: default cluster,
     * fat-tree, oversubscription 2, leaf-radix 8, bfloat16). (report.md said the analytical backend gave 372 there:
     * that is the base's, and the README rounded 372.6 to 372.)
     */
    @Test
    void fatTreeFiguresQuotedInProseAreTheReadmeRows() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String fatTree = busbw(readme, "2:1 fat-tree, 8 ports/leaf ");
        String base = busbw(readme, "base: 4x DGX H100, 8x400G rail ");
        String page = Files.readString(Path.of("..", "docs", "report.md")).replaceAll("\\s*\\n\\s*", " ");
        Matcher m = Pattern.compile("leave ([0-9.]+) GB/s of AllReduce busbw at 8G where the analytical backend gives"
                + " the uplinks' ([0-9.]+) \\(the 1:1 base: ([0-9.]+);").matcher(page);
        assertTrue(m.find(), "docs/report.md's fat-tree sentence");
        DocFigure.assertFigure(m.group(1), fatTree, m.group());
        DocFigure.assertFigure(m.group(3), base, m.group());
        Matcher r = Pattern.compile("the 2:1 fat-tree leaves ([0-9.]+) GB/s of AllReduce busbw at 8G where the"
                + " analytical backend gives the uplinks' ([0-9.]+) \\(the 1:1 base: ([0-9.]+)\\)")
                .matcher(readme.replaceAll("\\s*\\n\\s*", " "));
        assertTrue(r.find(), "the README's fat-tree sentence");
        DocFigure.assertFigure(r.group(1), fatTree, r.group());
        DocFigure.assertFigure(r.group(3), base, r.group());
        CliRun p = CliRun.run("predict", "allreduce", "-c", "default", "--fabric", "fat-tree", "--oversubscription",
                "2", "--leaf-radix", "8", "-d", "bfloat16", "-b", "8G", "-e", "8G");
        assertEquals(0, p.code(), p.err());
        String analytical = column(p, 7);
        DocFigure.assertFigure(m.group(2), analytical, m.group());
        DocFigure.assertFigure(r.group(2), analytical, r.group());
        // the bound line of the same variant and of the base, as the page's chart paragraph quotes them
        Matcher bound = Pattern.compile("= ([0-9.]+) GB/s on 4 DGX H100, where the base's NICs allow ([0-9.]+);")
                .matcher(page);
        assertTrue(bound.find(), "docs/report.md's bound sentence");
        DocFigure.assertFigure(bound.group(1), column(p, 13), bound.group());
        CliRun b = CliRun.run("predict", "allreduce", "-c", "default", "-d", "bfloat16", "-b", "8G", "-e", "8G");
        assertEquals(0, b.code(), b.err());
        DocFigure.assertFigure(bound.group(2), column(b, 13), bound.group());
    }

    /** One column of the first row a predict run prints. */
    private static String column(CliRun r, int column) {
        return r.out().lines().filter(l -> l.startsWith(" ")).findFirst().orElseThrow().trim().split("\\s+")[column];
    }

    /** The "AllReduce busbw @8G" cell of one README summary row. */
    private static String busbw(String readme, String variant) {
        String row = readme.lines().filter(l -> l.startsWith(variant)).findFirst()
                .orElseThrow(() -> new AssertionError("no README row " + variant));
        Matcher m = Pattern.compile(" ([0-9.]+) GB/s ").matcher(row);
        assertTrue(m.find(), row);
        return m.group(1);
    }
}
