package dev.collsim.validation.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says in one note what a table that was cut short lost: a last row cut in its middle, and a table that stops
 * before the sizes its run asked for (no footer, and the last size below the {@code maxBytes} of nccl-tests'
 * {@code # nThread ... maxBytes N} line). The rows that are there are kept. Stateless.
 */
final class CutShort {

    private static final Pattern MAX_OPTION = Pattern.compile("(?:^|\\s)(?:-e|--maxbytes)[ =](\\S+)");

    /**
     * nccl-tests' {@code -T} watchdog message, printed into the row being measured before the run stops: {@code
     * printf("%s: Test timeout (%ds) %s:%d\n", hostname, timeout, __FILE__, __LINE__)} (2.13.9 to 2.19.6
     * {@code src/common.cu testStreamSynchronize}).
     */
    private static final Pattern TIMEOUT = Pattern.compile("Test timeout \\((\\d+)s\\)");

    private CutShort() {
    }

    /**
     * nccl-tests' failure messages, printed with {@code printf} into the row being measured when a call fails (the row
     * has no newline yet): {@code CUDACHECK} "%s: Test CUDA failure %s:%d '%s'", {@code NCCLCHECK} "%s: Test NCCL
     * failure %s:%d '%s / %s'" and {@code TESTCHECK} " .. %s pid %d: Test failure %s:%d" (2.19.6 {@code
     * src/common.h}; 2.13 and later).
     */
    private static final Pattern FAILURE = Pattern.compile("Test (?:CUDA |NCCL )?failure \\S+:\\d+");
    /** What a row, footer or header of a table starts with (a later line like this makes a cut row a broken one). */
    private static final Pattern TABLE = Pattern.compile("^\\d+\\s+\\d+\\s+\\S+|Avg bus bandwidth|Out of bounds values"
            + "|^#\\s*size\\s+count");
    /** What starts another run: nccl-tests' preamble, a {@code *_perf} command line, a section title. */
    private static final Pattern RUN_START = Pattern.compile("nccl-tests version|Collective test starting|^# nThread"
            + "|^# Using devices|_perf\\b|^##");

    /**
     * @param row a table row as read
     * @return what stopped the run inside it, in words, when the row holds nccl-tests' {@code -T} timeout message
     *         or one of its failure messages ({@link #FAILURE})
     */
    static Optional<String> stopped(String row) {
        Matcher m = TIMEOUT.matcher(row);
        if (m.find()) {
            return Optional.of("nccl-tests -T stopped the run after " + m.group(1) + " s inside the row ('"
                    + m.group() + "')");
        }
        Matcher f = FAILURE.matcher(row);
        return f.find() ? Optional.of("the run failed inside the row ('" + upTo80(row.substring(f.start()).strip())
                + "')") : Optional.empty();
    }

    /**
     * Whether a row that does not parse is where its run's output ends: a job killed mid-row (a scheduler's time
     * limit, an out-of-memory kill) leaves the row unfinished, and the file may then end with a newline or with the
     * scheduler's or launcher's own lines (Slurm's "slurmstepd: error: *** JOB ... CANCELLED", mpirun's exit
     * notice) but never with more of the table.
     *
     * @param later the file's lines after the row, as read (prefixes such as {@code srun -l}'s are stripped here)
     * @return in words, where the output ends, when no row, footer or table header follows before the file's end or
     *         the next run's preamble; empty when the table goes on (the row is then broken, an error)
     */
    static Optional<String> endsOutput(List<String> later) {
        String next = null;
        for (String raw : later) {
            String t = LinePrefixes.strip(raw).strip();
            if (t.isEmpty()) {
                continue;
            }
            if (RUN_START.matcher(t).find()) {
                break;
            }
            if (TABLE.matcher(t).find()) {
                return Optional.empty();
            }
            next = next == null ? t : next;
        }
        return Optional.of(next == null ? "the file ends inside the row" : "the output ends inside the row (no row,"
                + " footer or table header follows it; next: '" + upTo80(next) + "')");
    }

    private static String upTo80(String t) {
        return t.length() > 80 ? t.substring(0, 80) + "..." : t;
    }

    /**
     * @param command a command line (the {@code #@ command} header), may be empty
     * @return the bytes of its nccl-tests {@code -e}/{@code --maxbytes} option when it names one
     *         {@code *_perf} binary, else 0
     */
    static long maxBytesOf(String command) {
        Matcher m = MAX_OPTION.matcher(command == null ? "" : command);
        if (Claims.perfBinaries(command == null ? "" : command).size() != 1 || !m.find()) {
            return 0;
        }
        try {
            return SizeLabel.parse(m.group(1));
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    /**
     * @param rows     the table's rows, in file order
     * @param cutRow   what was cut from the last row, empty when it is whole
     * @param noFooter true when the table ended without nccl-tests' {@code Avg bus bandwidth} footer
     * @param maxBytes the run's maxBytes, bytes; 0 when unknown
     * @return the note, empty when nothing was cut; a warning ({@link Note#warning}) when sizes the run asked for are
     *         missing, which every command prints
     */
    static Optional<Note> note(List<PerfPoint> rows, String cutRow, boolean noFooter, long maxBytes) {
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        PerfPoint last = rows.get(rows.size() - 1);
        List<String> parts = new ArrayList<>();
        if (!cutRow.isEmpty()) {
            parts.add(cutRow);
        }
        // the largest size, not the last: a table whose rows repeat (cycles, pasted runs) reached maxBytes before
        long largest = rows.stream().mapToLong(PerfPoint::sizeBytes).max().orElse(0);
        if (noFooter && maxBytes > 0 && largest < maxBytes) {
            parts.add("the table stops at " + last.sizeBytes() + " B (line " + last.line() + ") without nccl-tests' "
                    + "footer, the run asked for sizes up to " + maxBytes + " B");
        }
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        String text = "output cut short: " + String.join("; ", parts);
        // sizes the run asked for are missing: a warning, which compare and diagnose print (a plain note was silent)
        return Optional.of(parts.get(parts.size() - 1).startsWith("the table stops") ? Note.warning(last.line(), text)
                : new Note(last.line(), text));
    }
}
