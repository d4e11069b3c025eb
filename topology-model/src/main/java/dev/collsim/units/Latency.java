package dev.collsim.units;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A latency in microseconds. This record is immutable.
 *
 * @param micros latency in microseconds; finite and non-negative
 */
public record Latency(double micros) implements Comparable<Latency> {

    /** Units accepted by {@link #parse(String)}. */
    public static final String ALLOWED_UNITS = "ns, us, ms, s";

    private static final Pattern TEXT =
            Pattern.compile("\\s*([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*(ns|us|µs|ms|s)\\s*");

    /** No latency. */
    public static final Latency ZERO = new Latency(0);

    /** @throws IllegalArgumentException if negative, NaN or infinite */
    public Latency {
        if (!(micros >= 0) || Double.isInfinite(micros)) {
            throw new IllegalArgumentException("latency must be finite and >= 0 us, got " + micros);
        }
    }

    /** @param micros microseconds; @return the latency */
    public static Latency ofMicros(double micros) {
        return new Latency(micros);
    }

    /**
     * Parses a latency with its unit, e.g. {@code "0.6 us"}, {@code "600 ns"}.
     *
     * @throws IllegalArgumentException naming the text and {@link #ALLOWED_UNITS}
     */
    public static Latency parse(String text) {
        Matcher m = TEXT.matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a latency; use a number with one of "
                    + ALLOWED_UNITS);
        }
        double v = Double.parseDouble(m.group(1));
        return new Latency(switch (m.group(2)) {
            case "ns" -> v / 1000.0;
            case "ms" -> v * 1000.0;
            case "s" -> v * 1e6;
            default -> v;
        });
    }

    @Override
    public int compareTo(Latency o) {
        return Double.compare(micros, o.micros);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.4g us", micros);
    }
}
