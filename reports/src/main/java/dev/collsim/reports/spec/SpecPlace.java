package dev.collsim.reports.spec;

/**
 * Where a key's value sits in a spec file, to report a problem found after reading (when a variant is built on its
 * base cluster) at the key itself. Immutable.
 *
 * @param line   1-based line
 * @param column 1-based column
 */
public record SpecPlace(int line, int column) {
}
