package dev.collsim.units;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Fixed-point text of a number, the same characters as {@code String.format(Locale.ROOT, "%.Nf", value)} but without
 * parsing a format string on every call (a prediction's bottleneck text is built once per sweep point, where the
 * parsing was most of the point's cost). Java's formatter rounds the shortest decimal digits that identify the double
 * (those of {@link Double#toString}) half up at the last kept place (JDK 17 {@code java.util.Formatter},
 * {@code jdk.internal.math.FormattedFloatingDecimal.applyPrecision}); so does this class. Values where the two digit
 * strings could differ or the sign needs care (negative, not finite, magnitude of 1e15 or more) go through
 * {@link String#format} itself. Stateless.
 */
public final class DecimalText {

    /** Below this magnitude a double's shortest digits are the formatter's (no dropped low-order digits). */
    private static final double FAST_LIMIT = 1e15;

    private DecimalText() {
    }

    /**
     * @param value    the number
     * @param decimals digits after the point, 0 to 9
     * @return {@code String.format(Locale.ROOT, "%." + decimals + "f", value)}
     * @throws IllegalArgumentException when decimals is outside 0..9
     */
    public static String fixed(double value, int decimals) {
        if (decimals < 0 || decimals > 9) {
            throw new IllegalArgumentException("decimals must be 0..9, got " + decimals);
        }
        if (!(value >= 0 && value < FAST_LIMIT) || Double.doubleToRawLongBits(value) < 0) {
            return String.format(Locale.ROOT, "%." + decimals + "f", value);
        }
        return new BigDecimal(Double.toString(value)).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
    }
}
