package dev.collsim.validation.ingest;

import dev.collsim.nccl.Algorithm;
import dev.collsim.io.NumberField;
import dev.collsim.nccl.Protocol;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Collects NCCL_DEBUG=INFO/WARN lines of one run into an {@link NcclLog}. Feed it every line (with its number);
 * it keeps only NCCL's own messages. Message shapes follow NCCL 2.18-2.30 ({@code src/init.cc},
 * {@code src/transport.cc}, {@code src/graph/search.cc}, {@code src/graph/tuning.cc}, {@code src/enqueue.cc}).
 * Not thread-safe.
 */
public final class NcclLogParser {

    private static final Pattern MARK = Pattern.compile("NCCL (INFO|WARN)\\s?(.*)$");
    private static final Pattern VERSION = Pattern.compile("NCCL version (\\S+)");
    private static final Pattern RANKS = Pattern.compile(
            "nRanks (\\d+) nNodes (\\d+) localRanks (\\d+)");
    /**
     * "comm %p rank %d nranks %d cudaDev %d [nvmlDev %d] [busId %x] ... - Init START|COMPLETE": no busId in 2.4
     * (v2.4.8-1 src/init.cc:957), busId from 2.5 (v2.7.8-1 src/init.cc:843), Init START only from 2.18
     * (v2.18.6-1 src/init.cc:1375), a function name or "[Rank %d]" before "comm" later (v2.30.7-1 init.cc:1945).
     */
    private static final Pattern INIT = Pattern.compile(
            "rank (\\d+) nranks (\\d+) cudaDev \\d+(?: nvmlDev \\d+)?(?: busId ([0-9a-fA-F]+))?");
    private static final Pattern NETWORK = Pattern.compile("Using network (.+?)\\s*$");
    /**
     * A connection line of any release: "Channel cc/i : r[bus] -> p[bus] [send] via T" (2.12 on), "Channel cc : ..."
     * (2.7 to 2.11, and SHM to 2.12), "Ring cc : r[dev] -> p[dev] via T" or "Ring cc : r -> p via T" (2.4 to 2.6;
     * NCCL {@code src/transport/net.cc}, {@code p2p.cc}, {@code shm.cc} of those tags).
     */
    private static final Pattern TRANSPORT = Pattern.compile("(?:Channel|Ring) (\\d+)(?:/\\d+)? : (\\d+)(?:\\[[^\\]]*\\])?"
            + " -> (\\d+)(?:\\[[^\\]]*\\])?(?: \\[(send|receive)\\])? via (.+?)\\s*$");
    /**
     * A ring order: "Channel cc/NN : r0 r1 ..." (2.5 on), "Channel cc : r0 r1 ..." (2.4 {@code src/init.cc}); 2.23 on cut
     * a line past 128 characters and end it in "..." (v2.23.4-1 to v2.28.9-1 {@code src/graph/rings.cc dumpLine}).
     */
    private static final Pattern RING = Pattern.compile("^Channel (\\d+)(?:/(\\d+))? :((?:\\s+\\d+)+)\\s*(\\.\\.\\.)?\\s*$");
    private static final Pattern COUNTS = Pattern.compile("(\\d+) coll channels, (?:(\\d+) collnet channels, )?"
            + "(?:(\\d+) nvls channels, )?(\\d+) p2p channels, (\\d+) p2p channels per peer");
    /** The search graph: "speed %f/%f" to 2.13 (v2.12.12-1 src/graph/search.cc:905), "bw %f/%f" from 2.14. */
    private static final Pattern GRAPH = Pattern.compile("Pattern (\\d+), crossNic (\\d+), nChannels (\\d+), "
            + "(?:bw|speed) ([0-9.]+)/([0-9.]+), type (\\w+)/(\\w+), sameChannels (\\d+)");
    private static final Pattern ENV = Pattern.compile("^(\\w+) set by environment to (.*?)\\.?\\s*$");
    private static final Pattern CHOICE = Pattern.compile(
            "(?:(?<!\\w)(\\w+): )?(?<![\\w.])(\\d+) Bytes -> Algo (\\w+) proto (\\w+)(?: time ([0-9.]+))?");
    private static final Pattern DIGITS = Pattern.compile("\\d+");
    private static final Pattern TUNING_CELL = Pattern.compile("(?<![0-9.])([0-9.]+)\\s*/\\s*([0-9.]+)");

    private String version = "";
    private int versionLine;
    private int nRanks;
    private int nNodes;
    private int localRanks;
    private final Map<Integer, String> busIds = new LinkedHashMap<>();
    private String network = "";
    private int networkLine;
    private int ibNotFound;
    private final List<NcclLog.TransportEdge> transports = new ArrayList<>();
    private final List<NcclLog.ChannelCounts> counts = new ArrayList<>();
    private final List<NcclLog.RingOrder> rings = new ArrayList<>();
    private int treeLines;
    private final List<NcclLog.GraphLine> graphs = new ArrayList<>();
    private final List<NcclLog.TuningEntry> tuning = new ArrayList<>();
    private final List<NcclLog.AlgoChoice> choices = new ArrayList<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private final List<Note> flagged = new ArrayList<>();
    private final NetworkLogCollector net = new NetworkLogCollector();
    private List<String[]> tuningColumns;
    private List<String> tuningAlgorithms;

