package dev.collsim.simulator.tuning;

import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The NCCL releases whose tuning collsim models. Two are modelled in full (tables, search speeds and rules): 2.28.9 and
 * 2.30.7 (constants differ between them in a few tables, marked "[2.28 diff]" in the project's NCCL fact sheet, read
 * from NCCL {@code src/graph/tuning.cc} and {@code src/graph/search.cc} at tags {@code v2.28.9-1} and
 * {@code v2.30.7-1}). The older entries, 2.8.4 to 2.27.3, each stand for a range of releases whose tuning applies
 * rules that differ from 2.28.9's (Ring LL and LL128 factors, llMaxBw, the LL128 default, latencies, NVLS and
 * NVLSTree figures, the algorithms each function may use, PAT's enable; {@link ReleaseRules}, {@link TuningConstants},
 * docs/nccl-releases.md), and their sm100 search speeds and NVLS channel count ({@code channel.SearchSpeeds},
 * {@code channel.NvlsTuning#defaultChannels}), and before 2.18 the sm70/sm80 NVLink figure and sm80 search speeds
 * ({@code topology.NcclBandwidths#nvlinkPerLink(int, int)}); everything else of theirs (the rest of the search, the NVLS time
 * ({@link TimeTable}), P2P, the other tables) is modelled with 2.28.9's ({@link #tables}). Each older entry is named
 * by the first release tag of its range, read with {@code git show v2.x.y-1:src/graph/tuning.cc}. The 2.8.4 and
 * 2.10.3 entries (2.8-2.9, 2.10-2.11) also carry their own tables of {@code ncclTopoTuneModel} ({@link
 * EarlyTuningTables}); 2.12-2.17 have no entry (2.18.5 approximates them, {@link #modelling}).
 */
public enum NcclVersion {
    /**
     * NCCL 2.8.4 (2.8-2.9): its own {@code ncclTopoTuneModel} tables ({@link EarlyTuningTables}: per-function LL128
     * caps, the sm80 235 GB/s cap, LL128 only on sm70/sm80) and rules; 2.4-2.7 are approximated by it.
     */
    V2_8_4("2.8.4", 8, 9),
    /** NCCL 2.10.3 (2.10-2.11): as 2.8.4 but LL128 capped at 20 GB/s a channel, Ampere tree caps 23.6 / 17.8. */
    V2_10_3("2.10.3", 10, 11),
    /** NCCL 2.18.5 (2.18.x): Ring LL at 1/4 (1/3), Tree/Simple hwLat 4/6/14 us, AllGather Ring only. */
    V2_18_5("2.18.5", 18, 18),
    /** NCCL 2.19.4 (2.19-2.20): as 2.18.5 but Tree/Simple hwLat 28 us on every link. */
    V2_19_4("2.19.4", 19, 20),
    /** NCCL 2.21.5 (2.21-2.22): Ring LL at 1/2 and Hopper llMaxBw 141; LL128 0.7 at ppn below 2; no PAT. */
    V2_21_5("2.21.5", 21, 22),
    /** NCCL 2.23.4 (2.23-2.24): 2.28.9's factors and latencies; LL128 by default on sm70, sm80, sm90 only. */
    V2_23_4("2.23.4", 23, 24),
    /** NCCL 2.25.1 (2.25-2.26): Blackwell tables of twice Hopper's; LL128 also on sm100, sm120. */
    V2_25_1("2.25.1", 25, 26),
    /** NCCL 2.27.3 (2.27.x): LL128 by default from sm70; Blackwell tables still twice Hopper's. */
    V2_27_3("2.27.3", 27, 27),
    /** NCCL 2.28.9 (2.29 takes it too). */
    V2_28_9("2.28.9", 28, 29),
    /** NCCL 2.30.7 (the default: the newest release read). */
    V2_30_7("2.30.7", 30, 30);

    /** The version used when none is given: the newest. */
    public static final NcclVersion DEFAULT = V2_30_7;

    /** An NCCL 2 release as {@code 2.M} or {@code 2.M.P}. */
    private static final Pattern RELEASE = Pattern.compile("2\\.(\\d{1,2})(?:\\.\\d{1,2})?");

    private final String text;
    private final int minor;
    /** The newest NCCL 2 minor release this entry stands for. */
    private final int last;

    NcclVersion(String text, int minor, int last) {
        this.text = text;
        this.minor = minor;
        this.last = last;
    }

    /**
     * @return the carried release whose tables, search speeds and code outside {@code ncclTopoTuneModel}'s
     *         release-conditional rules model this one: itself for 2.28.9 and 2.30.7, 2.28.9 for the older entries
     */
    public NcclVersion tables() {
        return minor >= V2_28_9.minor ? this : V2_28_9;
    }

    /** @return true for 2.28.9 and 2.30.7, the releases collsim models in full */
    public boolean carriedWhole() {
        return tables() == this;
    }

    /**
     * @return the releases this entry stands for, e.g. {@code 2.19-2.20}, {@code 2.27} or {@code 2.30.7} (a release
     *         modelled in full is named exactly)
     */
    public String range() {
        if (carriedWhole()) {
            return text;
        }
        return last == minor ? "2." + minor : "2." + minor + "-2." + last;
    }

    /** @return the release, e.g. {@code 2.30.7} */
    public String text() {
        return text;
    }

    /**
     * The words a user reads after "NCCL 2.28.9 modelled" (compare) or "the NCCL 2.28.9 model" (predict, report): why
     * 2.28.9 and what of the older release is kept. The kept rules are those of NCCL's algorithm and protocol choice
     * ({@code ncclTopoTuneModel}'s bandwidth factors and latencies, the algorithms and protocols it allows; the list
     * in docs/nccl-releases.md).
     *
     * @return for an older entry, with a leading comma, e.g. {@code , the oldest release collsim models in full, with
     *         NCCL 2.19-2.20's own bandwidth factors, latencies and allowed algorithms and protocols where they differ
     *         (docs/nccl-releases.md)}; empty for a release modelled in full
     */
    public String rulesNote() {
        return carriedWhole() ? "" : ", the oldest release collsim models in full, with NCCL " + range() + "'s own"
                + (minor < V2_18_5.minor ? " tuning tables," : "") + " bandwidth factors, latencies and allowed"
                + " algorithms and protocols where they differ (docs/nccl-releases.md)";
    }

    /** @return the newest NCCL 2 minor release this entry stands for, e.g. 29 for 2.28.9 */
    public int last() {
        return last;
    }

    /** @return the NCCL 2 minor release, e.g. 30 for 2.30.7 (the first of its range for an older entry) */
    public int minor() {
        return minor;
    }

    /**
     * The entry that models a run of NCCL 2.{@code minor}: the entry whose range holds it ({@link #range}), else for a
     * release between two ranges (2.12-2.17) the newer of the two, 2.18.5, which only approximates it; a release older
     * than every entry (2.4-2.7) takes the oldest, 2.8.4, and one newer than every entry the newest. The patch
     * releases of 2.30 share what collsim models (read at tags v2.30.3-1, v2.30.4-1, v2.30.7-1: {@code
     * src/graph/tuning.cc} per-channel caps and tree correction, {@code src/graph/search.cc} sm100 speed arrays,
     * {@code src/transport/nvls.cc ncclNvlsTuning}, first in 2.30.3); 2.28.3 differs from 2.28.9 only in two Blackwell
     * caps (Ring/LL128 73.4 GB/s on two nodes, 2.28.9: 34.6; NVLSTree N4 43.1, 2.28.9: 43.8). 2.29 takes 2.28.9: the
     * newer model would apply code the run's NCCL did not have (2.29.x has no {@code ncclNvlsTuning} and keeps 2.28's
     * NVLSTree N4 cap of 43.8 GB/s, NCCL 2.29.7 {@code src/graph/tuning.cc}), while the older model misses only what
     * the run's release added. A run of 2.8-2.11 or 2.18-2.27 takes the entry of its range, whose tuning rules (and
     * for 2.8-2.11 tables) are its own but whose search and other code are 2.28.9's ({@link #tables}): NCCL 2.27.3's
     * sm100 inter-node search speeds, for one, start at 47.9, 45.0 GB/s (2.28.9: 96, 48, 45.1; {@code
     * src/graph/search.cc}). 2.12-2.17 change a table or rule of 2.11 in many places (the net plugin's latency,
     * {@code 2*nNodes} ring steps, the CollNet NIC ratio; docs/nccl-releases.md) and have no entry of their own.
     *
     * @param minor NCCL 2 minor release the run states, e.g. 27 for 2.27.3
     * @return the release collsim models it with
     */
    public static NcclVersion modelling(int minor) {
        NcclVersion[] all = values();
        if (minor < all[0].minor) {
            return all[0];
        }
        for (NcclVersion n : all) {
            if (minor <= n.last) {
                return n;
            }
        }
        return all[all.length - 1];
    }

    /**
     * Parses an NCCL 2 release of an entry's range (2.8-2.11, 2.18-2.30), as {@code 2.M} or {@code 2.M.P} (e.g.
     * {@code 2.28}, {@code 2.28.9}, {@code 2.20.5}, {@code 2.29}, {@code 2.9.9}): an entry's own name picks it, any
     * other release of a range the entry that models it ({@link #modelling}: 2.20.5 takes 2.19.4's rules, 2.29 takes
     * 2.28.9, 2.9.9 takes 2.8.4). Other releases (2.12-2.17, before 2.8, after 2.30) are refused: collsim carries no
     * rules of theirs.
     *
     * @param value the text
     * @return the version
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static NcclVersion parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (NcclVersion n : values()) {
            if (n.text.equals(v) || n.text.substring(0, n.text.lastIndexOf('.')).equals(v)) {
                return n;
            }
        }
        Matcher m = RELEASE.matcher(v);
        if (m.matches()) {
            int minor = Integer.parseInt(m.group(1));
            for (NcclVersion n : values()) {
                if (minor >= n.minor && minor <= n.last) {
                    return n;
                }
            }
        }
        throw new IllegalArgumentException("unknown NCCL version '" + value + "'; allowed: a release 2."
                + V2_8_4.minor + " to 2." + V2_10_3.last + " or 2." + V2_18_5.minor + " to 2." + V2_30_7.last
                + " as 2.M or 2.M.P; releases collsim models in full: " + allowed(true)
                + "; by their own tuning rules over the 2.28.9 model: " + allowed(false));
    }

    /**
     * @param whole true for the releases collsim models in full ({@link #carriedWhole}), false for the others
     * @return their spellings, comma separated, e.g. {@code 2.28 (2.28.9), 2.30 (2.30.7)}
     */
    public static String allowed(boolean whole) {
        return Arrays.stream(values()).filter(n -> n.carriedWhole() == whole)
                .map(n -> n.text.substring(0, n.text.lastIndexOf('.')) + " (" + n.text + ")")
                .collect(Collectors.joining(", "));
    }
}
