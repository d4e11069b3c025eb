package dev.collsim.validation.ingest;

import dev.collsim.hardware.NicModel;
import dev.collsim.hardware.NicModels;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.units.Bandwidth;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NICs of one host as a data file's {@code #@ interconnect} (or hardware) header states them: the one reader of
 * NIC facts in header text, e.g. "8x NDR 400Gb/s IB", "16x100 Gb/s", "ConnectX-7 200GbE", "100 Gbps TCP",
 * "400Gb IB, one NIC per GPU", "200 Gb/s, 4 NICs per node", "4x ConnectX-7", "Slingshot-200": a reading of header
 * text, not a table of NIC figures. A speed is in bits ({@code Gb/s}, {@code Gbps}, {@code Gbit}, {@code GbE},
 * {@code Gb}, {@code G}); a capital B is bytes ({@code 900 GB/s per GPU} is NVLink, not a NIC).
 * <p>
 * Two readings serve two callers: {@link #parse} (diagnose's bound: the first speed in the text with the count that
 * goes with it, a count per GPU multiplied by the run's GPUs per host) and the network-clause readers
 * {@link #gbits}, {@link #countAndGbits}, {@link #deviceCount} (compare's catalog hosts: only a clause that names a
 * NIC or network sets a speed). Both read speeds and counts with the same patterns; they differ only in which part
 * of the text they look at. Bandwidth per NIC is NCCL's {@code speed / 8} ({@link NcclBandwidths#net}).
 *
 * @param count NICs per host
 * @param gbits speed of one NIC, Gb/s
 * @param line  header line the figures come from
 * @param text  the header text, or where NICs no header states come from (a cluster's NICs)
 * @param assumed what was assumed to pick those NICs (compare's {@code assumed:} words, printed on a line of its own
 *                by diagnose); empty when nothing was
 */
public record HeaderNics(int count, double gbits, int line, String text, String assumed) {

    /** NICs read with nothing assumed. */
    public HeaderNics(int count, double gbits, int line, String text) {
        this(count, gbits, line, text, "");
    }

    /**
     * @param words what was assumed (empty: nothing)
     * @return these NICs with {@code words} added to what was assumed, after a "; " when some was already
     */
    public HeaderNics assuming(String words) {
        String all = assumed == null || assumed.isEmpty() ? words : words.isEmpty() ? assumed : assumed + "; " + words;
        return new HeaderNics(count, gbits, line, text, all);
    }

    /**
     * Speed assumed when a header states none, Gb/s: 400, the ConnectX-7 port speed of current HGX systems (the NIC
     * database's {@link NicModel#portGbits}, NVIDIA ConnectX-7 datasheet: up to 400 Gb/s per port).
     */
    public static final double ASSUMED_GBITS = NicModels.find("ConnectX-7").orElseThrow().portGbits();

    /**
     * Port speed of an HPE Slingshot-11 NIC (Cassini), Gb/s, for a header that names Slingshot without a speed: HPE
     * Slingshot NIC datasheet, 200 Gb/s per port; Slingshot-10 used 100 Gb/s ConnectX-5 NICs.
     */
    public static final double SLINGSHOT_GBITS = 200;

    /** A speed unit in bits after a figure: {@code Gb/s}, {@code Gbps}, {@code Gbit}, {@code GbE}, {@code G}. */
    private static final String BITS = "\\s*(?:[Gg]b/s|[Gg]bps|[Gg]bit|[Gg]bE|[Gg]b\\b|[Gg]\\b)";

    /** The first speed {@link #parse} reads: a 2-4 digit figure in bits. */
    private static final Pattern SPEED = Pattern.compile("(\\d{2,4})" + BITS);

    /** Any speed {@link #gbits} reads: a figure in bits, or a rate named after Slingshot, RoCE, NDR or HDR. */
    private static final Pattern NETWORK_SPEED = Pattern.compile(
            "(?:(\\d{2,4})" + BITS + ")|(?i:slingshot[- ]?|roce|ndr|hdr)(\\d{3})\\b");

    /** A count with its speed: {@code 8x 200 Gbps}, {@code 16x100 Gb/s}, {@code 8x NDR 400Gb/s}. */
    private static final Pattern COUNT_X_SPEED = Pattern.compile(
            "(?<![0-9])([0-9]{1,4})\\s*[xX]\\s*(?:(?i:NDR|HDR|EDR)\\s*)?(\\d{2,4})" + BITS);

    /**
     * A count of NICs named by transport or make: {@code 8x EFA}, {@code 4x CX-7}, {@code 2x NIC}, {@code 8x HCA},
     * {@code 8x SuperNIC}, {@code 8x BlueField-3} (a BlueField-3 SuperNIC is a host's network port as a ConnectX is).
     */
    private static final Pattern COUNT = Pattern.compile(
            "(?<![0-9])([0-9]{1,4})\\s*x\\s*(?:CX-7|ConnectX|RDMA|RoCE|EFA|Slingshot|mlx|NIC|HCA|SuperNIC|BlueField"
                    + "|IB\\b)",
            Pattern.CASE_INSENSITIVE);

    /** A count of ConnectX devices: {@code 4x ConnectX-7}, {@code 4x CX-7}; a dual-port card does not match. */
    private static final Pattern COUNT_DEVICES = Pattern.compile("(?i)\\b(\\d{1,2})\\s?x\\s?(?:ConnectX|CX)-?\\d");

    /** "one NIC per GPU", "a NIC per GPU", "1 IB NIC per GPU". */
    private static final Pattern ONE_PER_GPU = Pattern.compile(
            "\\b(?:one|an?|1)\\s+(?:[\\w-]+\\s+)?NIC\\s+(?:per|for each|/)\\s*GPU\\b", Pattern.CASE_INSENSITIVE);

    /**
     * "4 NICs per node", "two IB NICs per host", and the other names of a host's network ports: "8 HCAs per node"
     * (InfiniBand host channel adapters, the nccl-tests#319 file's line 5), "8 rails per node" (one NIC per rail of a
     * rail-optimized fabric, the Dell XE9680 Spectrum-X file's line 5), "8 SuperNICs per host", "4 adapters per node".
     */
    private static final Pattern N_PER_HOST = Pattern.compile(
            "(?<![0-9.])([0-9]{1,4}|one|two|four|eight)\\s+(?:[\\w-]+\\s+)?(?:NIC|HCA|rail|SuperNIC|adapter)s?"
                    + "\\s+(?:per|/)\\s*(?:node|host)\\b",
            Pattern.CASE_INSENSITIVE);

    private static final Pattern PER_PORT = Pattern.compile("per\\s+port\\b", Pattern.CASE_INSENSITIVE);

    /**
     * What makes a speed a host's total, not one NIC's: right after the figure (up to four words that are not a NIC
     * word, then) "per VM", "per host", "per node", "per instance", "per server" ("1800Gbps maximum network bandwidth
     * per VM", "EFA v2 3200 Gbps per node"; "400 Gb/s NICs per node" is a NIC's speed), or "total", "in total",
     * "aggregate", "in all" right after it ("3200 Gbps in total").
     */
    private static final Pattern HOST_TOTAL = Pattern.compile("(?i)^['\"]?\\s*(?:(?:(?!(?:nics?|hcas?|ports?|adapters?"
            + "|rails?|links?|cards?|supernics?)\\b)[\\w'\"-]+\\s+){0,4}per\\s+(?:vm|host|node|instance|server|machine)\\b"
            + "|(?:in\\s+total|in\\s+all|total|aggregate)\\b)");
    private static final Map<String, Integer> WORDS = Map.of("one", 1, "two", 2, "four", 4, "eight", 8);

    /**
     * Words of a NIC or network phrase: NIC, port, network, inter-node, between nodes, the transports (InfiniBand and
     * its rates NDR/HDR/EDR/XDR, RoCE, RDMA, Ethernet/GbE, TCP, socket, EFA, Slingshot, gIB, TCPX/TCPXO) and NIC
     * makes (ConnectX/CX-n, mlx, QSFP). A clause without one (an NVLink bridge's figure, a BAR size) sets no speed.
     */
    public static final Pattern NETWORK_WORDS = Pattern.compile("(?i)\\b(?:nics?|ports?|network|inter-node|internode"
            + "|between (?:nodes|hosts)|ib|infiniband|ndr|hdr|edr|xdr|roce\\w*|rdma|ethernet|\\d*gbe|tcp\\w*|socket"
            + "|efa\\w*|slingshot\\S*|gib|connectx\\S*|cx-?\\d|mlx\\w*|qsfp\\w*)\\b");

    /**
     * A Kubernetes pod in a clause: "each pod is given", "per Pod", "pod's claim".
     */
    private static final Pattern POD = Pattern.compile("(?i)\\bpods?\\b|\\bpod's\\b");

    /**
     * NICs a pod is given, counted in the clause that names the pod: "one 400 Gb/s CX-7 per Pod", "the one NIC each pod
     * is given", "2 GPUs and 2 RDMA NICs", "8 RDMA interfaces per pod", "8 IB VFs per pod": a count, up to two words
     * that are no count word, GPU or "and", then a NIC word (NIC, HCA, CX-n, ConnectX-n, VF, RDMA interface).
     */
    private static final Pattern POD_NICS = Pattern.compile("(?i)(?<![\\w.-])(one|two|four|eight|\\d{1,2})\\s+"
            + "(?:(?!(?:and|gpus?|one|two|four|eight)\\b)[\\w./-]+\\s+){0,2}"
            + "(?:nic|hca|vf|interface|cx-\\d|connectx-\\d)s?\\b");

    private static final Pattern CLAUSE = Pattern.compile("[^;,()]+");
    private static final Pattern SLINGSHOT = Pattern.compile("(?i)slingshot(?:[- ]?(10)\\b)?");

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
        if (hostTotal(text, s.end())) {
            // a host's total ("3200 Gbps per VM"): one figure for the host, whatever NICs the text counts after it
            return Optional.of(new HeaderNics(1, gbits, line, text));
        }
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

    /**
     * A count of NIC devices, e.g. {@code 4x ConnectX-7}, {@code 4x CX-7}: the first such figure. A dual-port card
     * ({@code 2x dual-port ConnectX-7}) does not match: its port count is not stated in the same figure.
     *
     * @param text header text (null allowed)
     * @return the count (1 or more), empty when the text states none
     */
    public static OptionalInt deviceCount(String text) {
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
     * The NICs a Kubernetes pod is given, as the header says in a clause that names the pod ("one NIC per worker Pod",
     * "the one NIC each pod is given", "each pod's claim gives 2 GPUs and 2 RDMA NICs"): DraNet and the SR-IOV device
     * plugins move the claimed RDMA devices into the pod's network namespace, and NCCL inside the pod lists only the
     * verbs devices it sees there (NCCL 2.26.6 {@code src/transport/net_ib.cc ncclIbInit}, {@code ibv_get_device_list};
     * a net plugin such as gIB opens the same verbs devices), whatever the node holds. With one pod per node these are
     * the NICs of the run's host.
     *
     * @param text header text (null allowed)
     * @return the first such count (1 or more), empty when no clause naming a pod states one
     */
    public static OptionalInt podCount(String text) {
        Matcher c = CLAUSE.matcher(text == null ? "" : text);
        while (c.find()) {
            if (!POD.matcher(c.group()).find()) {
                continue;
            }
            Matcher m = POD_NICS.matcher(c.group());
            if (m.find()) {
                String n = m.group(1).toLowerCase(Locale.ROOT);
                int count = WORDS.containsKey(n) ? WORDS.get(n) : Integer.parseInt(n);
                if (count >= 1) {
                    return OptionalInt.of(count);
                }
            }
        }
        return OptionalInt.empty();
    }

    /**
     * A NIC count with its speed, e.g. {@code 8x 200 Gbps NICs}, {@code 16x100 Gb/s}: the first such figure in a NIC
     * or network clause ({@link #networkClauses}).
     *
     * @param text header text (null allowed)
     * @return {count, Gb/s}, empty when no NIC or network clause of the text states one between 10 and 1,600 Gb/s
     */
    public static Optional<double[]> countAndGbits(String text) {
        Matcher m = COUNT_X_SPEED.matcher(networkClauses(text));
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
     * @param text header text
     * @param end  where a speed's unit ends in it
     * @return true when the speed is a host's total ({@link #HOST_TOTAL})
     */
    static boolean hostTotal(String text, int end) {
        return HOST_TOTAL.matcher(text.substring(end)).find();
    }

    /**
     * @param text header text (null parts allowed as the text "null")
     * @return the largest speed in Gb/s (10 to 1,600) that a NIC or network clause states, a host's total ("1000 Gbps
     *         per VM") not counted; with none, a named HPE
     *         Slingshot's NIC speed ({@link #SLINGSHOT_GBITS}); empty otherwise
     */
    public static OptionalDouble gbits(String text) {
        String clauses = networkClauses(text);
        Matcher m = NETWORK_SPEED.matcher(clauses);
        double best = -1;
        while (m.find()) {
            if (hostTotal(clauses, m.end())) {
                continue; // a host's total is no NIC's speed
            }
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

    /**
     * @param text header text (null allowed)
     * @return the clauses of the text (split at {@code ; , ( )}) that name a NIC or network ({@link #NETWORK_WORDS}),
     *         joined by {@code ;}
     */
    public static String networkClauses(String text) {
        StringBuilder out = new StringBuilder();
        Matcher c = CLAUSE.matcher(text == null ? "" : text);
        while (c.find()) {
            if (NETWORK_WORDS.matcher(c.group()).find()) {
                out.append(c.group()).append(';');
            }
        }
        return out.toString();
    }
}
