package dev.collsim.cli.fuzz;

import java.util.Random;

/**
 * Text mutations for the fuzz targets: 1 to 4 of replacing a digit run by a token, deleting a span, duplicating a
 * span, inserting a token, truncating, or flipping one character; deterministic for a given {@link Random}.
 */
final class Mutator {

    private Mutator() {
    }

    static String mutate(String text, Random r, String[] tokens) {
        StringBuilder s = new StringBuilder(text);
        int n = 1 + r.nextInt(4);
        for (int k = 0; k < n && s.length() > 0; k++) {
            int at = r.nextInt(s.length());
            int len = Math.min(s.length() - at, 1 + r.nextInt(64));
            String token = tokens[r.nextInt(tokens.length)];
            switch (r.nextInt(6)) {
                case 0 -> digits(s, at, token);
                case 1 -> s.delete(at, at + len);
                case 2 -> s.insert(at, s.substring(at, at + len));
                case 3 -> s.insert(at, token);
                case 4 -> s.setLength(at);
                default -> s.setCharAt(at, (char) (32 + r.nextInt(95)));
            }
        }
        return s.toString();
    }

    /** Replaces the first run of digits at or after {@code at} (wrapping to the start) by the token. */
    private static void digits(StringBuilder s, int at, String token) {
        int i = at;
        while (i < s.length() && !Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (i == s.length()) {
            i = 0;
            while (i < s.length() && !Character.isDigit(s.charAt(i))) {
                i++;
            }
            if (i == s.length()) {
                return;
            }
        }
        int j = i;
        while (j < s.length() && Character.isDigit(s.charAt(j))) {
            j++;
        }
        s.replace(i, j, token);
    }
}
