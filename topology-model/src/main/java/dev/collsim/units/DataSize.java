package dev.collsim.units;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte counts in YAML and settings: {@code 8}, {@code 32K}, {@code 8M}, {@code 8G}, {@code 1T}, where
 * K/M/G/T are powers of 1024; other sizes may also say {@code 80 GB} (1e9) or {@code 80 GiB} (2^30). GPU memory
 * capacities are read by {@link #parseMemoryCapacity}, where {@code 80 GB} is 80 GiB as the memory makers mean it.
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
        return parse(text, false, "a size", ALLOWED);
    }

    /**
     * @param text    the text
     * @param memory  every prefix a power of 1024 (a memory capacity); else B with a prefix is a power of 1000
     * @param what    what the text should be, for the message
     * @param allowed the units allowed, for the message
     * @return bytes, >= 0
     */
    private static long parse(String text, boolean memory, String what, String allowed) {
        Matcher m = TEXT.matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not " + what + "; use " + allowed);
        }
        double v = Double.parseDouble(m.group(1));
        String prefix = m.group(2).toUpperCase(Locale.ROOT);
        String unit = m.group(3);
        boolean decimal = !memory && unit != null && unit.equalsIgnoreCase("B") && !prefix.isEmpty();
        int power = prefix.isEmpty() ? 0 : "KMGT".indexOf(prefix) + 1;
        double bytes = v * Math.pow(decimal ? 1000 : 1024, power);
        if (bytes > Long.MAX_VALUE) {
            throw new IllegalArgumentException("'" + text + "' is too large");
        }
        return Math.round(bytes);
    }

    /** Units accepted by {@link #parseMemoryCapacity(String)}. */
    public static final String MEMORY_ALLOWED = "a number with K, M, G or T, KB, MB, GB, TB or KiB, MiB, GiB, TiB"
            + " (all powers of 1024 for memory, as JEDEC and the GPU datasheets mean them)";

    /**
     * Parses a device-memory capacity, where every prefix is a power of 1024 and {@code GB} means GiB: the
     * convention for semiconductor memory capacity (JEDEC Standard 100B.01, "Terms, Definitions, and Letter
     * Symbols for Microcomputers, Microprocessors, and Memory Integrated Circuits": K, M, G as prefixes to units
     * of semiconductor storage capacity are 2^10, 2^20, 2^30), the one GPU datasheets follow. An "80GB" A100 holds
     * 81,920 MiB = 80 x 2^30 B in nvidia-smi, and an "141GB" H200 shows 143,771 MiB, more than 141 x 10^9 B =
     * 134,465 MiB could be (sources in {@code docs/planning-validation.md}); so a user copying {@code 80 GB} from a
     * datasheet means 80 GiB.
     *
     * @param text e.g. {@code "80 GB"}, {@code "141 GiB"}, {@code "96G"}
     * @return bytes, >= 0
     * @throws IllegalArgumentException naming the text and {@link #MEMORY_ALLOWED}
     */
    public static long parseMemoryCapacity(String text) {
        return parse(text, true, "a memory size", MEMORY_ALLOWED);
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
