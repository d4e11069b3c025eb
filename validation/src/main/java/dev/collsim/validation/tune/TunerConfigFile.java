package dev.collsim.validation.tune;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The configuration file of NCCL's example tuner plugin ({@code plugins/tuner/example} in the NCCL repository from
 * 2.29, {@code ext-tuner/example} in 2.27 and 2.28, which first read a file; read with {@code NCCL_TUNER_CONFIG_FILE}).
 * One line per {@link ConfigLine}:
 * {@code collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff}, with the
 * advised channel count or {@code 0} (NCCL's own count), the communicator's own nNodes and nRanks, and {@code -1}
 * for numPipeOps and regBuff (any). Every swept size range of every collective swept gets a line, advice or NCCL's own
 * choice, because a call that matches no line runs on one channel (below).
 *
 * <p>The plugin's rules, re-derived from its README.md and plugin.c (NCCL 2.30.7; facts only), that
 * {@link #problems} checks: a line is read into a 256-byte buffer (so at most 254 characters before the newline);
 * a line whose first character is {@code #} or that is empty is skipped ({@code #} after a space is not a comment);
 * fields are split on commas with empty fields collapsed (strtok) and spaces and tabs trimmed; a line with fewer than
 * 8 fields is silently dropped, and only the first 10 are read; unknown collective names silently become allreduce,
 * unknown algorithms ring and unknown protocols simple, so a misspelling is not rejected but misapplied; sizes are
 * parsed as unsigned decimals and matched inclusively ({@code min_bytes <= nBytes <= max_bytes}); nNodes, nRanks,
 * numPipeOps and regBuff match when -1 or equal; the first matching line wins; the matched (algorithm, protocol) gets
 * cost 0 unless NCCL marked it ineligible, in which case the plugin logs it and tries the next line.
 *
 * <p>Channels: {@code pluginGetCollInfo} sets {@code *nChannels = 1} before it looks for a line and overwrites it
 * only with a matching line's channels other than {@code -1}; NCCL ({@code src/enqueue.cc ncclGetAlgoInfo}) replaces
 * its own per-call count with the plugin's whenever that is not 0, and {@code scheduleCollTasksToPlan} caps it at
 * comm.nChannels (NVLS: the NVLS channels). So, against the plugin's README ("-1 keeps NCCL's default"), a line with
 * {@code -1} and a call that matches no line both run on one channel, and {@code 0} is what keeps NCCL's own count
 * (NCCL 2.30.7 {@code plugins/tuner/example/plugin.c}; the same in 2.27.5 and 2.28 {@code ext-tuner/example}).
 */
public final class TunerConfigFile {

    /** The plugin's name per collective (README "collective_type"), in {@link Collective}'s order. */
    public static final Map<Collective, String> COLLECTIVES = inEnumOrder(Collective.class, Map.of(Collective.BROADCAST, "broadcast",
            Collective.REDUCE, "reduce", Collective.ALL_GATHER, "allgather", Collective.REDUCE_SCATTER,
            "reducescatter", Collective.ALL_REDUCE, "allreduce"));

    /** The plugin's name per algorithm (README "algorithm"), in {@link Algorithm}'s order. */
    public static final Map<Algorithm, String> ALGORITHMS = inEnumOrder(Algorithm.class, Map.of(Algorithm.TREE, "tree", Algorithm.RING, "ring",
            Algorithm.COLLNET_DIRECT, "collnet_direct", Algorithm.COLLNET_CHAIN, "collnet_chain", Algorithm.NVLS,
            "nvls", Algorithm.NVLS_TREE, "nvls_tree", Algorithm.PAT, "pat"));

    /** The plugin's name per protocol (README "protocol"), in {@link Protocol}'s order. */
    public static final Map<Protocol, String> PROTOCOLS = inEnumOrder(Protocol.class, Map.of(Protocol.LL, "ll",
            Protocol.LL128, "ll128", Protocol.SIMPLE, "simple"));

    /** Longest line the plugin reads whole: its buffer is 256 bytes including the newline and terminator. */
    public static final int MAX_LINE = 254;

    private TunerConfigFile() {
    }

    /**
     * An unmodifiable copy iterating in the enum's declaration order: {@code Map.of} iterates in an order salted per
     * JVM, and these values are listed in error messages.
     */
    private static <K extends Enum<K>> Map<K, String> inEnumOrder(Class<K> type, Map<K, String> names) {
        EnumMap<K, String> m = new EnumMap<>(type);
        m.putAll(names);
        return Collections.unmodifiableMap(m);
    }

    /**
     * @param r      the tuning result
     * @param header comment lines to put first (each written after {@code "# "})
     * @return the file's lines (no line ends): every {@link ConfigLine}, advice and NCCL's own choice, in collective
     *         then size order
     * @throws IllegalStateException when a line would break the plugin's rules (a bug)
     */
    public static List<String> lines(TuneResult r, List<String> header) {
        List<String> out = new ArrayList<>();
        for (String h : header) {
            out.addAll(comment(h.replace('\n', ' ').replace('\r', ' ')));
        }
        out.add("# collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff");
        for (ConfigLine g : r.lines()) {
            out.add(String.format(Locale.ROOT, "%s,%d,%d,%s,%s,%d,%d,%d,-1,-1", COLLECTIVES.get(g.collective()),
                    g.minBytes(), g.maxBytes(), ALGORITHMS.get(g.target().algorithm()),
                    PROTOCOLS.get(g.target().protocol()), g.target().channels(), r.nNodes(), r.nRanks()));
        }
        List<String> bad = problems(out);
        if (!bad.isEmpty()) {
            throw new IllegalStateException("tuner config breaks the plugin's rules: " + bad);
        }
        return List.copyOf(out);
    }

    /**
     * @param text one comment's text
     * @return it as {@code # } lines of at most {@link #MAX_LINE} characters, broken at spaces (a long header line was
     *         cut off mid-word at the limit, losing its end); a word longer than a line is cut
     */
    static List<String> comment(String text) {
        List<String> out = new ArrayList<>();
        String rest = text.strip();
        int room = MAX_LINE - 2;
        while (rest.length() > room) {
            int cut = rest.lastIndexOf(' ', room);
            cut = cut > 0 ? cut : room;
            out.add("# " + rest.substring(0, cut).stripTrailing());
            rest = rest.substring(cut).strip();
        }
        out.add("# " + rest);
        return out;
    }

    /**
     * Checks lines against the plugin's parsing rules (class comment), stricter where the plugin would silently
     * misread: every non-comment line must have exactly 10 non-empty fields with known names and valid numbers.
     *
     * @param lines the file's lines, without line ends
     * @return one message per problem ({@code line N, field F: found X, allowed Y}), empty when the plugin reads
     *         every line as meant
     */
    public static List<String> problems(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int n = i + 1;
            if (l.length() > MAX_LINE || l.indexOf('\r') >= 0) {
                out.add("line " + n + ": " + l.length() + " characters or a carriage return; allowed: at most "
                        + MAX_LINE + " characters, \\n line ends");
                continue;
            }
            if (l.isEmpty() || l.charAt(0) == '#') {
                continue;
            }
            String[] f = l.split(",", -1);
            if (f.length != 10) {
                out.add("line " + n + ": " + f.length + " fields; allowed: 10 (written files use all 10)");
                continue;
            }
            check(out, n, "collective_type", f[0], Set.copyOf(COLLECTIVES.values()).contains(f[0]),
                    COLLECTIVES.values().toString());
            check(out, n, "min_bytes", f[1], f[1].matches("[0-9]{1,19}"), "an unsigned decimal");
            check(out, n, "max_bytes", f[2], f[2].matches("[0-9]{1,19}")
                    && (!f[1].matches("[0-9]{1,19}") || new BigInteger(f[1]).compareTo(new BigInteger(f[2])) <= 0),
                    "an unsigned decimal >= min_bytes");
            check(out, n, "algorithm", f[3], Set.copyOf(ALGORITHMS.values()).contains(f[3]),
                    ALGORITHMS.values().toString());
            check(out, n, "protocol", f[4], Set.copyOf(PROTOCOLS.values()).contains(f[4]),
                    PROTOCOLS.values().toString());
            check(out, n, "channels", f[5], f[5].matches("0|[1-9][0-9]{0,8}"), "0 (NCCL's own count) or a positive "
                    + "count; -1 leaves the plugin's default of 1 channel");
            check(out, n, "nNodes", f[6], f[6].matches("-1|[1-9][0-9]{0,8}"), "-1 or a positive integer");
            check(out, n, "nRanks", f[7], f[7].matches("-1|[1-9][0-9]{0,8}"), "-1 or a positive integer");
            check(out, n, "numPipeOps", f[8], f[8].matches("-1|[1-9][0-9]{0,8}"), "-1 or a positive integer");
            check(out, n, "regBuff", f[9], f[9].matches("-1|0|1"), "-1, 0 or 1");
        }
        return out;
    }

    private static void check(List<String> out, int line, String field, String found, boolean ok, String allowed) {
        if (!ok) {
            out.add("line " + line + ", field " + field + ": found '" + found + "', allowed " + allowed);
        }
    }
}
