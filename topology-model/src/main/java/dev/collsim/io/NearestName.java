package dev.collsim.io;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * The one "did you mean" rule for a name that is none of the allowed names (a catalog host type, a spec's key): the
 * allowed name at the smallest edit distance, case ignored, accepted when at most a third of the longer name's
 * characters differ, so {@code dgx-h1000} suggests {@code dgx-h100} and {@code colectives} suggests
 * {@code collectives}, while an unrelated word suggests nothing. The distance is the optimal string alignment
 * distance (Levenshtein's insert, delete and replace, plus swapping two adjacent characters as one edit; Damerau 1964,
 * "A technique for computer detection and correction of spelling errors"), so the commonest typo, two letters
 * swapped ({@code Rnig}, {@code allredcue}), counts once and is suggested. Stateless.
 */
public final class NearestName {

    private NearestName() {
    }

    /**
     * @param typed   the name as the user wrote it
     * @param allowed the names it may be, in their order (the first of equally near ones wins)
     * @return the nearest allowed name as spelt in {@code allowed}, or empty when none is near enough
     */
    public static Optional<String> of(String typed, Collection<String> allowed) {
        if (typed == null || typed.isBlank()) {
            return Optional.empty();
        }
        String key = typed.trim().toLowerCase(Locale.ROOT);
        String best = null;
        int bestD = Integer.MAX_VALUE;
        for (String c : allowed) {
            int d = distance(key, c.toLowerCase(Locale.ROOT));
            if (d < bestD) {
                bestD = d;
                best = c;
            }
        }
        return best == null || bestD * 3 > Math.max(key.length(), best.length()) ? Optional.empty()
                : Optional.of(best);
    }

    /**
     * @return the optimal string alignment distance of {@code a} and {@code b}: the fewest single-character inserts,
     *         deletes, replacements and swaps of two adjacent characters that turn one into the other, no substring
     *         edited twice
     */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        return d[a.length()][b.length()];
    }

    /**
     * @param typed   the name as the user wrote it
     * @param allowed the names it may be
     * @return {@code "; did you mean 'NAME'?"} for the nearest allowed name ({@link #of}), else empty text
     */
    public static String hint(String typed, Collection<String> allowed) {
        return of(typed, allowed).map(n -> "; did you mean '" + n + "'?").orElse("");
    }
}
