package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Keeps the hand-written section "Multi-node datasets over 10 %" of {@code docs/accuracy.md} honest: every healthy
 * multi-host dataset the accuracy table has over 10 % (uncalibrated median at >= 1 MiB, {@link AccuracySummary#healthy})
 * has a row there, and every row names a multi-host dataset the table has (no typo, no removed file).
 */
class MultiNodeMissesDocTest {

    private static final Path DOC = Path.of("..", "docs", "accuracy.md");

    private static final String HEADING = "## Multi-node datasets over 10 %";

    /** First cell of a row: {@code FILE:LINE}, optionally followed by a mark. */
    private static final Pattern ROW = Pattern.compile("^\\| ([AD]-[^ |]+\\.(?:txt|json|log):\\d+)[^|]*\\|");

    /** @return the FILE:LINE of every row of the section */
    static Set<String> documented(String markdown) {
        int start = markdown.indexOf(HEADING);
        if (start < 0) {
            return Set.of();
        }
        int end = markdown.indexOf("\n## ", start + HEADING.length());
        String section = markdown.substring(start, end < 0 ? markdown.length() : end);
        Set<String> keys = new LinkedHashSet<>();
        for (String line : section.split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.find()) {
                keys.add(m.group(1));
            }
        }
        return keys;
    }

    private static String key(AccuracyRow r) {
        return r.dataset().file() + ":" + r.dataset().line();
    }

    private static boolean multiHost(AccuracyRow r) {
        return r.hardwareClass().endsWith("multi-host");
    }

    @Test
    void everyHealthyMultiNodeMissHasARow() throws Exception {
        Set<String> doc = documented(Files.readString(DOC));
        assertFalse(doc.isEmpty(), "no rows under '" + HEADING + "' in " + DOC);
        List<AccuracyRow> rows = AccuracyGateTest.bareRows();
        Set<String> missing = new TreeSet<>();
        for (AccuracyRow r : rows) {
            if (AccuracySummary.healthy(r) && multiHost(r) && r.uncalibrated() > 10 && !doc.contains(key(r))) {
                missing.add(key(r) + String.format(" (%.1f %%)", r.uncalibrated()));
            }
        }
        assertTrue(missing.isEmpty(), "healthy multi-host datasets over 10 % with no row in " + DOC + ": " + missing);
        Set<String> known = new TreeSet<>();
        rows.stream().filter(MultiNodeMissesDocTest::multiHost).forEach(r -> known.add(key(r)));
        Set<String> unknown = new TreeSet<>(doc);
        unknown.removeAll(known);
        assertTrue(unknown.isEmpty(), "rows naming no multi-host dataset of the accuracy table: " + unknown);
    }

    @Test
    void sectionParserByHand() {
        String md = "# x\n| A-a.txt:1 | 1 |\n" + HEADING + "\n\n| dataset | e |\n|---|---|\n"
                + "| A-b.txt:12 | 20 | c |\n| D-c.log:3 *(header: problem)* | 30 | c |\n## Next\n| A-d.txt:4 | 1 |\n";
        assertTrue(documented(md).equals(new LinkedHashSet<>(List.of("A-b.txt:12", "D-c.log:3"))),
                documented(md).toString());
        assertTrue(documented("no section").isEmpty());
    }
}
