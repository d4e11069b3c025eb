package dev.collsim.perf;

import dev.collsim.io.InputProblem;
import dev.collsim.io.NumberField;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * collsim's one reader of nccl-tests table rows: parses a data row against the {@link NcclTestsLayout} of its
 * table header (nccl-tests 2.0 to 2.19.6 formats, {@code src/util.cu writeResultHeader, writeBenchmarkLine*}),
 * into the shared schema ({@link PerfRow} with {@link PerfResult} halves). Whole files (prefixes, several runs,
 * claims, NCCL logs) are read by validation's {@code NcclTestsTextReader}, which uses this for every row; the
 * executor's {@code compare-nccl-tests} reads tables with {@link #readAll}.
 *
 * <p>A parsed row has collective {@code ""} and nRanks 0 (a table row does not say them), redop {@code null}
 * when the table has no {@code redop} column, {@code ""} when the column is printed blank (see
 * {@code blankRedop}), and root {@link Integer#MIN_VALUE} when it has no {@code root} column (before nccl-tests
 * 2.11). {@code N/A} in {@code #wrong}, and the old {@code error} column (a maximum
 * error, not a count), read as not checked ({@code wrong == null}).
 */
public final class NcclTestsRows {

    /**
     * @param row       the row, or null on a problem
     * @param truncated true when only the out-of-place half was complete
     * @param problem   what was wrong, or null
     */
    public record Result(PerfRow row, boolean truncated, InputProblem problem) {
    }

    /**
     * A line under a table header that starts like a data row but has not its shape: one or two whole numbers (a row
     * cut short), or a size written with a unit suffix ({@code 1M}, {@code 4KB}; nccl-tests 2.19.6 prints the size
     * as bytes, {@code "%12li"} in {@code src/util.cu writeBenchmarkLinePreamble}).
     */
    private static final Pattern ROW_LIKE = Pattern.compile(
            "^\\s*(?:\\d+(?:\\s+\\d+)?|\\d+(?:\\.\\d+)?[KMGTkmgt]i?B?\\s+\\d+\\s+\\S+.*)\\s*$");

    /** Stands for a blank {@code redop} cell while the row is read (see {@link #blankRedop}). */
    private static final String BLANK = "";

    private NcclTestsRows() {
    }

    /**
     * Every complete data row of every table in some text (rows before a header, rows that do not parse and
     * rows cut short are skipped).
     *
     * @param lines the text's lines
     * @return the rows in order
     */
    public static List<PerfRow> readAll(List<String> lines) {
        List<PerfRow> rows = new ArrayList<>();
        NcclTestsLayout layout = null;
        int no = 0;
        for (String line : lines) {
            no++;
            String t = line.strip();
            if (t.startsWith("#")) {
                NcclTestsLayout l = NcclTestsLayout.parse(t, no);
                layout = l != null ? l : layout;
            } else if (layout != null && !t.isEmpty() && Character.isDigit(t.charAt(0))) {
                Result r = parse("", layout, line, no);
                if (r.problem() == null && !r.truncated()) {
                    rows.add(r.row());
                }
            }
        }
        return rows;
    }

    /**
     * @param line a line of text under a table header that is not a data row by the caller's own test
     * @return true when it starts like a data row but is not one (see {@link #ROW_LIKE}): {@link #parse} says what
     *         is wrong with it, where a reader would otherwise skip it as prose and drop a measurement unseen
     */
    public static boolean rowLike(String line) {
        return ROW_LIKE.matcher(line).matches();
    }

