package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's sweep example is an excerpt of the full run docs/sweep.md shows: every line it shows is a line of that
 * run, in the same order, and where the run prints lines the README leaves out (the progress lines, the "this run"
 * line, two of the three target lines) a {@code ...} line says so. No round "about a minute": the speed is a measured
 * figure with its machine's load.
 */
class ReadmeSweepBlockTest {

    private static List<String> block(String text, String command) {
        int start = text.indexOf("```\n" + command);
        assertTrue(start >= 0, command);
        int end = text.indexOf("```", start + 3);
        return text.substring(start + 4, end).lines().toList();
    }

    @Test
    void theReadmeBlockIsAnExcerptWithItsOmissionsMarked() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        String command = "./collsim sweep examples/sweep-designs.yaml -o my-sweep";
        List<String> shown = block(readme, command);
        List<String> full = block(Files.readString(Path.of("..", "docs", "sweep.md")), command).stream()
                .filter(l -> !l.equals("...") && !l.startsWith("sweep: ")).toList();
        int at = 0;
        boolean skipped = false;
        for (String line : shown) {
            if (line.equals("...")) {
                skipped = true;
                continue;
            }
            int found = full.subList(at, full.size()).indexOf(line);
            assertTrue(found >= 0, "not a line of docs/sweep.md's run, in order: " + line);
            assertTrue(found == 0 || skipped, "lines left out before '" + line + "' without a '...' line");
            at += found + 1;
            skipped = false;
        }
        assertEquals(full.size(), at, "the run's last line ends the README block");
        assertEquals(3, full.stream().filter(l -> l.startsWith("target ")).count(), "the full run prints 3 targets");
        assertFalse(readme.contains("About a minute on a 2-core machine"));
    }
}
