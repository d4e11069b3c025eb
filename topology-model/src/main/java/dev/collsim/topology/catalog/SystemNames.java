package dev.collsim.topology.catalog;

import java.util.Locale;

/**
 * How the catalog finds a system's name in free text ({@link Catalog#recognise}): lower case, runs of spaces, hyphens
 * and underscores as one hyphen, and a match only where no letter or digit touches the name. Stateless.
 */
final class SystemNames {

    private SystemNames() {
    }

    /** @param text any text (null allowed); @return it lower case, spaces/hyphens/underscores as one hyphen */
    static String normalise(String text) {
        return text == null ? "" : text.toLowerCase(Locale.ROOT).replaceAll("[\\s_-]+", "-");
    }

    /**
     * @param text normalised text
     * @param name normalised name
     * @return the first index where {@code name} stands alone in {@code text}, or -1
     */
    static int find(String text, String name) {
        if (name.isEmpty()) {
            return -1;
        }
        for (int at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
            int end = at + name.length();
            boolean before = at == 0 || !Character.isLetterOrDigit(text.charAt(at - 1));
            boolean after = end == text.length() || !Character.isLetterOrDigit(text.charAt(end));
            if (before && after) {
                return at;
            }
        }
        return -1;
    }
}
