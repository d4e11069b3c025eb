package dev.collsim.validation.ingest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A line prefix that a launcher or log collector put before each line of nccl-tests output and that
 * {@link LinePrefixes} does not know by name, learned from the file itself: the text before nccl-tests' own comment
 * lines, which nccl-tests 2.19.6 {@code src/util.cu} (lines 623-780) always prints at the start of a line with a {@code '#'}
 * ({@code "# nThread ..."}, {@code "#  Rank ..."}, the column titles {@code "#  size  count  type"}, {@code "# Out of
 * bounds values"}, {@code "# Avg bus bandwidth"}, {@code "# Collective test ..."}, {@code "# Using devices"}).
 *
 * <p>Prefixes read this way include Open MPI 4's {@code mpirun --timestamp-output} (ompi v4.1
 * {@code orte/mca/iof/base/iof_base_output.c}, {@code orte_iof_base_write_output}: {@code ctime()} without its
 * newline, then {@code "[job,rank]<stdout>:"} with {@code --tag-output} or {@code "<stdout>:"} alone, as in
 * {@code "Sun Dec  6 12:48:27 2026[1,0]<stdout>:"}), MPICH/Intel MPI {@code mpiexec -prepend-rank} ({@code "[0] "}),
 * {@code kubectl logs --prefix} ({@code "[pod/NAME/CONTAINER] "}, with or without {@code --timestamps} after it),
 * {@code pdsh} ({@code "host: "}), {@code docker compose logs} ({@code "service-1  | "}) and journald lines
 * ({@code "Dec 06 12:48:27 host unit[pid]: "}). ANSI colour codes (SGR, {@code ESC [ ... m}) that coloured log
 * viewers add are removed everywhere.
 *
 * <p>The shape of each prefix keeps its punctuation and turns every run of letters, digits and {@code _ . - /} into
 * "one or more such characters" and every run of spaces but the last into "one or more spaces" (the last keeps its
 * length: the spaces after it are the line's own), so that a rank number, a host
 * name or a time stamp may change from line to line. A shape is learned only when at least two anchor lines carry
 * it, and it is removed only where it stands at the start of a line: a file without such a prefix is read exactly
 * as before. Immutable.
 */
final class LearnedPrefix {

    /** nccl-tests' own comment lines (see the class comment); the match starts at their {@code '#'}. */
    private static final Pattern ANCHOR = Pattern.compile("#\\s*(?:nThread\\s+\\d|Rank\\s+\\d+\\s|Using devices"
            + "|size\\s+count\\s+type\\b|Out of bounds values|Avg bus bandwidth|Collective test (?:starting|concluded))");
    /** ECMA-48 SGR sequences (colour), as {@code kubectl}/{@code stern}/{@code docker compose} may print them. */
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");
    /**
     * The tags a launcher writes before each chunk, also mid-line: Open MPI's {@code --tag-output} and
     * {@code --timestamp-output} ({@code ctime()} = {@code "Sun Dec  6 12:48:27 2026"}, then {@code "[job,rank]"}
     * with tagging, then {@code "<stdout>:"}), MPICH's {@code -prepend-rank} ({@code "[rank] "}). A learned shape is
     * not used mid-line: its word runs would reach back into the row's last number.
     */
    private static final String KNOWN_TAGS = "(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \\d]\\d "
            + "\\d{2}:\\d{2}:\\d{2} \\d{4})?(?:" + LinePrefixes.OPEN_MPI_TAG + "|<std(?:out|err|diag)>:)|\\[\\d+\\] ";
    /** NCCL's {@code HOST:PID:TID [dev] NCCL} just ahead (NCCL {@code src/debug.cc}). */
    private static final String NCCL_AHEAD = "(?=[^\\s:\\[\\]]+:\\d+:\\d+ \\[\\d+\\] NCCL )";
    private static final Pattern TOKEN = Pattern.compile("[\\w./-]+| +|.", Pattern.DOTALL);
    /** Anchor lines that must carry one shape before it is learned (one stray line teaches nothing). */
    private static final int MIN_ANCHORS = 2;
    /** The most shapes kept per file (stdout/stderr or two pods may differ; more is not a launcher's prefix). */
    private static final int MAX_SHAPES = 4;

    /** A known tag right before a mid-line NCCL line (see {@link #bare}). */
    private static final Pattern MID_LINE = Pattern.compile("(?:" + KNOWN_TAGS + ")" + NCCL_AHEAD);
    /**
     * A known tag between two columns of one table row (see {@link #strip}): right after a number or {@code N/A}
     * and right before the next one.
     */
    private static final Pattern MID_ROW = Pattern.compile("(?<=[\\dA])(?:" + KNOWN_TAGS
            + ")(?=\\s*(?:\\d[\\d.e+-]*|N/A)(?:\\s|$))");
    private static final LearnedPrefix NONE = new LearnedPrefix(null);

    private final Pattern shapes;

    /** @param alternatives the learned shapes as one regular expression of alternatives, or null for none */
    private LearnedPrefix(String alternatives) {
        this.shapes = alternatives == null ? null : Pattern.compile("^(?:" + alternatives + ")");
    }

    /**
     * @param lines the file's lines, as they stand in the file
     * @return the prefixes learned from the file's anchor lines (none when its anchor lines start with {@code '#'}
     *         once {@link LinePrefixes} removed what it knows)
     */
    static LearnedPrefix of(String[] lines) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String raw : lines) {
            String line = ANSI.matcher(raw).replaceAll("");
            Matcher m = ANCHOR.matcher(line);
            if (!m.find() || m.start() == 0 || LinePrefixes.strip(line).strip().startsWith("#")) {
                continue;
            }
            String prefix = line.substring(0, m.start());
            if (!prefix.isBlank()) {
                counts.merge(shape(prefix), 1, Integer::sum);
            }
        }
        List<String> kept = new ArrayList<>();
        counts.entrySet().stream().filter(e -> e.getValue() >= MIN_ANCHORS)
                .sorted((a, b) -> b.getValue() - a.getValue()).limit(MAX_SHAPES).forEach(e -> kept.add(e.getKey()));
        return kept.isEmpty() ? NONE : new LearnedPrefix(String.join("|", kept));
    }

    /** @return the regular expression of a prefix's shape (see the class comment) */
    static String shape(String prefix) {
        StringBuilder b = new StringBuilder();
        Matcher t = TOKEN.matcher(prefix);
        while (t.find()) {
            String s = t.group();
            if (s.charAt(0) == ' ') {
                // inner runs vary ("Dec  6" / "Dec 16", padded names); the last is the prefix's own, the row's follow
                b.append(t.end() == prefix.length() ? " {" + s.length() + "}" : " +");
            } else if (s.length() > 1 || s.matches("[\\w./-]")) {
                b.append("[\\w./-]+");
            } else {
                b.append(Pattern.quote(s));
            }
        }
        return b.toString();
    }

    /**
     * The lines without their prefixes, for {@link InterleavedStreams}: a launcher that tags each chunk it forwards
     * (Open MPI's {@code --tag-output}: ompi v4.1 {@code orte_iof_base_write_output} writes the tag before every
     * chunk and adds no newline to a chunk that lacks one; MPICH's {@code -prepend-rank} alike) puts a tag in the middle of
     * a line where NCCL's stderr line breaks into a row that nccl-tests' stdout had not finished, as in
     * {@code "[0]   8192   2048   float   sum   -1[0] host:1:2 [0] NCCL INFO ..."}; such a tag is removed too.
     *
     * @param raw the file's lines
     * @return the same number of lines, each as {@link #strip} gives it and without a tag before a mid-line NCCL
     *         line (the array itself when no line changes)
     */
    String[] bare(String[] raw) {
        String[] out = new String[raw.length];
        boolean changed = false;
        for (int i = 0; i < raw.length; i++) {
            out[i] = MID_LINE.matcher(strip(raw[i])).replaceAll("");
            changed |= !out[i].equals(raw[i]);
        }
        return changed ? out : raw;
    }

    /** @return true when a prefix was learned */
    boolean learned() {
        return shapes != null;
    }

    /**
     * A launcher that tags each chunk it forwards also tags the pieces nccl-tests prints one row in: nccl-tests
     * v2.13.9 {@code src/common.cu} prints a row's size..root columns (line 602), then each half's time, algbw, busbw
     * and #wrong (lines 555/557), then the newline (line 605), so {@code mpirun --tag-output} writes
     * {@code "   8   2   float   sum   -1[1,0]<stdout>:    85.70 ...   0[1,0]<stdout>:    74.97 ..."} (the p5 EKS
     * file of the corpus); such a tag between two columns is removed.
     *
     * @param raw a line as it stands in the file
     * @return the line without colour codes and a learned prefix at its start, then without what
     *         {@link LinePrefixes#strip} removes, then without known tags between a row's columns
     */
    String strip(String raw) {
        String line = raw.indexOf('\u001B') < 0 ? raw : ANSI.matcher(raw).replaceAll("");
        String t = LinePrefixes.strip(shapes == null ? line : shapes.matcher(line).replaceFirst(""));
        return t.indexOf(':') < 0 && t.indexOf(']') < 0 ? t : MID_ROW.matcher(t).replaceAll("");
    }
}
