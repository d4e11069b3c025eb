package dev.collsim.validation.ingest;

import java.util.Objects;

/**
 * A remark a reader made about the input that did not stop it: an elided block, a truncated row, a claim in the
 * header that the table contradicts. Diagnose shows notes as evidence. A note whose text starts with
 * {@link #WARNING} is a warning: something the reader dropped or read with doubt (an NCCL WARN line inside a results
 * table, a row with a negative time); the commands print warnings on stderr and count them, and diagnose reports
 * each as a finding, so none is silent.
 *
 * @param line 1-based line in the source file, 0 when the note concerns the whole file
 * @param text plain-words remark
 */
public record Note(int line, String text) {

    /**
     * What the text of the note starts with when the file names no collective and the reader took it from the table's
     * columns (compare prints it among its assumptions).
     */
    public static final String NAMES_NO_COLLECTIVE = "the file names no collective (no 'Collective test starting'"
            + " line, *_perf command or title): ";

    /**
     * What the text of the note starts with when the file's title or {@code #@ command} header names one collective
     * and the table's rows (redop, root, size over count) are another's, which the reader took (compare prints it
     * among its assumptions, with the rows' file:line). A claim by the run's own output ({@code Collective test
     * starting}, a {@code *_perf} command line) that the rows contradict is refused instead.
     */
    public static final String CLAIM_CONTRADICTED = "the file claims ";

    /**
     * What the text of the note starts with when the table was timed with nccl-tests {@code -C 1} and its times are
     * taken from algbw ({@link CpuTime}; compare prints it among its assumptions).
     */
    public static final String CPU_TIME = "nccl-tests -C 1 (report_cputime): the time column is the host's time to"
            + " enqueue each call, taken before the GPUs finish";

    /** What the text of a warning starts with (the same spelling as the topology readers' warnings). */
    public static final String WARNING = "warning: ";

    /**
     * @param line 1-based line, 0 for the whole file
     * @param text what was found and what the reader did about it
     * @return a warning note
     */
    public static Note warning(int line, String text) {
        return new Note(line, WARNING + text);
    }

    /** @return true when this note is a warning */
    public boolean isWarning() {
        return text.startsWith(WARNING);
    }

    /** @throws NullPointerException when text is null */
    public Note {
        Objects.requireNonNull(text, "text");
    }

    @Override
    public String toString() {
        return (line > 0 ? "line " + line + ": " : "") + text;
    }
}
