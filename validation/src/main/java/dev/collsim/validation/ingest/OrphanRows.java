package dev.collsim.validation.ingest;

import dev.collsim.io.InputProblem;
import java.util.Locale;
import java.util.Optional;

/**
 * Data rows of an nccl-tests text file read before any table header: one problem for all of them (the first row's
 * line, how many and up to which line), not one per row, naming the line that looked like the header but was not
 * one (a {@code # size count ...} comment without nccl-tests' {@code time} and {@code busbw} columns, e.g. a
 * hand-edited {@code time(us)}) when there is one. Header format: nccl-tests 2.19.6 {@code src/util.cu
 * writeResultHeader}. Mutable, one per file.
 */
final class OrphanRows {

    private int first;
    private int last;
    private int count;
    private int headerLine;
    private String header;

    /**
     * @param comment a comment line, stripped, that {@code NcclTestsLayout.parse} did not take as a header
     * @param line    its 1-based line
     */
    void comment(String comment, int line) {
        String[] tok = comment.replaceFirst("^#+", "").strip().split("\\s+");
        if (header == null && tok.length >= 2 && tok[0].equalsIgnoreCase("size") && tok[1].equalsIgnoreCase("count")) {
            header = comment.length() > 100 ? comment.substring(0, 100) + "..." : comment;
            headerLine = line;
        }
    }

    /** @param line the 1-based line of a data row met while no table header was in force */
    void row(int line) {
        if (count++ == 0) {
            first = line;
        }
        last = line;
    }

    /**
     * @param file name to cite
     * @return the one problem, at the first such row; empty when there was none
     */
    Optional<InputProblem> problem(String file) {
        if (count == 0) {
            return Optional.empty();
        }
        String rows = count == 1 ? "a data row" : String.format(Locale.ROOT, "%d data rows (lines %d to %d)", count,
                first, last);
        String near = header == null ? "" : String.format(Locale.ROOT, "; line %d ('%s') is not one: it lacks"
                + " nccl-tests' 'time' (or 'cputime') and 'busbw' columns", headerLine, header);
        return Optional.of(new InputProblem(file, first, 1, "row", rows + " before any nccl-tests table header"
                + near + "; allowed: rows under a header '#  size  count  type  redop  root  time  algbw  busbw"
                + "  #wrong ...'"));
    }
}
