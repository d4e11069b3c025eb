package dev.collsim.units;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte counts in YAML and settings: {@code 8}, {@code 32K}, {@code 8M}, {@code 8G}, {@code 1T}, where
 * K/M/G/T are powers of 1024; memory capacities may also say {@code 80 GB} (1e9) or {@code 80 GiB} (2^30).
 * Sweep sizes ({@code -b/-e/-i}, a report's {@code min/max}) are not read here but as nccl-tests reads them, by
 * {@link dev.collsim.nccl.SizeSweep#parseBytes} (there {@code 8GB} is 8 GiB).
 */
public final class DataSize {

    /** Suffixes accepted by {@link #parseBytes(String)}. */
    public static final String ALLOWED = "a whole number of bytes with optional K, M, G or T (powers of 1024),"
            + " or a number with B, KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB";

    private static final Pattern TEXT = Pattern.compile(
            "\\s*([0-9]*\\.?[0-9]+)\\s*([KMGT]?)(i?B)?\\s*", Pattern.CASE_INSENSITIVE);

    private DataSize() {
    }

    /**
     * Parses a size.
     *
     * @param text e.g. {@code "8"}, {@code "32M"}, {@code "80 GB"}, {@code "141 GiB"}
     * @return bytes, >= 0
     * @throws IllegalArgumentException naming the text and {@link #ALLOWED}
     */
    public static long parseBytes(String text) {
        Matcher m = TEXT.matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size; use " + ALLOWED);
        }
        double v = Double.parseDouble(m.group(1));
        String prefix = m.group(2).toUpperCase(Locale.ROOT);
        String unit = m.group(3);
        boolean decimal = unit != null && unit.equalsIgnoreCase("B") && !prefix.isEmpty();
        int power = prefix.isEmpty() ? 0 : "KMGT".indexOf(prefix) + 1;
        double scale = Math.pow(decimal ? 1000 : 1024, power);
        double bytes = v * scale;
        if (bytes > Long.MAX_VALUE) {
            throw new IllegalArgumentException("'" + text + "' is too large");
        }
        return Math.round(bytes);
    }

    /**
     * Formats bytes the short way nccl-tests users read them: 8, 1K, 32M, 8G (exact powers of 1024 only,
     * otherwise the plain number of bytes).
     *
     * @param bytes the size
     * @return the text
     */
    public static String format(long bytes) {
        String[] suffix = {"", "K", "M", "G", "T"};
        long v = bytes;
        int i = 0;
        while (i < suffix.length - 1 && v >= 1024 && v % 1024 == 0) {
            v /= 1024;
            i++;
        }
        return v + suffix[i];
    }

    /**
     * Formats a size where a label may round (chart axes, the plan's collective table): 8, 1K, 1.5K, 32M, 2G
     * (powers of 1024, as nccl-tests prints sizes), one decimal when not a whole number of the largest unit it
     * reaches; {@link #format} never rounds.
     *
     * @param bytes the size
     * @return the text
     */
    public static String formatRounded(double bytes) {
        String[] suffix = {"", "K", "M", "G", "T"};
        double v = bytes;
        int i = 0;
        while (v >= 1024 && i < suffix.length - 1) {
            v /= 1024;
            i++;
        }
        return (v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v))
                + suffix[i];
    }
}
