package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the {@code $ ./collsim ...} lines of a Markdown text (a README section, a docs page) and checks that the
 * printed lines under each appear, in order, in the real output (lines with "..." are elisions). A {@code $ cat FILE}
 * example writes FILE into the scratch folder first; a word ending in {@code .yaml} names such a file; a word naming
 * a file of the repository (relative to its root, as the user types it there), or such a file's {@code FILE:LINE},
 * is resolved from the module folder.
 */
final class MarkdownExamples {

    private MarkdownExamples() {
    }

    /**
     * @param text the Markdown
     * @param dir  scratch folder for {@code cat} files
     * @return how many commands ran
     * @throws IOException when a scratch file cannot be written
     */
    static int run(String text, Path dir) throws IOException {
        String[] lines = text.split("\n");
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
                if (words[k].endsWith(".yaml") && !Files.exists(Path.of("..", words[k]))) {
                    words[k] = dir.resolve(words[k]).toString();
                } else if (words[k].contains("/") && Files.exists(Path.of("..", words[k].replaceFirst(":[0-9]+$",
                        "")))) { // a file, or FILE:LINE (one table of it)
                    words[k] = Path.of("..", words[k]).toString();
                }
            }
            CliRun r = CliRun.run(words);
            String actual = (r.out() + r.err()).replace(dir.toString() + "/", "").replace("../", "");
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
        return ran;
    }
}
