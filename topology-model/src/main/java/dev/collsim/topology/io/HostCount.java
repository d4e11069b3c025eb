package dev.collsim.topology.io;

import dev.collsim.topology.catalog.Catalog;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one reader of a host count written after a name, as {@code -c} takes it: {@code NAMExN} or {@code NAME:N} for
 * N hosts of a catalog host type ({@code dgx-h100x2}, {@code dgx-h100:2}), {@code FILE:N} for N copies of a machine
 * file's host, and a cluster YAML's {@code hosts:} field, where such a count is refused with its YAML spelling. A
 * count with a stray suffix ({@code dgx-h100:2x}, {@code dgx-h100x2.5}) is refused with one message
 * ({@link #stray}), never read as the name alone. Immutable values, no state.
 *
 * @param name  the name before the count, as typed
 * @param count the count, digits only (may be 0 or too large: callers say so)
 */
public record HostCount(String name, String count) {

    /** A count after an unknown name, as a user may type it: x after a digit or a space, or a colon. */
    private static final Pattern COUNT_SUFFIX = Pattern.compile("(?i)(?:(?<=[0-9\\s])x|:)\\s*(\\d+)$");

    /**
     * @param text  what the user gave, e.g. {@code dgx-h100x2} or {@code machine.txt:4}
     * @param known whether a name before the count is one the caller reads (a catalog host type, an existing file)
     * @param xToo  true when {@code x} separates too (a catalog name: {@code dgx-h100x2}); false for a file
     * @return the name and the count, empty when the text is not a known name followed by a whole-number count
     */
    public static Optional<HostCount> split(String text, Predicate<String> known, boolean xToo) {
        String t = text == null ? "" : text.trim();
        for (int at = 1; at < t.length(); at++) {
            char c = Character.toLowerCase(t.charAt(at));
            String name = t.substring(0, at);
            String rest = t.substring(at + 1);
            if ((c == ':' || xToo && c == 'x') && rest.matches("[0-9]+") && known.test(name)) {
                return Optional.of(new HostCount(name, rest));
            }
        }
        return Optional.empty();
    }

    /**
     * The refusal of a count with a stray suffix or no digits: a known name, then {@code :} followed by anything that
     * is not a whole number, or {@code x} followed by a digit and then more than digits ({@code dgx-h100:2x},
     * {@code dgx-h100:}, {@code dgx-h100x2x}, {@code machine.txt:two}).
     *
     * @param text    what the user gave
     * @param known   whether a name is one the caller reads
     * @param xToo    true when {@code x} separates too (a catalog name); false for a file
     * @param example how the allowed form reads, e.g. {@code NAMExN or NAME:N (N hosts of a catalog host type)}
     * @return the message (what was found, what is allowed, an example with the digits found), or empty
     */
    public static Optional<String> stray(String text, Predicate<String> known, boolean xToo, String example) {
        String t = text == null ? "" : text.trim();
        for (int at = 1; at < t.length(); at++) {
            char c = Character.toLowerCase(t.charAt(at));
            String name = t.substring(0, at).trim();
            String rest = t.substring(at + 1).trim();
            boolean attempt = c == ':' || xToo && c == 'x' && !rest.isEmpty() && Character.isDigit(rest.charAt(0));
            if (attempt && !name.isEmpty() && !rest.matches("[0-9]+") && known.test(name)) {
                String digits = rest.replaceAll("^([0-9]*).*", "$1");
                String n = digits.isEmpty() || digits.matches("0+") ? "2" : digits;
                return Optional.of("'" + name + "' is followed by '" + t.substring(at) + "', which is not a host"
                        + " count; allowed: " + example + " with N a whole number >= 1, e.g. " + name + (c == ':'
                        ? ":" : "x") + n);
            }
        }
        return Optional.empty();
    }

    /**
     * @param name a name as typed
     * @return true when it is a catalog host type or alias (case-insensitive), the names NAMExN counts
     */
    public static boolean catalogType(String name) {
        return Catalog.hostType(name).isPresent();
    }

    /**
     * A count at the end of a name that may be misspelt, for a "did you mean": {@code dgx_h100:2} and
     * {@code dgx-h100 x 2} give {@code dgx_h100} / {@code dgx-h100} and 2; not the x of {@code rtx4090}.
     *
     * @param text what the user gave
     * @return the name and the count, empty when the text ends in no count
     */
    public static Optional<HostCount> trailing(String text) {
        String t = text == null ? "" : text.trim();
        Matcher m = COUNT_SUFFIX.matcher(t);
        return m.find() ? Optional.of(new HostCount(t.substring(0, m.start()).trim(), m.group(1))) : Optional.empty();
    }

    /** @return the name in lower case (catalog names are case-insensitive) */
    public String lowerName() {
        return name.toLowerCase(Locale.ROOT);
    }
}
