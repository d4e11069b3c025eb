package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every {@code $ ./collsim ...} example of the README from the section "Describing a cluster (collsim topo)" on
 * (the topo examples and the predict table) and
 * checks that the printed output lines appear, in order, in the real output (lines with "..." are elisions). A
 * {@code $ cat FILE} example writes FILE first ({@link MarkdownExamples}). Keeps the README honest (Commons'
 * UserGuideTest habit); {@link DocsExamplesTest} does the same for the docs pages.
 */
class ReadmeTopoExamplesTest {

    @Test
    void readmeExamplesRunAsShown(@TempDir Path dir) throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("## Describing a cluster (collsim topo)");
        assertTrue(start >= 0, "README section missing");
        int ran = MarkdownExamples.run(readme.substring(start), dir);
        // topo show, topo check and the predict table, so no printed figure goes stale (topo paths: docs/topology.md)
        assertEquals(3, ran, "README examples from the topo section on");
    }
}
