package dev.collsim.cli.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report summary's calibration lines: one line per calibration used, naming the variants that use it, instead of
 * one line per variant (five variants of one cluster class all get the same profile); a calibration every variant
 * uses is the one {@code calibration: ...} line predict, compare, plan and tune print. The network notes are grouped
 * the same way ({@link #grouped}). Stateless.
 */
final class CalibrationLines {

    private static final String MARK = ": calibration: ";

    private CalibrationLines() {
    }

    /**
     * @param selections the resolver's lines, each {@code VARIANT: calibration: WHAT} in resolution order
     *                   ({@code SimulatorResolver#selections})
     * @return {@code calibration: WHAT} when every variant uses the same WHAT, else lines
     *         {@code calibration of "VARIANT", "VARIANT": WHAT} (names quoted: they may hold ':', ',' and ';'), one
     *         per distinct WHAT, in first-use order; a line without
     *         the mark is kept as {@code calibration of LINE}
     */
    static List<String> group(List<String> selections) {
        Map<String, List<String>> byProfile = new LinkedHashMap<>();
        List<String> out = new ArrayList<>();
        for (String s : selections) {
            int i = s.indexOf(MARK);
            if (i < 0) {
                out.add("calibration of " + s);
                continue;
            }
            byProfile.computeIfAbsent(s.substring(i + MARK.length()), k -> new ArrayList<>()).add(s.substring(0, i));
        }
        if (out.isEmpty() && byProfile.size() == 1) {
            return List.of("calibration: " + byProfile.keySet().iterator().next());
        }
        out.addAll(grouped("calibration", byProfile));
        return out;
    }

    /**
     * The same grouping for any per-variant summary text (the calibration lines, the network notes): one line per
     * distinct text, naming the variants that share it, in first-use order.
     *
     * @param label  what the lines say, e.g. {@code network}
     * @param byText variants per text, in first-use order
     * @return lines {@code LABEL of "VARIANT", "VARIANT": TEXT}
     */
    static List<String> grouped(String label, Map<String, List<String>> byText) {
        List<String> out = new ArrayList<>();
        byText.forEach((what, variants) -> out.add(label + " of "
                + String.join(", ", variants.stream().map(CalibrationLines::quote).toList()) + ": " + what));
        return out;
    }

    /**
     * @return the variant name in double quotes, a quote or backslash in it escaped with a backslash (as in JSON), so
     *         a list of names stays readable whatever they hold: {@code "2:1 fat-tree, 8 ports/leaf"}
     */
    static String quote(String name) {
        return '"' + name.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
