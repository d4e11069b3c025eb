package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every {@code $ ./collsim ...} example of the pages in {@code docs/} ({@link MarkdownExamples}) and checks their
 * printed lines, as {@link ReadmeTopoExamplesTest} does for the README: a figure moved from the README to a docs page
 * stays checked.
 */
class DocsExamplesTest {

    @Test
    void docsExamplesRunAsShown(@TempDir Path dir) throws Exception {
        Map<String, Integer> ran = new TreeMap<>();
        try (Stream<Path> pages = Files.list(Path.of("..", "docs"))) {
            for (Path p : pages.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                int n = MarkdownExamples.run(Files.readString(p), dir);
                if (n > 0) {
                    ran.put(p.getFileName().toString(), n);
                }
            }
        }
        // today: the worked tune example on the 2x H200 measurements; the InfraGraph export and read-back; topo show,
        // predict and compare on cloud systems (with p5 over sockets, bound by its Gen4 root ports); compare's
        // synthesized hosts and their assumptions; one table of a file (FILE:LINE) and a line that starts none; topo
        // paths (both views); the printed 70B plan
        assertEquals(Map.of("tune.md", 1, "topology.md", 4, "cloud-systems.md", 4, "validation.md", 3,
                "planning-validation.md", 1), ran);
    }
}