    /**
     * @param file   file name for problems
     * @param layout the table's header
     * @param text   the row's text
     * @param line   its 1-based line
     * @return the row, or a problem naming file, line, column and field
     */
    public static Result parse(String file, NcclTestsLayout layout, String text, int line) {
        String[] tok = text.strip().split("\\s+");
        int[] starts = starts(text, tok);
        int blankOp = blankRedop(layout, tok);
        if (blankOp >= 0) {
            tok = insert(tok, blankOp, BLANK);
            int[] s = new int[starts.length + 1];
            System.arraycopy(starts, 0, s, 0, blankOp);
            s[blankOp] = starts[blankOp];
            System.arraycopy(starts, blankOp, s, blankOp + 1, starts.length - blankOp);
            starts = s;
        }
        int width = layout.width();
        int need = Math.max(halfEnd(layout, 0), 2) + 1;
        if (tok.length < need) {
            return new Result(null, false, missing(file, layout, text, line, need));
        }
        if (!tok[0].matches("\\d+")) {
            return new Result(null, false, new InputProblem(file, line, starts[0], "size", "found '" + tok[0]
                    + "'; allowed: a whole number of bytes, as nccl-tests prints it (e.g. 1048576, not 1M)"));
        }
        try {
            long size = NumberField.wholeNumber(tok[0], "size", starts[0], 0, Long.MAX_VALUE);
            long count = NumberField.wholeNumber(tok[1], "count", starts[1], 0, Long.MAX_VALUE);
            String type = tok[2];
            int redopIdx = layout.index("redop");
            String redop = redopIdx >= 0 && redopIdx < tok.length ? tok[redopIdx] : null;
            int rootIdx = layout.index("root");
            int root = Integer.MIN_VALUE;
            if (rootIdx >= 0) {
                root = (int) NumberField.wholeNumber(need(tok, rootIdx, "root"), "root", starts[rootIdx],
                        Integer.MIN_VALUE + 1, Integer.MAX_VALUE);
            }
            PerfResult oop = half(tok, layout, 0, starts, file, line);
            if (oop == null) {
                return problem(file, line, 1, "found no time, algbw and busbw columns to read; allowed: rows under"
                        + " a header with them (line " + layout.line() + ": " + String.join(" ", layout.columns())
                        + ")");
            }
            PerfResult ip = null;
            boolean truncated = false;
            if (layout.hasInPlace()) {
                ip = half(tok, layout, 1, starts, file, line);
                truncated = ip == null;
            }
            if (!truncated && tok.length > width && !layout.columns().contains("timestamp")) {
                return problem(file, line, starts[width], "unexpected text '" + tok[width] + "' after the last "
                        + "column (" + layout.columns().get(width - 1) + ")");
            }
            return new Result(new PerfRow("", type, redop, root, 0, size, count, oop, ip, null), truncated, null);
        } catch (NumberField.Refused e) {
            return new Result(null, false, e.at(file, line));
        } catch (NumberFormatException e) {
            for (int i = 0; i < Math.min(tok.length, width); i++) {
                if (!numericOk(layout.columns().get(i), tok[i])) {
                    String column = layout.columns().get(i);
                    return new Result(null, false, new InputProblem(file, line, starts[i], column, "found '" + tok[i]
                            + "'; allowed: a finite number" + (column.equals("#wrong") ? " or N/A" : "")));
                }
            }
            return problem(file, line, 0, "not a number: " + e.getMessage());
        }
    }

    /**
     * @param file   the file, for the message
     * @param layout the table's layout
     * @param text   a row {@link #parse} found {@link Result#truncated} (its in-place half missing)
     * @param line   its line
     * @param prefix characters before the row on its line (0 when none)
     * @return the error for such a row when it is not its table's last: at the column just past its last value,
     *         naming the first missing column, what was found and what is allowed
     */
    public static InputProblem cutShort(String file, NcclTestsLayout layout, String text, int line, int prefix) {
        String[] tok = text.strip().split("\\s+");
        List<String> cols = layout.columns();
        int found = Math.min(tok.length, cols.size() - 1);
        return new InputProblem(file, line, prefix + text.stripTrailing().length() + 2, cols.get(found), "row is cut"
                + " short but is not the last row of its table: found " + tok.length + " values, the last '"
                + tok[tok.length - 1] + "'; allowed: the " + layout.width() + " columns of the header at line "
                + layout.line() + " (only a table's last row may be cut short)");
    }

    /**
     * The error for a row cut before its out-of-place half ends (a file cut short inside a row, or a row broken over
     * two lines): at the column just past its last value, naming the first missing column.
     *
     * @param need the values the row must have: through the out-of-place half's last column
     */
    private static InputProblem missing(String file, NcclTestsLayout layout, String text, int line, int need) {
        String[] tok = text.strip().split("\\s+");
        int found = text.isBlank() ? 0 : tok.length;
        String last = found == 0 ? "" : ", the last '" + tok[found - 1] + "'";
        return new InputProblem(file, line, text.stripTrailing().length() + 2,
                layout.columns().get(Math.min(found, layout.columns().size() - 1)), "row is cut short: found "
                + found + " value" + (found == 1 ? "" : "s") + last + "; allowed: at least the first " + need
                + " of the " + layout.width() + " columns of the header at line " + layout.line() + " ("
                + String.join(" ", layout.columns().subList(0, need)) + ")");
    }

