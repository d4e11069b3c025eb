package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every option {@code --help} lists for predict, compare, diagnose, calibrate, tune, plan, report and the topo
 * commands is findable by its long name in the README or in the docs page the README links for that command (predict:
 * docs/predict.md; compare, diagnose, calibrate: docs/validation.md; tune: docs/tune.md; plan:
 * docs/planning-validation.md; report: docs/report.md; topo: docs/topology.md). Before this test compare's
 * {@code --summary}, diagnose's {@code --fail-on-problem}, nine of plan's options, report's {@code --no-progress} and
 * the long names of nccl-tests' flags ({@code --minbytes}, {@code --datatype}, ...) were in no page.
 */
class OptionsDocumentedTest {

    /** An option line of picocli's help: indented, then one or more names separated by commas. */
    private static final Pattern OPTION_LINE = Pattern.compile("(?m)^ {2,}((?:-[A-Za-z], )?--[a-z][a-z0-9-]*(?:,"
            + " --[a-z][a-z0-9-]*)*)");

    private static final Pattern LONG_NAME = Pattern.compile("--[a-z][a-z0-9-]*");

    @Test
    void everyHelpOptionIsInTheReadmeOrItsPage() throws IOException {
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("predict", "predict.md");
        pages.put("compare", "validation.md");
        pages.put("diagnose", "validation.md");
        pages.put("calibrate", "validation.md");
        pages.put("tune", "tune.md");
        pages.put("plan", "planning-validation.md");
        pages.put("report", "report.md");
        for (String sub : List.of("show", "paths", "check", "export")) {
            pages.put("topo " + sub, "topology.md");
        }
        String readme = Files.readString(Path.of("..", "README.md"));
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (Map.Entry<String, String> e : pages.entrySet()) {
            String docs = readme + "\n" + Files.readString(Path.of("..", "docs", e.getValue()));
            Set<String> options = options(e.getKey());
            for (String option : options) {
                checked++;
                if (!Pattern.compile(Pattern.quote(option) + "(?![a-z0-9-])").matcher(docs).find()) {
                    missing.add(e.getKey() + " " + option + " (README.md, docs/" + e.getValue() + ")");
                }
            }
        }
        assertEquals(List.of(), missing, "options --help lists that no page names");
        // predict alone lists over 50 options; the eleven commands together well over 100
        assertTrue(checked > 100, "only " + checked + " options read from the help texts");
    }

    /** The help's long option names of one command, without --help and --version. */
    private static Set<String> options(String command) {
        CliRun r = CliRun.run((command + " --help").split(" "));
        assertEquals(0, r.code(), command + ": " + r.err());
        Set<String> names = new TreeSet<>();
        Matcher line = OPTION_LINE.matcher(r.out());
        while (line.find()) {
            Matcher name = LONG_NAME.matcher(line.group(1));
            while (name.find()) {
                names.add(name.group());
            }
        }
        names.remove("--help");
        names.remove("--version");
        assertTrue(names.size() >= 3, command + " --help lists " + names + ":\n" + r.out());
        return names;
    }
}
