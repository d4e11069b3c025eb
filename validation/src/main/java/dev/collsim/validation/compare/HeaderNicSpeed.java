package dev.collsim.validation.compare;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NIC port speed a data file's header text states, e.g. {@code ConnectX-7 200GbE}, {@code 200 Gb/s per NIC},
 * {@code Slingshot-200}, {@code 400G}: the largest such figure between 10 and 1,600 Gb/s; and the NIC count it
 * states ({@code 8x 200 Gbps NICs}, {@code 4x ConnectX-7}). Only a NIC or network phrase sets a speed: the figure
 * must be in bits (a capital B is bytes: {@code 600 GB/s bidirectional} of an NVLink bridge is not a NIC) and stand
 * in a clause (text between {@code ; , ( )}) that names a NIC or network ({@link #NETWORK_WORDS}); a figure in a
 * clause about NVLink, a bridge or a BAR ({@code large BAR (32G BAR1)}) sets none. Stateless.
 */
final class HeaderNicSpeed {

    /**
     * Speed assumed when a header states none, Gb/s: 400, the ConnectX-7 port speed of current HGX systems (NVIDIA
     * ConnectX-7 datasheet: up to 400 Gb/s per port).
     */
    static final double ASSUMED_GBITS = 400;

    /** A speed in bits: {@code Gb/s}, {@code Gbps}, {@code Gbit}, {@code GbE}, {@code G}; never {@code GB} (bytes). */
    private static final String BITS = "\\s?(?:[Gg]b/s|[Gg]bps|[Gg]bit|[Gg]bE|[Gg]\\b)";

    private static final Pattern SPEED = Pattern.compile(
            "(?:(\\d{2,4})" + BITS + ")|(?i:slingshot[- ]?|roce|ndr|hdr)(\\d{3})\\b");

    private static final Pattern COUNT_SPEED = Pattern.compile("(\\d{1,2})\\s?[xX]\\s?(\\d{2,4})" + BITS);

    /**
     * Words of a NIC or network phrase: NIC, port, network, inter-node, between nodes, the transports (InfiniBand and
     * its rates NDR/HDR/EDR/XDR, RoCE, RDMA, Ethernet/GbE, TCP, socket, EFA, Slingshot, gIB, TCPX/TCPXO) and NIC
     * makes (ConnectX/CX-n, mlx, QSFP). A clause without one (an NVLink bridge's figure, a BAR size) sets no speed.
     */
    static final Pattern NETWORK_WORDS = Pattern.compile("(?i)\\b(?:nics?|ports?|network|inter-node|internode"
            + "|between (?:nodes|hosts)|ib|infiniband|ndr|hdr|edr|xdr|roce\\w*|rdma|ethernet|\\d*gbe|tcp\\w*|socket"
            + "|efa\\w*|slingshot\\S*|gib|connectx\\S*|cx-?\\d|mlx\\w*|qsfp\\w*)\\b");

    private static final Pattern CLAUSE = Pattern.compile("[^;,()]+");

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
     * @return {count, Gb/s}, empty when no NIC or network clause of the text states one between 10 and 1,600 Gb/s
     */
    static Optional<double[]> countAndGbits(String text) {
        Matcher m = COUNT_SPEED.matcher(networkClauses(text));
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
     * @return the largest speed in Gb/s that a NIC or network clause states; with none, a named HPE Slingshot's NIC speed
     *         ({@link #SLINGSHOT_GBITS}); empty otherwise
     */
    static OptionalDouble gbits(String text) {
        Matcher m = SPEED.matcher(networkClauses(text));
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

    /**
     * @param text header text (null allowed)
     * @return the clauses of the text (split at {@code ; , ( )}) that name a NIC or network ({@link #NETWORK_WORDS}),
     *         joined by {@code ;}
     */
    static String networkClauses(String text) {
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
