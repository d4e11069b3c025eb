package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every {@code $ ./collsim topo ...} example of the README section "Describing a cluster (collsim topo)" and
 * checks that the printed output lines appear, in order, in the real output (lines with "..." are elisions). A
 * {@code $ cat FILE} example writes FILE first. Keeps the README honest (Commons' UserGuideTest habit).
 */
class ReadmeTopoExamplesTest {

    @Test
    void readmeExamplesRunAsShown(@TempDir Path dir) throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("## Describing a cluster (collsim topo)");
        assertTrue(start >= 0, "README section missing");
        String[] lines = readme.substring(start).split("\n");
        int ran = 0;
        for (int i = 0; i < lines.length; i++) {
            if (!lines[i].startsWith("$ ")) {
                continue;
            }
            String cmd = lines[i].substring(2);
            List<String> expected = new ArrayList<>();
            int j = i + 1;
            while (j < lines.length && !lines[j].startsWith("$ ") && !lines[j].startsWith("```")) {
                expected.add(lines[j]);
                j++;
            }
            if (cmd.startsWith("cat ")) {
                Files.writeString(dir.resolve(cmd.substring(4).trim()), String.join("\n", expected) + "\n");
                continue;
            }
            String[] words = cmd.replace("./collsim ", "").split(" +");
            for (int k = 0; k < words.length; k++) {
                if (words[k].endsWith(".yaml")) {
                    words[k] = dir.resolve(words[k]).toString();
                }
            }
            CliRun r = CliRun.run(words);
            String actual = (r.out() + r.err()).replace(dir.toString() + "/", "");
            int at = 0;
            List<String> actualLines = List.of(actual.split("\n"));
            for (String e : expected) {
                if (e.contains("...")) {
                    continue;
                }
                while (at < actualLines.size() && !actualLines.get(at).equals(e)) {
                    at++;
                }
                assertTrue(at < actualLines.size(), cmd + ": line not in output, in order: '" + e + "'\n" + actual);
            }
            ran++;
        }
        assertEquals(6, ran, "README topo examples");
    }
}
