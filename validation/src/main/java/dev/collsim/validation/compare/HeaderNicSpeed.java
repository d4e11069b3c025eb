package dev.collsim.validation.compare;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NIC port speed a data file's header text states, e.g. {@code ConnectX-7 200GbE}, {@code 200 Gb/s per NIC},
 * {@code Slingshot-200}, {@code 400G}: the largest such figure between 10 and 1,600 Gb/s; and the NIC count it
 * states ({@code 8x 200 Gbps NICs}, {@code 4x ConnectX-7}). Stateless.
 */
final class HeaderNicSpeed {

    /**
     * Speed assumed when a header states none, Gb/s: 400, the ConnectX-7 port speed of current HGX systems (NVIDIA
     * ConnectX-7 datasheet: up to 400 Gb/s per port).
     */
    static final double ASSUMED_GBITS = 400;

    private static final Pattern SPEED = Pattern.compile(
            "(?i)(?:(\\d{2,4})\\s?(?:gb/s|gbps|gbit|gbe|g\\b))|(?:slingshot[- ]?|roce|ndr|hdr)(\\d{3})\\b");

    private static final Pattern COUNT_SPEED = Pattern.compile(
            "(?i)(\\d{1,2})\\s?x\\s?(\\d{2,4})\\s?(?:gb/s|gbps|gbit|gbe|g\\b)");

    /**
     * Port speed of an HPE Slingshot-11 NIC (Cassini), Gb/s, for a header that names Slingshot without a speed: HPE
     * Slingshot NIC datasheet, 200 Gb/s per port; Slingshot-10 used 100 Gb/s ConnectX-5 NICs.
     */
    static final double SLINGSHOT_GBITS = 200;

    private static final Pattern SLINGSHOT = Pattern.compile("(?i)slingshot(?:[- ]?(10)\\b)?");

    private static final Pattern COUNT_DEVICES = Pattern.compile("(?i)\\b(\\d{1,2})\\s?x\\s?(?:ConnectX|CX)-?\\d");

    private HeaderNicSpeed() {
    }

    /**
     * A count of NIC devices, e.g. {@code 4x ConnectX-7}, {@code 4x CX-7}: the first such figure. A dual-port card
     * ({@code 2x dual-port ConnectX-7}) does not match: its port count is not stated in the same figure.
     *
     * @param text header text (null allowed)
     * @return the count (1 or more), empty when the text states none
     */
    static OptionalInt deviceCount(String text) {
        Matcher m = COUNT_DEVICES.matcher(text == null ? "" : text);
        while (m.find()) {
            int n = Integer.parseInt(m.group(1));
            if (n >= 1) {
                return OptionalInt.of(n);
            }
        }
        return OptionalInt.empty();
    }

    /**
     * A NIC count with its speed, e.g. {@code 8x 200 Gbps NICs}, {@code 16x100 Gb/s}: the first such figure.
     *
     * @param text header text (null allowed)
     * @return {count, Gb/s}, empty when the text states none between 10 and 1,600 Gb/s
     */
    static Optional<double[]> countAndGbits(String text) {
        Matcher m = COUNT_SPEED.matcher(text == null ? "" : text);
        while (m.find()) {
            double n = Double.parseDouble(m.group(1));
            double v = Double.parseDouble(m.group(2));
            if (n >= 1 && v >= 10 && v <= 1600) {
                return Optional.of(new double[] {n, v});
            }
        }
        return Optional.empty();
    }

    /**
     * @param text header text (null parts allowed as the text "null")
     * @return the largest stated speed in Gb/s; with none, a named HPE Slingshot's NIC speed
     *         ({@link #SLINGSHOT_GBITS}); empty otherwise
     */
    static OptionalDouble gbits(String text) {
        Matcher m = SPEED.matcher(text == null ? "" : text);
        double best = -1;
        while (m.find()) {
            double v = Double.parseDouble(m.group(1) != null ? m.group(1) : m.group(2));
            if (v >= 10 && v <= 1600 && v > best) {
                best = v;
            }
        }
        if (best < 0) {
            Matcher s = SLINGSHOT.matcher(text == null ? "" : text);
            if (s.find()) {
                return OptionalDouble.of(s.group(1) != null ? 100 : SLINGSHOT_GBITS);
            }
        }
        return best < 0 ? OptionalDouble.empty() : OptionalDouble.of(best);
    }
}
