package dev.collsim.validation.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Separates a file that two writers filled at once: NCCL's log (stderr, lines {@code HOST:PID:TID [dev] NCCL INFO
 * ...}) and nccl-tests' table (stdout), when the two were sent to one file and the table's pieces landed in the middle
 * of NCCL's lines. nccl-tests writes a row in several {@code printf} calls ({@link TablePieces}); a piece can break
 * into an NCCL line, and the rest of that NCCL line then follows the piece, on the same line or after the piece's
 * newline. This class finds the pieces by their fixed widths, rebuilds both streams, and hands back whole lines with
 * the line each began on.
 *
 * <p>Rules: inside an NCCL line, a table piece starts where the table expects its next piece (a {@code #} comment or
 * a row preamble at the start of a table line, the next half of a started row); the NCCL line resumes where the pieces
 * stop. A newline after a finished table line belongs to the table, after a half-written row to NCCL. When the file
 * holds no broken NCCL line, the lines come back unchanged. Because stderr is unbuffered and stdout is not, NCCL's
 * per-call choice lines ({@code AllReduce: 4096 Bytes -> Algo ...}) of a run's last sizes come after the table's
 * footer; the footer's {@code # Collective test concluded} line is therefore put after the choice lines that directly
 * follow it (only in a file where lines were broken). With nccl-tests' {@code -S} a row has a fourth piece, its
 * timestamp ({@link TablePieces#timestamp}). Not thread-safe; one per file.
 */
final class InterleavedStreams {

    /** NCCL's debug prefix (NCCL {@code src/debug.cc}: {@code "%s:%d:%d [%d] NCCL INFO "}). */
    /**
     * The prefix of an NCCL line, {@code host:pid:tid [dev] NCCL INFO }; the host name at most 255 characters (a DNS
     * name's limit), so that matching at one place of a long line stops there instead of scanning the line.
     */
    private static final Pattern NCCL_START = Pattern.compile(
            "[^\\s:\\[\\]]{1,255}:\\d{1,20}:\\d{1,20} \\[\\d{1,10}\\] NCCL (?:INFO|WARN) ");
    private static final String CONCLUDED = "# Collective test concluded";

    /**
     * One rebuilt line.
     *
     * @param text the whole line
     * @param line 1-based line of the file where it began
     */
    record Line(String text, int line) {
    }

    private final List<Line> out = new ArrayList<>();
    private StringBuilder nccl;
    private int ncclLine;
    private final StringBuilder table = new StringBuilder();
    private int tableLine;
    /** Pieces of the current table line: 0 none, 1 preamble, 2 and 3 the halves; -1 a whole comment or other line. */
    private int pieces;
    private boolean perIter;
    /** True after a header with nccl-tests' -S {@code timestamp} column: a row then has a fourth piece. */
    private boolean stamped;
    private int cuts;
    private Line held;

    private InterleavedStreams() {
    }

    /**
     * @param lines the file's lines
     * @return the rebuilt lines, or null when no NCCL line was broken by the table (read the file as it is)
     */
    static Result split(String[] lines) {
        InterleavedStreams s = new InterleavedStreams();
        for (int i = 0; i < lines.length; i++) {
            s.line(lines[i], i + 1);
        }
        s.finish();
        return s.cuts == 0 ? null : new Result(List.copyOf(s.out), s.cuts);
    }

    /**
     * @param lines the rebuilt lines
     * @param cuts  how many times a table piece broke into an NCCL line
     */
    record Result(List<Line> lines, int cuts) {
        /** @return the lines' texts */
        String[] texts() {
            return lines.stream().map(Line::text).toArray(String[]::new);
        }

        /** @return the lines' numbers in the file */
        int[] lineNumbers() {
            return lines.stream().mapToInt(Line::line).toArray();
        }
    }

    private void line(String s, int n) {
        int pos = 0;
        boolean inNccl;
        if (nccl != null && startsNccl(s, 0)) {
            // the broken line never resumed: the newline before this one was its own
            emit(new Line(nccl.toString(), ncclLine), true);
            nccl = null;
        }
        if (nccl == null && startsNccl(s, 0)) {
            nccl = new StringBuilder();
            ncclLine = n;
            inNccl = true;
        } else {
            inNccl = false;
        }
        while (pos < s.length()) {
            if (inNccl) {
                int from = nccl.length() == 0 ? ncclBodyStart(s, pos) : pos;
                int cut = findCut(s, from);
                if (cut < 0) {
                    nccl.append(s, pos, s.length());
                    pos = s.length();
                } else {
                    nccl.append(s, pos, cut);
                    pos = cut;
                    cuts++;
                    inNccl = false;
                }
                continue;
            }
            int used = tablePiece(s, pos, n);
            if (used > 0) {
                pos += used;
            } else if (nccl != null) {
                inNccl = true;
            } else if (pieces > 0 && startsNccl(s, pos)) {
                // an NCCL line (stderr, unbuffered) started inside a row that stdout had not finished
                nccl = new StringBuilder();
                ncclLine = n;
                inNccl = true;
                cuts++;
            } else {
                startTable(n);
                table.append(s, pos, s.length());
                pieces = -1;
                pos = s.length();
            }
        }
        endOfLine(inNccl, n);
    }

    private void endOfLine(boolean inNccl, int n) {
        boolean tableLineDone = pieces < 0 || pieces == last() || pieces >= 3 && !inNccl || pieces == 0 && !inNccl;
        if (!inNccl && tableLineDone) {
            if (pieces == 0) {
                tableLine = n;
            }
            emitTable();
            return;
        }
        if (nccl != null) {
            emit(new Line(nccl.toString(), ncclLine), true);
            nccl = null;
        }
        if (pieces == last() || pieces > 0 && !inNccl) {
            emitTable();
        }
    }

    /** @return the characters of table text at pos (one piece, or a whole comment line), 0 when none fits */
    private int tablePiece(String s, int pos, int n) {
        int len = pieceAt(s, pos);
        if (len > 0) {
            startTable(n);
            table.append(s, pos, pos + len);
            pieces = s.charAt(pos) == '#' ? -1 : pieces + 1;
        }
        return len;
    }

    private int pieceAt(String s, int pos) {
        if (pieces == 0) {
            if (s.charAt(pos) == '#' && (pos + 1 == s.length() || s.charAt(pos + 1) == ' ' || s.charAt(pos + 1) == '#')) {
                return s.length() - pos;
            }
            return TablePieces.preamble(s, pos);
        }
        if (pieces == 3 && stamped) {
            return TablePieces.timestamp(s, pos);
        }
        return pieces == 1 || pieces == 2 ? TablePieces.body(s, pos, perIter) : -1;
    }

    private int findCut(String s, int from) {
        if (pieces < 0 || pieces == last()) {
            return -1;
        }
        for (int c = from; c < s.length(); c++) {
            char ch = s.charAt(c);
            if ((ch == ' ' || ch == '#' || Character.isDigit(ch)) && pieceAt(s, c) > 0) {
                return c;
            }
        }
        return -1;
    }

    private void startTable(int n) {
        if (table.length() == 0 && pieces == 0) {
            tableLine = n;
        }
    }

    private void emitTable() {
        String t = table.toString();
        if (t.contains("i_min")) {
            perIter = true;
        }
        if (t.startsWith("#") && t.contains("timestamp")) {
            stamped = true;
        }
        emit(new Line(t, tableLine), false);
        table.setLength(0);
        pieces = 0;
    }

    private void emit(Line l, boolean fromNccl) {
        String t = l.text().strip();
        boolean releases = fromNccl ? !t.contains("Bytes -> Algo") : !(t.isEmpty() || t.equals("#"));
        if (held != null && releases) {
            out.add(held);
            held = null;
        }
        if (!fromNccl && t.startsWith(CONCLUDED)) {
            held = l;
            return;
        }
        out.add(l);
    }

    private void finish() {
        if (nccl != null) {
            out.add(new Line(nccl.toString(), ncclLine));
        }
        if (table.length() > 0) {
            out.add(new Line(table.toString(), tableLine));
        }
        if (held != null) {
            out.add(held);
        }
    }

    /** @return the number of pieces of a whole row: preamble, two halves, and the -S timestamp when printed */
    private int last() {
        return stamped ? 4 : 3;
    }

    /** @return true when an NCCL line starts at pos (matched there only: a long line is not scanned, c20) */
    private static boolean startsNccl(String s, int pos) {
        Matcher m = NCCL_START.matcher(s).region(pos, s.length());
        return m.lookingAt();
    }

    /** @return where the message of an NCCL line starting at pos begins */
    private static int ncclBodyStart(String s, int pos) {
        Matcher m = NCCL_START.matcher(s);
        return m.find(pos) ? m.end() : pos;
    }
}
