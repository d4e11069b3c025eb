package dev.collsim.validation.diagnose;

import dev.collsim.topology.NcclBandwidths;
import dev.collsim.units.Bandwidth;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NICs of one host as a data file's {@code #@ interconnect} (or hardware) header states them, e.g.
 * "8x NDR 400Gb/s IB", "16x100 Gb/s", "ConnectX-7 200GbE", "100 Gbps TCP": a reading of header text, not a table of
 * NIC figures. Bandwidth per NIC is NCCL's {@code speed / 8} ({@link NcclBandwidths#net}).
 *
 * @param count   NICs per host
 * @param gbits   speed of one NIC, Gb/s
 * @param line    header line the figures come from
 * @param text    the header text
 */
public record HeaderNics(int count, double gbits, int line, String text) {

    private static final Pattern COUNT_X_SPEED = Pattern.compile(
            "(?<![0-9])([0-9]{1,4})\\s*[xX]\\s*(?:(?i:NDR|HDR|EDR)\\s*)?(\\d{2,4})\\s*(?:[Gg]\\b|[Gg]b|[Gg]bE|[Gg]bps|[Gg]\\s)");
    // bits only: "Gb", "G", "GbE", "Gbps"; a capital B is bytes ("900 GB/s per GPU" is NVLink, not a NIC)
    private static final Pattern SPEED = Pattern.compile("(\\d{2,4})\\s*(?:[Gg]\\b|[Gg]b\\b|[Gg]bE|[Gg]bps|[Gg]b/s|[Gg]\\s|[Gg]bit)");
    private static final Pattern COUNT = Pattern.compile(
            "(?<![0-9])([0-9]{1,4})\\s*x\\s*(?:CX-7|ConnectX|RDMA|RoCE|EFA|Slingshot|mlx|NIC|IB\\b)", Pattern.CASE_INSENSITIVE);

    /** @return bandwidth of all NICs of a host, GB/s per direction */
    public double hostGBps() {
        return count * NcclBandwidths.net(Bandwidth.ofGbits(gbits)).gbps();
    }

    /**
     * @param text header text
     * @param line its line
     * @return the NICs it states, or empty when it names no speed
     */
    public static Optional<HeaderNics> parse(String text, int line) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = COUNT_X_SPEED.matcher(text);
        if (m.find()) {
            return Optional.of(new HeaderNics(Integer.parseInt(m.group(1)), Double.parseDouble(m.group(2)), line, text));
        }
        Matcher s = SPEED.matcher(text);
        if (!s.find()) {
            return Optional.empty();
        }
        Matcher c = COUNT.matcher(text);
        int count = c.find() ? Integer.parseInt(c.group(1)) : 1;
        return Optional.of(new HeaderNics(count, Double.parseDouble(s.group(1)), line, text));
    }
}
