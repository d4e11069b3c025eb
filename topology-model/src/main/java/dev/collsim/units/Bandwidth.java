package dev.collsim.units;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bandwidth in GB/s, where GB = 1e9 bytes (the unit of nccl-tests' algbw/busbw and of NCCL's
 * {@code src/graph/tuning.cc}). NIC speeds are entered in Gb/s (bits) and converted here.
 * This record is immutable.
 *
 * @param gbps bandwidth in GB/s (1e9 B/s); finite and non-negative
 */
public record Bandwidth(double gbps) implements Comparable<Bandwidth> {

    /** Units accepted by {@link #parse(String)}, for error messages. */
    public static final String ALLOWED_UNITS = "GB/s, Gb/s, MB/s, Mb/s, TB/s, Tb/s (GB = 1e9 B, Gb = 1e9 bit)";

    private static final Pattern TEXT =
            Pattern.compile("\\s*([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([KMGT])([Bb])/s\\s*");

    /**
     * A number with a bandwidth unit written another way ({@code Gbps}, {@code Gbit/s}, {@code gb}): see
     * {@link #suggestion}.
     */
    private static final Pattern GUESS = Pattern.compile(
            "\\s*([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([KMGTkmgt])\\s*((?i:bits?|bytes?)|[bB])"
                    + "\\s*(?:/\\s*(?i:s|sec)|(?i:ps))?\\s*");

    /** An InfiniBand generation's name, optionally with a split port's Gb/s: see {@link #infiniBandRate}. */
    private static final Pattern IB_RATE = Pattern.compile("(?i)(EDR|HDR|NDR|XDR)(\\d+)?");

    /** Zero bandwidth (no path). */
    public static final Bandwidth ZERO = new Bandwidth(0);

    /**
     * @throws IllegalArgumentException if {@code gbps} is negative, NaN or infinite
     */
    public Bandwidth {
        if (!(gbps >= 0) || Double.isInfinite(gbps)) {
            throw new IllegalArgumentException("bandwidth must be finite and >= 0 GB/s, got " + gbps);
        }
    }

    /** @param gbps GB/s (bytes); @return the bandwidth */
    public static Bandwidth ofGBps(double gbps) {
        return new Bandwidth(gbps);
    }

    /** @param gbits Gb/s (bits, as NIC speeds are quoted); @return the bandwidth, gbits / 8 GB/s */
    public static Bandwidth ofGbits(double gbits) {
        return new Bandwidth(gbits / 8.0);
    }

    /**
     * Parses a bandwidth with its unit, e.g. {@code "400 Gb/s"}, {@code "20.6 GB/s"}, {@code "500 MB/s"}.
     * A bare number is rejected: the unit is part of the value.
     *
     * @param text the text
     * @return the bandwidth
     * @throws IllegalArgumentException naming the text and {@link #ALLOWED_UNITS} when it does not parse
     */
    public static Bandwidth parse(String text) {
        Matcher m = TEXT.matcher(text == null ? "" : text);
        if (!m.matches()) {
            String bare = text == null ? "" : text.strip();
            String guess = suggestion(text) != null ? suggestion(text) : infiniBandRate(bare);
            String unitless = bare.matches("\\d+(?:\\.\\d+)?") ? "; a bare number has no unit: write '" + bare
                    + " Gb/s' (bits, as NIC ports are sold) or '" + bare + " GB/s' (bytes)" : "";
            throw new IllegalArgumentException("'" + text + "' is not a bandwidth; use a number with one of "
                    + ALLOWED_UNITS + (guess == null ? "" : "; did you mean '" + guess + "'?") + unitless);
        }
        double v = Double.parseDouble(m.group(1));
        double scale = switch (m.group(2)) {
            case "K" -> 1e-6;
            case "M" -> 1e-3;
            case "G" -> 1.0;
            default -> 1e3;
        };
        double bytes = m.group(3).equals("b") ? v * scale / 8.0 : v * scale;
        return new Bandwidth(bytes);
    }

    /**
     * The allowed spelling of a bandwidth written with a unit collsim does not take, for a "did you mean" hint:
     * {@code 400 Gbps}, {@code 400 Gbit/s}, {@code 400 gbps}, {@code 400 Gb} give {@code 400 Gb/s} (a lower-case
     * b or "bit" is bits); {@code 25 GBps}, {@code 25 GByte/s}, {@code 25 GB} give {@code 25 GB/s} (an upper-case B
     * or "byte" is bytes); the prefix K, M, G or T in either case.
     *
     * @param text what was written
     * @return the allowed spelling, or null when the text is not a number with such a unit
     */
    public static String suggestion(String text) {
        Matcher m = GUESS.matcher(text == null ? "" : text);
        if (!m.matches()) {
            return null;
        }
        String unit = m.group(3).toLowerCase(Locale.ROOT);
        boolean bits = unit.startsWith("bit") || !unit.startsWith("byte") && m.group(3).startsWith("b");
        boolean bytes = unit.startsWith("byte") || !unit.startsWith("bit") && m.group(3).startsWith("B");
        if (bits == bytes) {
            return null;
        }
        String guess = m.group(1) + " " + m.group(2).toUpperCase(Locale.ROOT) + (bits ? "b" : "B") + "/s";
        return TEXT.matcher(guess).matches() ? guess : null;
    }

    /**
     * The data rate of a 4x InfiniBand port named by its generation, for a "did you mean" hint (a name alone is not
     * taken as a bandwidth: split ports such as NDR200 run fewer lanes): EDR 100, HDR 200, NDR 400, XDR 800 Gb/s,
     * 4 lanes of 25, 50, 100 and 200 Gb/s (InfiniBand Trade Association roadmap; NVIDIA ConnectX-7 datasheet: NDR
     * 400 Gb/s). A name with a number after it (NDR200, HDR100) is that many Gb/s.
     *
     * @param text what was written, stripped
     * @return the allowed spelling, or null when the text is no such name
     */
    public static String infiniBandRate(String text) {
        Matcher m = IB_RATE.matcher(text);
        if (!m.matches()) {
            return null;
        }
        int gbits = switch (m.group(1).toUpperCase(Locale.ROOT)) {
            case "EDR" -> 100;
            case "HDR" -> 200;
            case "NDR" -> 400;
            default -> 800;
        };
        return (m.group(2) != null ? m.group(2) : String.valueOf(gbits)) + " Gb/s";
    }

    /** @return bandwidth in bytes per microsecond (= 1000 x GB/s), as NCCL's time formula uses */
    public double bytesPerMicrosecond() {
        return gbps * 1000.0;
    }

    /** @return bandwidth in Gb/s (bits) */
    public double gbits() {
        return gbps * 8.0;
    }

    /** @return the smaller of the two */
    public Bandwidth min(Bandwidth other) {
        return gbps <= other.gbps ? this : other;
    }

    /** @return this times {@code factor} */
    public Bandwidth times(double factor) {
        return new Bandwidth(gbps * factor);
    }

    @Override
    public int compareTo(Bandwidth o) {
        return Double.compare(gbps, o.gbps);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.4g GB/s", gbps);
    }
}
