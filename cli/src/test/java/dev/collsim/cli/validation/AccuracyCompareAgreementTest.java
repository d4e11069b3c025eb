package dev.collsim.cli.validation;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * One figure per dataset: {@code collsim accuracy}'s uncalibrated cells (median error of time at >= 1 MiB and below
 * it, and their point counts) are the medians {@code collsim compare --calibration none} prints for the same
 * dataset, over every compared dataset of the public corpus. Both read the printed text of the two commands, whose
 * statistics come from different code (compare's per-point comparisons, accuracy's fitting series), so the check
 * fails when one counts a point the other leaves out.
 */
class AccuracyCompareAgreementTest {

    private static final String DATA = "../validation/src/test/resources/data";
    /** compare's line of the two accuracy figures: {@code at >= 1 MiB: n=13 median 76.7 ... | below 1 MiB: ...}. */
    private static final Pattern FIGURES = Pattern.compile("^  at >= 1 MiB: (?:n=(\\d+) median (\\S+)|-).*"
            + "\\| below 1 MiB: (?:n=(\\d+) median (\\S+)|-)");

    /** @return compare's figures per dataset ({@code file:line}), in order: n and median at >= 1 MiB, below */
    private static Map<String, List<String>> compareFigures(String out) {
        Map<String, List<String>> fig = new LinkedHashMap<>();
        String id = null;
        for (String l : out.lines().toList()) {
            if (!l.isEmpty() && !l.startsWith(" ")) {
                String key = l.split(" ")[0];
                id = key + "#" + fig.keySet().stream().filter(k -> k.startsWith(key + "#")).count();
            }
            Matcher m = FIGURES.matcher(l);
            if (m.find()) {
                fig.put(id, List.of(orZero(m.group(1)), orDash(m.group(2)), orZero(m.group(3)), orDash(m.group(4))));
            } else if (l.startsWith("  not compared: ")) {
                fig.put(id, List.of());
            }
        }
        fig.values().removeIf(List::isEmpty);
        return fig;
    }

    /** @return the accuracy table's cells per compared dataset ({@code file:line}), in the same form */
    private static Map<String, List<String>> accuracyFigures(String out) {
        Map<String, List<String>> fig = new LinkedHashMap<>();
        for (String l : out.lines().toList()) {
            String[] c = l.split(" \\| ");
            if (!l.startsWith("| ") || c.length != 10 || !c[0].matches("\\| \\S+:\\d+ .*")) {
                continue;
            }
            String key = c[0].substring(2).split(" ")[0];
            int seen = fig.keySet().stream().filter(k -> k.startsWith(key + "#")).toList().size();
            // a row of class "-" was not compared (compare says why): counted for the order, then dropped
            fig.put(key + "#" + seen, c[1].equals("-") ? List.of() : List.of(c[2], c[3], c[8], c[9].split(" ")[0]));
        }
        fig.values().removeIf(List::isEmpty);
        return fig;
    }

    private static String orZero(String s) {
        return s == null ? "0" : s;
    }

    private static String orDash(String s) {
        return s == null ? "-" : s;
    }

    @Test
    void everyDatasetHasOneFigureInAccuracyAndCompare() {
        CliRun acc = run("accuracy", "--calibration", "none", DATA);
        assertEquals(0, acc.code(), acc.err());
        CliRun cmp = run("compare", "--calibration", "none", "--summary", "-m", DATA);
        assertEquals(0, cmp.code(), cmp.err());
        Map<String, List<String>> a = accuracyFigures(acc.out());
        Map<String, List<String>> c = compareFigures(cmp.out());
        // the corpus has about a hundred compared datasets (INDEX.md); a parse that found few would prove nothing
        assertTrue(a.size() > 80, a.size() + " rows parsed from\n" + acc.out());
        assertEquals(c.keySet(), a.keySet(), "the same datasets compared");
        List<String> differ = new ArrayList<>();
        a.forEach((k, v) -> {
            if (!v.equals(c.get(k))) {
                differ.add(k + ": accuracy " + v + ", compare " + c.get(k));
            }
        });
        assertEquals(List.of(), differ, "points >= 1 MiB, median, points < 1 MiB, median");
    }

    /**
     * A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt run 1 (table at line 33): best time (the lower half) at
     * 2 MiB 1557.5 us (line 46, in-place), neighbours 972.4 us (1 MiB, in-place) and 933.6 us (4 MiB, out-of-place);
     * 1557.5 > 1.6 x 972.4 = 1555.8, so it is a hiccup. 14 sizes from 1 MiB to 8 GiB (lines 45-58) less that one: 13;
     * 10 sizes from 1 KiB to 512 KiB. Both commands name it and count 13 and 10.
     */
    @Test
    void bothNameTheLeftOutSize() {
        String file = DATA + "/A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt";
        CliRun cmp = run("compare", "--calibration", "none", "--summary", "-m", file);
        assertEquals(0, cmp.code(), cmp.err());
        assertTrue(cmp.out().contains("  |error| of time (%), 1 hiccup left out (2097152 B): all n=23 "), cmp.out());
        assertEquals("13", compareFigures(cmp.out()).get("A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt:33#0")
                .get(0), cmp.out());
        CliRun acc = run("accuracy", file);
        assertEquals(0, acc.code(), acc.err());
        assertTrue(acc.out().contains("A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt:33 (run 1: 2 pods x 8 GPUs"
                + " (one pod per node...): 1 hiccup left out (2097152 B)"), acc.out());
        List<String> row = accuracyFigures(acc.out()).get("A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt:33#0");
        assertEquals("13", row.get(0), acc.out());
        assertEquals("10", row.get(2), acc.out());
    }
}