    /**
     * Offers one line.
     *
     * @param text the line, prefixes such as {@code host:pid:tid [dev]} included
     * @param line 1-based line number
     * @return true when the line was an NCCL message (INFO, WARN, or nccl-tests' "NCCL version" line)
     */
    public boolean accept(String text, int line) {
        Matcher mark = MARK.matcher(text);
        if (!mark.find()) {
            Matcher v = VERSION.matcher(text);
            if (text.strip().startsWith("NCCL version") && v.find()) {
                setVersion(v.group(1), line);
                return true;
            }
            return false;
        }
        String msg = mark.group(2).strip();
        if (mark.group(1).equals("WARN")) {
            flagged.add(new Note(line, "NCCL WARN " + msg));
            net.acceptWarn(msg, line);
            return true;
        }
        try {
            info(msg, line);
        } catch (NumberField.Refused e) {
            throw e.shifted(text.indexOf(msg, mark.start(2)));
        }
        return true;
    }

    private void setVersion(String v, int line) {
        if (version.isEmpty()) {
            version = v;
            versionLine = line;
        }
    }

    private void info(String msg, int line) {
        net.accept(msg, line);
        Matcher m;
        if ((m = VERSION.matcher(msg)).find() && msg.startsWith("NCCL version")) {
            setVersion(m.group(1), line);
        } else if ((m = RANKS.matcher(msg)).find()) {
            nRanks = NumberField.count(m, 1, "nRanks");
            nNodes = NumberField.count(m, 2, "nNodes");
            localRanks = NumberField.count(m, 3, "localRanks");
        } else if ((msg.contains("Init START") || msg.contains("Init COMPLETE")) && (m = INIT.matcher(msg)).find()) {
            if (m.group(3) != null) {
                busIds.put(NumberField.count(m, 1, "rank"), m.group(3));
            }
            nRanks = Math.max(nRanks, NumberField.count(m, 2, "nranks"));
        } else if ((m = NETWORK.matcher(msg)).find()) {
            network = m.group(1);
            networkLine = line;
        } else if (msg.startsWith("NET/IB") && msg.contains("No device found")) {
            ibNotFound = ibNotFound == 0 ? line : ibNotFound;
        } else if ((m = TRANSPORT.matcher(msg)).find()) {
            transports.add(new NcclLog.TransportEdge(NumberField.count(m, 1, "channel"), NumberField.count(m, 2, "rank"),
                    NumberField.count(m, 3, "peer rank"), m.group(5), m.group(4) == null ? "" : m.group(4), line));
        } else if ((m = RING.matcher(msg)).find()) {
            List<Integer> order = new ArrayList<>();
            Matcher rank = DIGITS.matcher(m.group(3));
            while (rank.find()) {
                // a number "..." follows directly may have lost digits to it: left out
                if (m.start(4) != m.end(3) || m.start(3) + rank.end() < m.end(3)) {
                    order.add(NumberField.count(rank.group(), "ring order", m.start(3) + rank.start() + 1));
                }
            }
            rings.add(new NcclLog.RingOrder(NumberField.count(m, 1, "channel"),
                    m.group(2) == null ? -1 : NumberField.count(m, 2, "nChannels"), order, line));
        } else if (msg.startsWith("Trees")) {
            treeLines++;
        } else if ((m = COUNTS.matcher(msg)).find()) {
            counts.add(new NcclLog.ChannelCounts(NumberField.count(m, 1, "coll channels"),
                    m.group(2) == null ? -1 : NumberField.count(m, 2, "collnet channels"),
                    m.group(3) == null ? 0 : NumberField.count(m, 3, "nvls channels"),
                    NumberField.count(m, 4, "p2p channels"), NumberField.count(m, 5, "p2p channels per peer"), line));
        } else if ((m = GRAPH.matcher(msg)).find()) {
            graphs.add(new NcclLog.GraphLine(NumberField.count(m, 1, "Pattern"), NumberField.count(m, 2, "crossNic"),
                    NumberField.count(m, 3, "nChannels"), NumberField.finite(m, 4, "bw (intra)"),
                    NumberField.finite(m, 5, "bw (inter)"), m.group(6), m.group(7),
                    NumberField.count(m, 8, "sameChannels"), line));
        } else if ((m = ENV.matcher(msg)).find()) {
            env.put(m.group(1), m.group(2).strip());
        } else if ((m = CHOICE.matcher(msg)).find()) {
            choices.add(new NcclLog.AlgoChoice(m.group(1) == null ? "" : m.group(1), NumberField.longCount(m, 2, "Bytes"),
                    algoName(m.group(3)), protoName(m.group(4)),
                    m.group(5) == null ? Double.NaN : NumberField.finite(m, 5, "time"), line));
        } else if (msg.startsWith("Latency/AlgBw")) {
            tuningColumns = tuningHeader(msg);
        } else if (msg.startsWith("Algorithm") && msg.contains("|")) {
            tuningAlgorithms = cellsAfterLabel(msg);
            tuningColumns = null;
        } else if (msg.startsWith("Protocol") && msg.contains("|") && tuningAlgorithms != null) {
            tuningColumns = splitHeader(tuningAlgorithms, cellsAfterLabel(msg));
            tuningAlgorithms = null;
        } else if (tuningColumns != null && msg.contains("|") && !msg.startsWith("Max NThreads")) {
            tuningRow(msg, line);
        } else if (isFlagged(msg)) {
            flagged.add(new Note(line, "NCCL INFO " + msg));
        }
    }

