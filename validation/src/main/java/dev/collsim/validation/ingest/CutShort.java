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
     * @param row a table row as read
     * @return what stopped the run inside it, in words, when the row holds nccl-tests' {@code -T} timeout message
     */
    static Optional<String> timeout(String row) {
        Matcher m = TIMEOUT.matcher(row);
        return m.find() ? Optional.of("nccl-tests -T stopped the run after " + m.group(1) + " s inside the row ('"
                + m.group() + "')") : Optional.empty();
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
     * @return the note, empty when nothing was cut
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
        if (noFooter && maxBytes > 0 && last.sizeBytes() < maxBytes) {
            parts.add("the table stops at " + last.sizeBytes() + " B (line " + last.line() + ") without nccl-tests' "
                    + "footer, the run asked for sizes up to " + maxBytes + " B");
        }
        return parts.isEmpty() ? Optional.empty()
                : Optional.of(new Note(last.line(), "output cut short: " + String.join("; ", parts)));
    }
}
