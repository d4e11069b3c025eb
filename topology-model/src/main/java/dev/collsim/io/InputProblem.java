package dev.collsim.io;

import java.util.Objects;

/**
 * One problem found in a user's input file, printed compiler-style:
 * {@code file:line:column: field: message}.
 *
 * @param file    file name as the user gave it (or {@code <stdin>}, {@code <catalog:name>})
 * @param line    1-based line, or 0 when unknown
 * @param column  1-based column, or 0 when unknown
 * @param field   field path, e.g. {@code templates.dgx-h100.nics.speed}, or empty
 * @param message what was found and what is allowed
 */
public record InputProblem(String file, int line, int column, String field, String message) {

    /** Validates non-null parts. */
    public InputProblem {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(message, "message");
        field = field == null ? "" : field;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(file);
        if (line > 0) {
            sb.append(':').append(line);
            if (column > 0) {
                sb.append(':').append(column);
            }
        }
        sb.append(": ");
        if (!field.isEmpty()) {
            sb.append(field).append(": ");
        }
        return sb.append(message).toString();
    }
}
