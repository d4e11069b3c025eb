package dev.collsim.cli.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the first {@code ./collsim predict} example of the README section "Contention-aware simulation (flow
 * backend)" and checks that its table rows are printed exactly as the README shows them.
 */
class ReadmeFlowExamplesTest {

    @Test
    void firstExamplePrintsTheRowsShownInTheReadme() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("## Contention-aware simulation (flow backend)");
        assertTrue(start >= 0, "README section missing");
        String[] lines = readme.substring(start).split("\n");
        int i = 0;
        while (!lines[i].startsWith("./collsim predict")) {
            i++;
        }
        String[] args = lines[i].substring("./collsim ".length()).trim().split("\\s+");
        List<String> shown = new ArrayList<>();
        for (int j = i + 1; !lines[j].startsWith("```"); j++) {
            if (!lines[j].startsWith("#") && !lines[j].startsWith("...") && !lines[j].isBlank()) {
                shown.add(lines[j]);
            }
        }
        StringWriter out = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(new StringWriter()));
        assertEquals(0, code);
        List<String> printed = out.toString().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        assertEquals(3, shown.size());
        assertEquals(shown, printed);
    }
}
