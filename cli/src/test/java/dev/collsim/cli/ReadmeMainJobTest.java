package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.report.WhatIfRun;
import dev.collsim.reports.io.AtomicFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The main job ({@code ./collsim} with no arguments, the README's first command) run in-process through
 * {@link Main#run}, as a user runs it: it writes ./collsim-report/ (here: the module folder, removed afterwards) and
 * prints exactly the README's block, line for line (a README line with "..." stands for a line that names the
 * user's folder), so the README cannot drift from what the command prints.
 */
class ReadmeMainJobTest {

    private static final Path OUT = Path.of(WhatIfRun.DEFAULT_OUTPUT).toAbsolutePath();

    @AfterEach
    void removeTheReport() throws IOException {
        if (Files.isRegularFile(OUT.resolve(AtomicFolder.MARKER))) {
            try (Stream<Path> s = Files.walk(OUT)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** @return the lines printed under {@code $ ./collsim} in the README, up to the end of its code block */
    static List<String> readmeBlock() throws IOException {
        List<String> readme = Files.readAllLines(Path.of("..", "README.md"));
        int at = readme.indexOf("$ ./collsim");
        assertTrue(at >= 0, "README has no '$ ./collsim' line");
        List<String> block = new ArrayList<>();
        for (int i = at + 1; !readme.get(i).startsWith("```"); i++) {
            block.add(readme.get(i));
        }
        return block;
    }

    @Test
    void mainJobPrintsTheReadmeBlock() throws IOException {
        CliRun r = CliRun.run();
        assertEquals(0, r.code(), r.err());
        List<String> printed = r.out().lines().toList();
        List<String> readme = readmeBlock();
        assertEquals(readme.size(), printed.size(), "lines in the README block vs printed:\n" + r.out());
        for (int i = 0; i < readme.size(); i++) {
            if (!readme.get(i).contains("...")) {
                assertEquals(readme.get(i), printed.get(i), "line " + (i + 1) + " of the main job's output");
            }
        }
        assertEquals("Report: " + OUT.resolve("index.html") + "  (open it in a browser; charts, CSV and JSON are in "
                + OUT + ")", printed.get(printed.size() - 1));
        for (String f : List.of("index.html", "charts/algorithm-map.png", "charts/busbw-allreduce-bfloat16.png",
                "charts/time-allreduce-bfloat16.png", "data/sweeps.csv")) {
            assertTrue(Files.isRegularFile(OUT.resolve(f)), f);
        }
    }

    /**
     * {@code ./collsim --calibration none} prints the line predict, compare, plan, report and tune print for the bare
     * model, and its base variant's AllReduce busbw at 8 GiB (bfloat16, the built-in spec's sweep) is the one
     * {@code predict --calibration none} prints for the same cluster (configs/default.yaml), size and data type.
     */
    @Test
    void calibrationNoneAgreesWithPredict() {
        CliRun main = CliRun.run("--calibration", "none");
        assertEquals(0, main.code(), main.err());
        List<String> lines = main.out().lines().toList();
        assertEquals("calibration: none (bare model)", lines.get(1), main.out());
        String base = lines.stream().filter(l -> l.startsWith("base: ")).findFirst().orElseThrow();
        String busBw = base.split(" +")[7];
        CliRun predict = CliRun.run("predict", "-c", "default", "allreduce", "-b", "8G", "-e", "8G", "-d",
                "bfloat16", "--calibration", "none");
        assertEquals(0, predict.code(), predict.err());
        assertTrue(predict.out().contains("; calibration: none (bare model)"), predict.out());
        String row = predict.out().lines().filter(l -> l.trim().startsWith("8589934592")).findFirst().orElseThrow();
        assertEquals(Double.parseDouble(row.trim().split(" +")[7]), Double.parseDouble(busBw), 0.05,
                base + "\n" + row);
    }

    /** The main job's option placed before a subcommand would change nothing: a usage error saying where it goes. */
    @Test
    void calibrationBeforeASubcommandIsAUsageError() {
        CliRun r = CliRun.run("--calibration", "none", "predict", "allreduce");
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        assertTrue(r.err().contains("give it after the subcommand: collsim predict --calibration"), r.err());
    }
}
