package dev.collsim.io;

import java.util.regex.Matcher;

/**
 * The one place where numbers in a user's file are turned into Java numbers: whole numbers that do not fit their
 * type (a digit run such as {@code 99999999999} where an int is expected), decimals that are not one number
 * ({@code 67.92.17}, {@code -}), and the words {@code NaN} and {@code Infinity} (which {@link Double#parseDouble}
 * accepts) are refused with a {@link NumberField.Refused} that names the field, the column, what was found and what
 * is allowed; the reader adds its file and line ({@link Refused#at(String, int)}) and goes on with the next line, so
 * every problem of a file is listed. Never a NumberFormatException, never a silent clamp.
 */
public final class NumberField {

    private NumberField() {
    }

    /**
     * A number a file holds that its field cannot take. Unchecked so that a regular-expression parser can throw it
     * from deep inside a line's handling; each reader catches it per line.
     */
    public static final class Refused extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        private final String field;
        private final int column;

        /**
         * @param field   the field's name as the format calls it (e.g. {@code pid}, {@code nGpus})
         * @param column  1-based column of the value in its line, 0 when unknown
         * @param message what was found and what is allowed (the field is not repeated: {@link InputProblem} names it)
         */
        public Refused(String field, int column, String message) {
            super(message);
            this.field = field;
            this.column = column;
        }

        /** @return the field's name */
        public String field() {
            return field;
        }

        /** @return 1-based column of the value, 0 when unknown */
        public int column() {
            return column;
        }

        /**
         * @param file the file as the user gave it
         * @param line 1-based line of the value
         * @return the located problem
         */
        public InputProblem at(String file, int line) {
            return new InputProblem(file, line, column, field, getMessage());
        }

        /**
         * @param offset characters before the text the column was counted in (a line prefix the reader removed)
         * @return the same refusal with its column moved by {@code offset}
         */
        public Refused shifted(int offset) {
            return new Refused(field, column == 0 ? 0 : column + offset, getMessage());
        }
    }

    /**
     * @param text   the digits (an optional leading {@code -} or {@code +})
     * @param field  the field's name, for the message
     * @param column 1-based column of the text, 0 when unknown
     * @param min    smallest allowed value
     * @param max    largest allowed value
     * @return the value
     * @throws Refused when the text is not a whole number or lies outside [min, max]
     */
    public static long wholeNumber(String text, String field, int column, long min, long max) {
        String t = text.strip();
        long v;
        try {
            v = Long.parseLong(t);
        } catch (NumberFormatException e) {
            String why = t.matches("[+-]?\\d+") ? " (too large)" : "";
            throw new Refused(field, column, "found '" + abbreviate(t) + "'" + why + "; allowed: a whole "
                    + "number from " + min + " to " + max);
        }
        if (v < min || v > max) {
            throw new Refused(field, column, "found " + v + "; allowed: a whole number from " + min + " to "
                    + max);
        }
        return v;
    }

    /**
     * @param text   the text
     * @param field  the field's name
     * @param column 1-based column, 0 when unknown
     * @return the value, an int from 0 to {@link Integer#MAX_VALUE}
     * @throws Refused see {@link #wholeNumber}
     */
    public static int count(String text, String field, int column) {
        return (int) wholeNumber(text, field, column, 0, Integer.MAX_VALUE);
    }

    /**
     * @param m     a matcher that matched
     * @param group the group holding the digits
     * @param field the field's name
     * @return the group as an int from 0 to {@link Integer#MAX_VALUE}, column taken from the match
     * @throws Refused see {@link #wholeNumber}
     */
    public static int count(Matcher m, int group, String field) {
        return count(m.group(group), field, m.start(group) + 1);
    }

    /**
     * @param m     a matcher that matched
     * @param group the group holding the digits
     * @param field the field's name
     * @return the group as a long from 0 to {@link Long#MAX_VALUE}
     * @throws Refused see {@link #wholeNumber}
     */
    public static long longCount(Matcher m, int group, String field) {
        return wholeNumber(m.group(group), field, m.start(group) + 1, 0, Long.MAX_VALUE);
    }

    /**
     * @param text   the text of one decimal number ({@code 12}, {@code -0.5}, {@code 1.2e3})
     * @param field  the field's name
     * @param column 1-based column, 0 when unknown
     * @return the value, finite
     * @throws Refused when the text is not one finite decimal number ({@code NaN}, {@code Infinity}, {@code 1e999},
     *                 {@code 67.92.17}, {@code -})
     */
    public static double finite(String text, String field, int column) {
        String t = text.strip();
        double v;
        try {
            v = t.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?") ? Double.parseDouble(t) : Double.NaN;
        } catch (NumberFormatException e) {
            v = Double.NaN;
        }
        if (!Double.isFinite(v)) {
            throw new Refused(field, column, "found '" + abbreviate(t) + "'; allowed: a finite decimal "
                    + "number, e.g. 12.5 or 1.2e3");
        }
        return v;
    }

    /**
     * @param m     a matcher that matched
     * @param group the group holding the number
     * @param field the field's name
     * @return the group as a finite double
     * @throws Refused see {@link #finite(String, String, int)}
     */
    public static double finite(Matcher m, int group, String field) {
        return finite(m.group(group), field, m.start(group) + 1);
    }

    private static String abbreviate(String t) {
        return t.length() > 40 ? t.substring(0, 40) + "..." : t;
    }
}
