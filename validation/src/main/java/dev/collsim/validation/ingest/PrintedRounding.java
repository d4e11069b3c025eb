package dev.collsim.validation.ingest;

import java.util.Locale;

/**
 * How much a time derived from a printed bandwidth can be off by the print's rounding alone. A reduced table that
 * gives only algbw or busbw (vendor pages print two decimals, as nccl-tests does) fixes the time as size / algbw, and
 * a value v printed to d decimals stands for anything within h = 0.5 x 10^-d of it, so the time can be up to
 * h / (v - h) longer (the value rounded up) than the one read: 0.005 / 0.065 = 7.7 % for "0.07" GB/s, under 1 % once
 * v reaches 0.505. {@link MarkdownTableReader} puts the worst point and the size from which every point is within
 * {@link #QUIET} on the dataset ({@link Dataset#rounding()}, also said in its note on the table), so a reader of the
 * comparison can tell a small-size miss the file's own digits explain from one they do not. Nothing is dropped: the
 * arithmetic bounds the error, it does not say the point is wrong. Immutable.
 *
 * @param worstFraction  the largest bound over the points, a fraction of the time read (0.077 for 7.7 %); NaN in
 *                       {@link #NONE}
 * @param worstBytes     size of that point, bytes
 * @param worstLine      1-based line of that point in the file
 * @param quietFromBytes size from which every later point is bound by less than {@link #QUIET}, bytes; -1 when no
 *                       such size
 */
public record PrintedRounding(double worstFraction, long worstBytes, int worstLine, long quietFromBytes) {

    /** No point's time bound by {@link #QUIET} or more (or no time derived from a bandwidth). */
    public static final PrintedRounding NONE = new PrintedRounding(Double.NaN, -1, 0, -1);

    /** Relative bound below which a point is not singled out (a fraction). */
    static final double QUIET = 0.01;

    /** @return true when some point's time is bound by {@link #QUIET} or more, so there is something to say */
    public boolean present() {
        return !Double.isNaN(worstFraction);
    }

    /**
     * @return what compare prints after "rounding: " and the reader's note after "; ", e.g. "the printed decimals
     *         alone leave the time up to 7.7 % long at 1024 B (line 27), under 1 % from 8192 B"; empty for
     *         {@link #NONE}
     */
    public String text() {
        if (!present()) {
            return "";
        }
        return String.format(Locale.ROOT, "the printed decimals alone leave the time up to %.1f %% long at %d B "
                + "(line %d)%s", 100 * worstFraction, worstBytes, worstLine, quietFromBytes < 0 ? ""
                : String.format(Locale.ROOT, ", under %.0f %% from %d B", 100 * QUIET, quietFromBytes));
    }

    /**
     * @param cell a table cell as printed (units and bold marks allowed)
     * @return half a unit in its last printed decimal; 0.5 for an integer; NaN when the cell is not plain decimal
     *         notation (an exponent, no digits)
     */
    static double halfUnit(String cell) {
        String t = cell.replace("**", "").replaceAll("(?i)(gb/s|µs|us|ms|%)", "").strip();
        if (!t.matches("[-+−]?[0-9]+(\\.[0-9]*)?")) {
            return Double.NaN;
        }
        int dot = t.indexOf('.');
        int decimals = dot < 0 ? 0 : t.length() - dot - 1;
        return 0.5 * Math.pow(10, -decimals);
    }

    /**
     * @param value the printed bandwidth, GB/s
     * @param half  {@link #halfUnit} of its cell
     * @return the largest fraction by which the derived time can exceed the one read; NaN when unknown or when the
     *         rounding spans zero
     */
    static double timeBound(double value, double half) {
        return Double.isNaN(half) || value <= half ? Double.NaN : half / (value - half);
    }

    /**
     * @param bounds per point, {@link #timeBound} (NaN for a point whose time was printed)
     * @param sizes  per point, bytes
     * @param lines  per point, 1-based line in the file
     * @return the worst point and the size from which every point is quiet; {@link #NONE} when every point is within
     *         {@link #QUIET}
     */
    static PrintedRounding of(double[] bounds, long[] sizes, int[] lines) {
        int worst = -1;
        int quietFrom = -1;
        for (int i = 0; i < bounds.length; i++) {
            if (Double.isNaN(bounds[i])) {
                continue;
            }
            if (worst < 0 || bounds[i] > bounds[worst]) {
                worst = i;
            }
            if (bounds[i] >= QUIET) {
                quietFrom = -1;
            } else if (quietFrom < 0) {
                quietFrom = i;
            }
        }
        if (worst < 0 || bounds[worst] < QUIET) {
            return NONE;
        }
        return new PrintedRounding(bounds[worst], sizes[worst], lines[worst], quietFrom < 0 ? -1 : sizes[quietFrom]);
    }
}
