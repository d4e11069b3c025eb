package dev.collsim.io;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * The one "did you mean" rule for a name that is none of the allowed names (a catalog host type, a spec's key): the
 * allowed name at the smallest Levenshtein distance (Apache Commons Text), case ignored, accepted when at most a third
 * of the longer name's characters differ, so {@code dgx-h1000} suggests {@code dgx-h100} and {@code colectives}
 * suggests {@code collectives}, while an unrelated word suggests nothing. Stateless.
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
        LevenshteinDistance distance = LevenshteinDistance.getDefaultInstance();
        String best = null;
        int bestD = Integer.MAX_VALUE;
        for (String c : allowed) {
            int d = distance.apply(key, c.toLowerCase(Locale.ROOT));
            if (d < bestD) {
                bestD = d;
                best = c;
            }
        }
        return best == null || bestD * 3 > Math.max(key.length(), best.length()) ? Optional.empty()
                : Optional.of(best);
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
