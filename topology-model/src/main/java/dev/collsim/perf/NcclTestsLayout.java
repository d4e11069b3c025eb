package dev.collsim.perf;

import dev.collsim.io.NumberField;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Column layout of an nccl-tests table, read from its header line. nccl-tests 2.19.6 prints
 * {@code size count type redop root} then, for out-of-place and in-place, {@code time algbw busbw #wrong}
 * ({@code src/util.cu writeResultHeader}); versions before the root column (2.0-2.10 era) print
 * {@code size count type redop time algbw busbw error}, with -I four per-iteration columns follow each half, and
 * with -S a timestamp column ends the line.
 *
 * @param columns lower-case column names in order ({@code time}/{@code cputime} normalised to {@code time},
 *                {@code error} to {@code #wrong})
 * @param line    1-based header line
 * @see NcclTestsRows
 */
public record NcclTestsLayout(List<String> columns, int line) {

    /**
     * The units nccl-tests prints under its header: {@code (B) (elements)}, then per half {@code (us) (GB/s) (GB/s)},
     * with {@code -I} also {@code (us)} and {@code (%)} (nccl-tests 2.19.6 {@code src/util.cu writeResultHeader};
     * 2.0.0 {@code src/common.cu} prints the same first eight).
     */
    private static final List<String> UNITS = List.of("(B)", "(elements)", "(us)", "(GB/s)", "(%)");
    private static final Pattern UNIT = Pattern.compile("\\([^()\\s]*\\)");

    /** Copies the column list. */
    public NcclTestsLayout {
        columns = List.copyOf(columns);
    }

    /**
     * @param text a comment line (leading {@code #} allowed)
     * @param line its number
     * @return the layout, or null when the line is not a table header
     */
    public static NcclTestsLayout parse(String text, int line) {
        String t = text.strip();
        if (t.startsWith("#")) {
            t = t.substring(1);
        }
        String[] tokens = t.strip().split("\\s+");
        if (tokens.length < 6 || !tokens[0].equalsIgnoreCase("size") || !tokens[1].equalsIgnoreCase("count")) {
            return null;
        }
        List<String> cols = new ArrayList<>();
        for (String tok : tokens) {
            String c = tok.toLowerCase(Locale.ROOT);
            if (c.equals("cputime")) {
                c = "time";
            } else if (c.equals("error")) {
                c = "#wrong";
            }
            cols.add(c);
        }
        if (!cols.contains("busbw") || !cols.contains("time")) {
            return null;
        }
        return new NcclTestsLayout(cols, line);
    }

    /**
     * Checks a table's units row ({@code #  (B)  (elements) ...}): the readers take every time as microseconds and
     * every bandwidth as GB/s, so a row naming another unit (a table edited by hand, another tool's output) is
     * refused rather than read 1000x off. Other lines pass.
     *
     * @param text a comment line, stripped
     * @throws NumberField.Refused at the first unit nccl-tests does not print, column 1-based in {@code text}
     */
    public static void checkUnits(String text) {
        String body = text.startsWith("#") ? text.substring(1).strip() : text;
        if (!body.startsWith("(B)")) {
            return;
        }
        Matcher m = UNIT.matcher(text);
        while (m.find()) {
            if (!UNITS.contains(m.group())) {
                throw new NumberField.Refused("units", m.start() + 1, "found '" + m.group() + "'; allowed: "
                        + String.join(" ", UNITS) + ", the units nccl-tests prints (times are read as microseconds,"
                        + " bandwidths as GB/s)");
            }
        }
    }

    /** @return index of the first column called {@code name}, or -1 */
    public int index(String name) {
        return columns.indexOf(name);
    }

    /** @return index of the n-th (0-based) occurrence of {@code name}, or -1 */
    public int index(String name, int occurrence) {
        int seen = 0;
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).equals(name) && seen++ == occurrence) {
                return i;
            }
        }
        return -1;
    }

    /** @return true when an in-place half is present */
    public boolean hasInPlace() {
        return index("time", 1) >= 0;
    }

    /** @return number of columns, timestamp excluded */
    public int width() {
        return columns.contains("timestamp") ? columns.size() - 1 : columns.size();
    }
}
