package dev.collsim.validation.ingest;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads size labels of published tables: {@code 32K}, {@code 1.00 MiB}, {@code 1024 MB}, {@code 4 KB},
 * {@code 8.00 GiB}, {@code 65K}. K, M, G mean 2^10, 2^20, 2^30 as in nccl-tests' {@code -b/-e} (nccl-tests 2.19.6
 * {@code src/common.cu parsesize}). Vendors often print powers of two as truncated decimals ({@code 65K} for 65536,
 * {@code 132K} for 131072, {@code 33M} for 33554432): a label whose binary reading is not a power of two but whose
 * decimal reading lies within 2% of one is read as that power of two.
 */
public final class SizeLabel {

    private static final Pattern LABEL = Pattern.compile(
            "^([0-9]+(?:\\.[0-9]+)?)\\s*([kmgt]?)(i?b?)$", Pattern.CASE_INSENSITIVE);

    /** Largest size read from a label, 2^62 bytes (4 EiB): twice it still fits a long, so rounding cannot wrap. */
    private static final double MAX_BYTES = Math.pow(2, 62);

    private SizeLabel() {
    }

    /**
     * @param label the cell text (markdown emphasis already removed)
     * @return the size in bytes
     * @throws IllegalArgumentException when the text is not a size; the message names the allowed forms
     */
    public static long parse(String label) {
        String t = label.strip().replace("**", "");
        Matcher m = LABEL.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + label + "' is not a size; expected a number with an optional "
                    + "K, M, G, KB, MB, GB, KiB, MiB or GiB suffix");
        }
        double v = Double.parseDouble(m.group(1));
        int power = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "K" -> 1;
            case "M" -> 2;
            case "G" -> 3;
            case "T" -> 4;
            default -> 0;
        };
        double binary = v * Math.pow(1024, power);
        if (!(binary <= MAX_BYTES)) {
            throw new IllegalArgumentException("'" + label + "' is beyond the largest size a table may hold; allowed:"
                    + " a size up to 4 EiB (2^62 bytes)");
        }
        long b = Math.round(binary);
        if (Math.abs(binary - b) < 1e-6 && Long.bitCount(b) == 1) {
            return b;
        }
        double decimal = v * Math.pow(1000, power);
        long nearest = Long.highestOneBit(Math.max(1L, Math.round(decimal)));
        for (long cand : new long[] {nearest, nearest << 1}) {
            if (Math.abs(cand - decimal) / cand <= 0.02) {
                return cand;
            }
        }
        return b;
    }
}
