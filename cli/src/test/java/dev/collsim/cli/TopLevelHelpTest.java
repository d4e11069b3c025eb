package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code collsim --help} fits a screen: each command's line in the list is at most two lines (the details are in the
 * command's own help), every command is listed, and the exit codes are docs/input-limits.md's table (0 to 6).
 */
class TopLevelHelpTest {

    /**
     * {@code collsim help predict} prints predict's help, as {@code collsim predict --help} does (its first line, read
     * off that command: "Usage: collsim predict [-hV] ..."); {@code collsim help} alone is {@code collsim --help}.
     * It once ran predict without arguments: "collsim predict: Missing required parameter: 'COLLECTIVE'", exit 2.
     */
    @Test
    void helpWordPrintsTheCommandsHelp() {
        CliRun r = CliRun.run("help", "predict");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("Usage: collsim predict [-hV]"), r.out());
        CliRun top = CliRun.run("help");
        assertEquals(0, top.code(), top.err());
        assertEquals(CliRun.run("--help").out(), top.out());
        assertTrue(CliRun.run("help", "topo", "show").out().startsWith("Usage: collsim topo show"));
    }

    @Test
    void everyCommandInOneOrTwoLines() {
        CliRun r = CliRun.run("--help");
        assertEquals(0, r.code());
        String[] lines = r.out().split("\n");
        Map<String, Integer> entries = new LinkedHashMap<>();
        String current = null;
        boolean inCommands = false;
        for (String line : lines) {
            if (line.equals("Commands:")) {
                inCommands = true;
            } else if (inCommands && line.isBlank()) {
                break;
            } else if (inCommands && line.matches("  [a-z]+ .*")) {
                current = line.trim().split("\\s+")[0];
                entries.put(current, 1);
            } else if (inCommands && current != null) {
                entries.merge(current, 1, Integer::sum);
            }
        }
        assertEquals(List.of("topo", "predict", "run", "diagnose", "compare", "calibrate", "accuracy", "tune", "plan",
                "report", "merge", "sweep"), List.copyOf(entries.keySet()), r.out());
        entries.forEach((command, n) -> assertTrue(n <= 2, command + " takes " + n + " lines:\n" + r.out()));
        for (int code = 0; code <= 6; code++) {
            assertTrue(r.out().contains("\n  " + code + "   "), "exit code " + code + " missing:\n" + r.out());
        }
    }
}
