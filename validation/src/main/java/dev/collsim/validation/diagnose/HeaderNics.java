package dev.collsim.validation.diagnose;

import dev.collsim.topology.NcclBandwidths;
import dev.collsim.units.Bandwidth;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NICs of one host as a data file's {@code #@ interconnect} (or hardware) header states them, e.g.
 * "8x NDR 400Gb/s IB", "16x100 Gb/s", "ConnectX-7 200GbE", "100 Gbps TCP", "400Gb IB, one NIC per GPU",
 * "200 Gb/s, 4 NICs per node": a reading of header text, not a table of NIC figures. A count per GPU ("one NIC per
 * GPU", "a NIC per GPU") is multiplied by the run's GPUs per host. Bandwidth per NIC is NCCL's {@code speed / 8}
 * ({@link NcclBandwidths#net}).
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
    /** "one NIC per GPU", "a NIC per GPU", "1 IB NIC per GPU". */
    private static final Pattern ONE_PER_GPU = Pattern.compile(
            "\\b(?:one|an?|1)\\s+(?:[\\w-]+\\s+)?NIC\\s+(?:per|for each|/)\\s*GPU\\b", Pattern.CASE_INSENSITIVE);
    /** "4 NICs per node", "two IB NICs per host". */
    private static final Pattern N_PER_HOST = Pattern.compile(
            "(?<![0-9.])([0-9]{1,4}|one|two|four|eight)\\s+(?:[\\w-]+\\s+)?NICs?\\s+(?:per|/)\\s*(?:node|host)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern PER_PORT = Pattern.compile("per\\s+port\\b", Pattern.CASE_INSENSITIVE);
    private static final Map<String, Integer> WORDS = Map.of("one", 1, "two", 2, "four", 4, "eight", 8);

    /**
     * @return the NICs in words: {@code 8 x 400 Gb/s} for a count, {@code 3200 Gb/s} when the header gives one figure
     *         for the host (a total such as "EFA v2 3200 Gbps per node", or a single NIC)
     */
    public String describe() {
        return count == 1 ? String.format(Locale.ROOT, "%.0f Gb/s", gbits)
                : String.format(Locale.ROOT, "%d x %.0f Gb/s", count, gbits);
    }

    /** @return bandwidth of all NICs of a host, GB/s per direction */
    public double hostGBps() {
        return count * NcclBandwidths.net(Bandwidth.ofGbits(gbits)).gbps();
    }

    /**
     * @param text header text
     * @param line its line
     * @return the NICs it states, or empty when it names no speed or counts NICs per GPU (see the overload)
     */
    public static Optional<HeaderNics> parse(String text, int line) {
        return parse(text, line, 0);
    }

    /**
     * @param text        header text
     * @param line        its line
     * @param gpusPerHost GPUs per host of the run (from its rank lines or nodes_x_gpus), 0 when unknown
     * @return the NICs it states per host, or empty when it names no speed, gives a speed per port without a count,
     *         or counts NICs per GPU and the GPUs per host are unknown
     */
    public static Optional<HeaderNics> parse(String text, int line, int gpusPerHost) {
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
        double gbits = Double.parseDouble(s.group(1));
        Matcher c = COUNT.matcher(text);
        if (c.find()) {
            return Optional.of(new HeaderNics(Integer.parseInt(c.group(1)), gbits, line, text));
        }
        Matcher h = N_PER_HOST.matcher(text);
        if (h.find()) {
            String n = h.group(1).toLowerCase(Locale.ROOT);
            int count = WORDS.containsKey(n) ? WORDS.get(n) : Integer.parseInt(n);
            return Optional.of(new HeaderNics(count, gbits, line, text));
        }
        if (ONE_PER_GPU.matcher(text).find()) {
            return gpusPerHost > 0 ? Optional.of(new HeaderNics(gpusPerHost, gbits, line, text)) : Optional.empty();
        }
        // "~98 Gb/s per port" states a port's speed, not how many ports a host has
        return PER_PORT.matcher(text).find() ? Optional.empty() : Optional.of(new HeaderNics(1, gbits, line, text));
    }
}
