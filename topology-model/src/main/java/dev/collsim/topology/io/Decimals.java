package dev.collsim.topology.io;

import java.util.Locale;

/** Numbers written into files and messages the way a person would write them. Stateless. */
public final class Decimals {

    private Decimals() {
    }

    /** @return {@code x} printed without a trailing {@code .0}, e.g. {@code 400} or {@code 20.6}, for XML attributes */
    public static String plain(double x) {
        if (x == Math.rint(x) && Math.abs(x) < 1e15) {
            return Long.toString((long) x);
        }
        return String.format(Locale.ROOT, "%s", x);
    }
}