    /** @return the index of the last column of half h (0 = out-of-place), -1 when the header has no such half */
    private static int halfEnd(NcclTestsLayout layout, int h) {
        return Math.max(Math.max(layout.index("time", h), layout.index("algbw", h)),
                Math.max(layout.index("busbw", h), layout.index("#wrong", h)));
    }

    private static boolean numericOk(String column, String value) {
        if (column.equals("type") || column.equals("redop") || column.equals("timestamp")) {
            return true;
        }
        if (value.equals("N/A")) {
            return column.equals("#wrong");
        }
        try {
            finite(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * @return the cell as a double
     * @throws NumberFormatException when it is not a finite number: {@link Double#parseDouble} takes {@code NaN},
     *                               {@code Infinity} and {@code 1e999}, which no nccl-tests build prints for a
     *                               measured cell
     */
    private static double finite(String cell) {
        double v = Double.parseDouble(cell);
        if (!Double.isFinite(v)) {
            throw new NumberFormatException("'" + cell + "' is not a finite number");
        }
        return v;
    }

    private static String need(String[] tok, int idx, String name) {
        if (idx >= tok.length) {
            throw new NumberFormatException("missing " + name);
        }
        return tok[idx];
    }

    /** Parses half h (0 = out-of-place, 1 = in-place); returns null when its columns are missing or garbled. */
    private static PerfResult half(String[] tok, NcclTestsLayout layout, int h, int[] starts, String file, int line) {
        int ti = layout.index("time", h);
        int ai = layout.index("algbw", h);
        int bi = layout.index("busbw", h);
        int wi = layout.index("#wrong", h);
        int last = Math.max(Math.max(ti, ai), Math.max(bi, wi));
        if (ti < 0 || ai < 0 || bi < 0 || last >= tok.length) {
            return null;
        }
        try {
            double time = finite(tok[ti]);
            double alg = finite(tok[ai]);
            double bus = finite(tok[bi]);
            Long wrong = null;
            if (wi >= 0 && !tok[wi].equals("N/A")) {
                double w = Double.parseDouble(tok[wi]);
                wrong = layout.columns().get(wi).equals("#wrong") && w == Math.rint(w) && !tok[wi].contains("e")
                        ? Long.valueOf((long) w) : null;
            }
            return new PerfResult(time, alg, bus, wrong);
        } catch (NumberFormatException e) {
            if (h == 0) {
                throw e;
            }
            return null;
        }
    }

    /**
     * The index of a {@code redop} cell printed blank, or -1. nccl-tests print the op name with {@code %6s}, and
     * the tests without an op pass {@code ""}: alltoall under a redop header in v2.10.0-v2.11.0 (src/alltoall.cu:19),
     * all_gather, alltoall, broadcast, gather, scatter in v2.13.0-v2.13.3 (src/common.cu:577) and hypercube in
     * every release to v2.19.6 (src/hypercube.cu:108). The blank leaves one token fewer; an op name is never a
     * number (src/common.cu test_opnames: sum, prod, max, min, avg, mulsum), so a number there is the next column.
     */
    private static int blankRedop(NcclTestsLayout layout, String[] tok) {
        int i = layout.index("redop");
        if (i < 0 || i >= tok.length) {
            return -1;
        }
        try {
            Double.parseDouble(tok[i]);
            return i;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String[] insert(String[] tok, int at, String value) {
        String[] out = new String[tok.length + 1];
        System.arraycopy(tok, 0, out, 0, at);
        out[at] = value;
        System.arraycopy(tok, at, out, at + 1, tok.length - at);
        return out;
    }

    private static int[] starts(String text, String[] tok) {
        int[] s = new int[tok.length + 1];
        int pos = 0;
        for (int i = 0; i < tok.length; i++) {
            pos = text.indexOf(tok[i], pos);
            s[i] = pos + 1;
            pos += tok[i].length();
        }
        s[tok.length] = text.length() + 1;
        return s;
    }

    private static Result problem(String file, int line, int column, String msg) {
        return new Result(null, false, new InputProblem(file, line, column, "row", msg));
    }
}
