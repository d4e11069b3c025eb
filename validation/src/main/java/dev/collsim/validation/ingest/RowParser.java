package dev.collsim.validation.ingest;

import dev.collsim.io.InputProblem;

/** Parses one nccl-tests data row against a {@link TableLayout}. Package-private helper. */
final class RowParser {

    /**
     * @param row       the row, or null on a problem
     * @param truncated true when only the out-of-place half was complete
     * @param problem   what was wrong, or null
     */
    record Result(RawRow row, boolean truncated, InputProblem problem) {
    }

    private RowParser() {
    }

    static Result parse(String file, TableLayout layout, String text, int line) {
        String[] tok = text.strip().split("\\s+");
        int[] starts = starts(text, tok);
        int width = layout.width();
        try {
            long size = Long.parseLong(tok[0]);
            long count = Long.parseLong(tok[1]);
            String type = tok[2];
            int redopIdx = layout.index("redop");
            String redop = redopIdx >= 0 && redopIdx < tok.length ? tok[redopIdx] : null;
            int rootIdx = layout.index("root");
            int root = Integer.MIN_VALUE;
            if (rootIdx >= 0) {
                root = Integer.parseInt(need(tok, rootIdx, "root"));
            }
            Timing oop = half(tok, layout, 0, starts, file, line);
            if (oop == null) {
                return problem(file, line, 0, "row has " + tok.length + " columns, the header at line "
                        + layout.line() + " has " + width + ": " + String.join(" ", layout.columns()));
            }
            Timing ip = null;
            boolean truncated = false;
            if (layout.hasInPlace()) {
                ip = half(tok, layout, 1, starts, file, line);
                truncated = ip == null;
            }
            if (!truncated && tok.length > width && !layout.columns().contains("timestamp")) {
                return problem(file, line, starts[width], "unexpected text '" + tok[width] + "' after the last "
                        + "column (" + layout.columns().get(width - 1) + ")");
            }
            return new Result(new RawRow(new PerfPoint(size, count, oop, ip, line), type, redop, root), truncated, null);
        } catch (NumberFormatException e) {
            for (int i = 0; i < Math.min(tok.length, width); i++) {
                if (!numericOk(layout.columns().get(i), tok[i])) {
                    return problem(file, line, starts[i], layout.columns().get(i) + ": '" + tok[i]
                            + "' is not a number");
                }
            }
            return problem(file, line, 0, "not a number: " + e.getMessage());
        }
    }

    private static boolean numericOk(String column, String value) {
        if (column.equals("type") || column.equals("redop") || column.equals("timestamp")) {
            return true;
        }
        if (value.equals("N/A")) {
            return column.equals("#wrong");
        }
        try {
            Double.parseDouble(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String need(String[] tok, int idx, String name) {
        if (idx >= tok.length) {
            throw new NumberFormatException("missing " + name);
        }
        return tok[idx];
    }

    /** Parses half h (0 = out-of-place, 1 = in-place); returns null when its columns are missing or garbled. */
    private static Timing half(String[] tok, TableLayout layout, int h, int[] starts, String file, int line) {
        int ti = layout.index("time", h);
        int ai = layout.index("algbw", h);
        int bi = layout.index("busbw", h);
        int wi = layout.index("#wrong", h);
        int last = Math.max(Math.max(ti, ai), Math.max(bi, wi));
        if (ti < 0 || ai < 0 || bi < 0 || last >= tok.length) {
            return null;
        }
        try {
            double time = Double.parseDouble(tok[ti]);
            double alg = Double.parseDouble(tok[ai]);
            double bus = Double.parseDouble(tok[bi]);
            long wrong = Timing.NOT_CHECKED;
            if (wi >= 0 && !tok[wi].equals("N/A")) {
                double w = Double.parseDouble(tok[wi]);
                wrong = layout.columns().get(wi).equals("#wrong") && w == Math.rint(w) && !tok[wi].contains("e")
                        ? (long) w : Timing.NOT_CHECKED;
            }
            return new Timing(time, alg, bus, wrong);
        } catch (NumberFormatException e) {
            if (h == 0) {
                throw e;
            }
            return null;
        }
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
