package dev.collsim.validation.ingest;

import java.util.regex.Pattern;

/**
 * The fixed-width pieces nccl-tests writes a result row in, each with its own {@code printf} (nccl-tests 2.19.6
 * {@code src/util.cu}): the preamble {@code "%12li  %12li  %8s  %6s  %6s"} (size, count, type, redop, root; 52
 * characters), then per half the body {@code "  %7s  %6s  %6s  %6g"} (time, algbw, busbw, #wrong; 33 characters) or
 * {@code "  %7s  %6s  %6s    N/A"} (32), with {@code -I} followed by {@code "  %7s  %7s  %7s  %7s"} (i_min, i_max,
 * i_p99, i_cv%; 36), with {@code -S} the timestamp {@code "%21s"} of {@code "%Y-%m-%d %H:%M:%S"} ({@code writeTimestamp};
 * 21 characters), then the newline. Numbers are right-aligned in their widths ({@code getFloatStr} keeps a
 * number inside its width). Used to find where another writer's text broke into a row. Stateless.
 */
final class TablePieces {

    private static final Pattern STAMP = Pattern.compile("  \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}");

    private TablePieces() {
    }

    /** Kind of a field's text. */
    private enum Kind { INT, NUM, WORD }

    /**
     * @param s   text
     * @param pos start
     * @return the length of a row preamble at pos, or -1
     */
    static int preamble(String s, int pos) {
        int p = field(s, pos, 12, Kind.INT);
        p = sep(s, p);
        p = field(s, p, 12, Kind.INT);
        p = sep(s, p);
        p = field(s, p, 8, Kind.WORD);
        p = sep(s, p);
        p = field(s, p, 6, Kind.WORD);
        p = sep(s, p);
        p = field(s, p, 6, Kind.INT);
        return p < 0 ? -1 : p - pos;
    }

    /**
     * @param s       text
     * @param pos     start
     * @param perIter true when the table has nccl-tests' -I per-iteration columns
     * @return the length of one half's body (time, algbw, busbw, #wrong, and the -I columns) at pos, or -1
     */
    static int body(String s, int pos, boolean perIter) {
        int p = sep(s, pos);
        p = field(s, p, 7, Kind.NUM);
        p = sep(s, p);
        p = field(s, p, 6, Kind.NUM);
        p = sep(s, p);
        p = field(s, p, 6, Kind.NUM);
        if (p >= 0 && s.startsWith("    N/A", p)) {
            p += 7;
        } else {
            p = sep(s, p);
            p = field(s, p, 6, Kind.NUM);
        }
        for (int i = 0; perIter && i < 4; i++) {
            p = sep(s, p);
            p = field(s, p, 7, Kind.NUM);
        }
        return p < 0 ? -1 : p - pos;
    }

    /**
     * @param s   text
     * @param pos start
     * @return the length of nccl-tests' -S timestamp piece at pos ({@code "%21s"} of a 19-character
     *         {@code YYYY-MM-DD HH:MM:SS}), or -1
     */
    static int timestamp(String s, int pos) {
        return pos + 21 <= s.length() && STAMP.matcher(s.substring(pos, pos + 21)).matches() ? 21 : -1;
    }

    private static int sep(String s, int p) {
        return p >= 0 && s.startsWith("  ", p) ? p + 2 : -1;
    }

    /** A right-aligned field of exactly {@code width} characters: spaces, then a token of the kind. */
    private static int field(String s, int p, int width, Kind kind) {
        if (p < 0 || p + width > s.length()) {
            return -1;
        }
        int k = p;
        while (k < p + width && s.charAt(k) == ' ') {
            k++;
        }
        if (k == p + width) {
            return -1;
        }
        String token = s.substring(k, p + width);
        return token.indexOf(' ') < 0 && fits(token, kind) ? p + width : -1;
    }

    private static boolean fits(String t, Kind kind) {
        return switch (kind) {
            case INT -> t.matches("-?\\d+");
            case NUM -> t.matches("-?(?:\\d+\\.?\\d*|\\.\\d+)(?:e[+-]?\\d+)?|nan|-?inf");
            case WORD -> t.matches("[A-Za-z0-9_]+");
        };
    }
}
