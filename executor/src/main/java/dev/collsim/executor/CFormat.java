package dev.collsim.executor;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * C {@code printf} number formats that nccl-tests' output uses and Java's {@link String#format} spells
 * differently: {@code %g} (trailing zeros removed, exponent form when the exponent is < -4 or >= precision), and
 * nccl-tests' {@code getFloatStr} (width-limited: 2, then 1, then 0 decimals, then exponent form).
 */
public final class CFormat {

    private CFormat() {
    }

    /**
     * nccl-tests 2.19.6 {@code src/util.cu getFloatStr}: the value with 2 decimals if it fits the width, else 1,
     * else 0, else {@code %.1e} (width >= 7) or {@code %.0e}.
     *
     * @param value the number
     * @param width the column width
     * @return the text, right-aligned to width when it fits
     */
    public static String floatStr(double value, int width) {
        for (int decimals = 2; decimals >= 0; decimals--) {
            String s = String.format(Locale.ROOT, "%" + width + "." + decimals + "f", value);
            if (s.length() <= width) {
                return s;
            }
        }
        String s = String.format(Locale.ROOT, width >= 7 ? "%" + width + ".1e" : "%" + width + ".0e", value);
        return s.length() > width ? s.substring(0, width) : s;
    }

    /**
     * C's {@code %g} with precision 6.
     *
     * @param value the number
     * @return e.g. {@code 0}, {@code 36758.2}, {@code 1e+06}, {@code 2.5e-05}
     */
    public static String g(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == 0) {
            return (1 / value < 0) ? "-0" : "0";
        }
        final int precision = 6;
        // exponent after rounding to 'precision' significant digits
        String e = String.format(Locale.ROOT, "%." + (precision - 1) + "e", value);
        int exp = Integer.parseInt(e.substring(e.indexOf('e') + 1));
        if (exp < -4 || exp >= precision) {
            String mant = stripZeros(e.substring(0, e.indexOf('e')));
            return mant + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
        }
        String f = new BigDecimal(value).setScale(Math.max(0, precision - 1 - exp), RoundingMode.HALF_EVEN)
                .toPlainString();
        return stripZeros(f);
    }

    /**
     * C's {@code %Wg}: {@link #g} right-aligned to a width.
     *
     * @param value the number
     * @param width the minimum width
     * @return the padded text
     */
    public static String g(double value, int width) {
        String s = g(value);
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        String t = s.replaceAll("0+$", "");
        return t.endsWith(".") ? t.substring(0, t.length() - 1) : t;
    }
}