    private static boolean isFlagged(String msg) {
        String l = msg.toLowerCase(Locale.ROOT);
        return l.contains("gpu direct rdma") || l.contains("gdr") || l.contains("nvls") || l.contains("p2p")
                || l.contains("lnksta") || l.contains("link_width") || l.contains("link_speed")
                || l.contains("no device found") || l.contains("net/socket") || l.contains("net/ib")
                || l.contains("shm") || l.contains("collnet");
    }

    private static List<String[]> tuningHeader(String msg) {
        List<String[]> cols = new ArrayList<>();
        String[] cells = msg.split("\\|");
        for (int i = 1; i < cells.length; i++) {
            String c = cells[i].strip();
            int slash = c.indexOf('/');
            if (slash > 0) {
                cols.add(new String[] {c.substring(0, slash).strip(), c.substring(slash + 1).strip()});
            }
        }
        return cols;
    }

    private static List<String> cellsAfterLabel(String msg) {
        List<String> out = new ArrayList<>();
        String[] cells = msg.split("\\|");
        for (int i = 1; i < cells.length; i++) {
            if (!cells[i].isBlank()) {
                out.add(cells[i].strip());
            }
        }
        return out;
    }

    /**
     * NCCL 2.24+ prints the tuning header on two lines, "Algorithm | Tree | Ring ..." (each spanning its
     * protocols) then "Protocol | LL | LL128 | Simple | ...". A line mangled by other output (a protocol that is
     * not LL, LL128 or Simple, or a count that does not split evenly) yields no columns, so its rows are skipped.
     */
    private static List<String[]> splitHeader(List<String> algorithms, List<String> protocols) {
        if (algorithms.isEmpty() || protocols.size() % algorithms.size() != 0
                || !protocols.stream().allMatch(p -> p.equals("LL") || p.equals("LL128") || p.equals("Simple"))) {
            return null;
        }
        int per = protocols.size() / algorithms.size();
        List<String[]> cols = new ArrayList<>();
        for (int i = 0; i < protocols.size(); i++) {
            cols.add(new String[] {algorithms.get(i / per), protocols.get(i)});
        }
        return cols;
    }

    private void tuningRow(String msg, int line) {
        String[] cells = msg.split("\\|");
        String function = cells[0].strip();
        if (function.isEmpty() || !Character.isLetter(function.charAt(0))) {
            return;
        }
        for (int i = 1; i < cells.length && i - 1 < tuningColumns.size(); i++) {
            Matcher c = TUNING_CELL.matcher(cells[i]);
            if (c.find()) {
                String[] ap = tuningColumns.get(i - 1);
                tuning.add(new NcclLog.TuningEntry(function, ap[0], ap[1], NumberField.finite(c, 1, "tuning table value"),
                        NumberField.finite(c, 2, "tuning table value"), line));
            }
        }
    }

    /** NCCL prints the algorithm as an index (NCCL order, {@link Algorithm}) or, in some builds, a name. */
    private static String algoName(String s) {
        if (s.chars().allMatch(Character::isDigit)) {
            int i = NumberField.count(s, "Algo", 0);
            return i < Algorithm.values().length ? Algorithm.values()[i].ncclName() : s;
        }
        return s;
    }

    private static String protoName(String s) {
        if (s.chars().allMatch(Character::isDigit)) {
            int i = NumberField.count(s, "proto", 0);
            return i < Protocol.values().length ? Protocol.values()[i].ncclName() : s;
        }
        return s;
    }

    /** @return true when no NCCL line has been accepted yet */
    public boolean isEmpty() {
        return build().isEmpty();
    }

    /** @return what was collected so far */
    public NcclLog build() {
        return new NcclLog(version, versionLine, nRanks, nNodes, localRanks, busIds, network, networkLine,
                ibNotFound, transports, counts, rings, treeLines, graphs, tuning, choices, env, flagged,
                net.build(network, ibNotFound > 0, transports));
    }
}
