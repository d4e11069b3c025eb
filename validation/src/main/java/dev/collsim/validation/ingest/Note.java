package dev.collsim.validation.ingest;

import java.util.Objects;

/**
 * A remark a reader made about the input that did not stop it: an elided block, a truncated row, a claim in the
 * header that the table contradicts. Diagnose shows notes as evidence.
 *
 * @param line 1-based line in the source file, 0 when the note concerns the whole file
 * @param text plain-words remark
 */
public record Note(int line, String text) {

    /** @throws NullPointerException when text is null */
    public Note {
        Objects.requireNonNull(text, "text");
    }

    @Override
    public String toString() {
        return (line > 0 ? "line " + line + ": " : "") + text;
    }
}
