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
