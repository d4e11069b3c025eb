package dev.collsim.simulator.tuning;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The NCCL releases whose constants collsim carries. Constants differ between them in a few tables (marked
 * "[2.28 diff]" in the project's NCCL fact sheet, read from NCCL {@code src/graph/tuning.cc} and
 * {@code src/graph/search.cc} at tags {@code v2.28.9-1} and {@code v2.30.7-1}).
 */
public enum NcclVersion {
    /** NCCL 2.28.9. */
    V2_28_9("2.28.9"),
    /** NCCL 2.30.7 (the default: the newest release read). */
    V2_30_7("2.30.7");

    /** The version used when none is given: the newest. */
    public static final NcclVersion DEFAULT = V2_30_7;

    private final String text;

    NcclVersion(String text) {
        this.text = text;
    }

    /** @return the release, e.g. {@code 2.30.7} */
    public String text() {
        return text;
    }

    /** @return the NCCL 2 minor release, e.g. 30 for 2.30.7 */
    public int minor() {
        return Integer.parseInt(text.substring(2, text.lastIndexOf('.')));
    }

    /**
     * The carried release that models a run of NCCL 2.{@code minor}: the newest carried release whose minor release is
     * not above it, else (a run older than every carried release) the oldest carried. The patch releases of 2.30 share
     * what collsim models (read at tags v2.30.3-1, v2.30.4-1, v2.30.7-1: {@code src/graph/tuning.cc} per-channel caps
     * and tree correction, {@code src/graph/search.cc} sm100 speed arrays, {@code src/transport/nvls.cc
     * ncclNvlsTuning}, first in 2.30.3); 2.28.3 differs from 2.28.9 only in two Blackwell caps (Ring/LL128 73.4 GB/s
     * on two nodes, 2.28.9: 34.6; NVLSTree N4 43.1, 2.28.9: 43.8). A release between two carried ones takes the older:
     * the newer model would apply code the run's NCCL did not have (2.29.x has no {@code ncclNvlsTuning} and keeps
     * 2.28's NVLSTree N4 cap of 43.8 GB/s, NCCL 2.29.7 {@code src/graph/tuning.cc}), while the older model misses only
     * what the run's release added. A run older than every carried release is only approximated by the oldest: NCCL
     * 2.27.3's sm100 inter-node search speeds start at 47.9, 45.0 GB/s (2.28.9: 96, 48, 45.1; {@code
     * src/graph/search.cc}) and its Blackwell Ring/LL128 per-channel cap is 73.4 GB/s on two nodes too (2.28.9: 34.6;
     * {@code src/graph/tuning.cc}).
     *
     * @param minor NCCL 2 minor release the run states, e.g. 27 for 2.27.3
     * @return the release collsim models it with
     */
    public static NcclVersion modelling(int minor) {
        NcclVersion best = null;
        NcclVersion oldest = null;
        for (NcclVersion n : values()) {
            if (oldest == null || n.minor() < oldest.minor()) {
                oldest = n;
            }
            if (n.minor() <= minor && (best == null || n.minor() > best.minor())) {
                best = n;
            }
        }
        return best != null ? best : oldest;
    }

    /**
     * Parses {@code 2.28}, {@code 2.28.9}, {@code 2.30} or {@code 2.30.7} (a major.minor picks the patch
     * release collsim carries).
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
        throw new IllegalArgumentException("unknown NCCL version '" + value + "'; allowed: " + allowed());
    }

    /** @return the allowed spellings, comma separated */
    public static String allowed() {
        return Arrays.stream(values()).map(n -> n.text.substring(0, n.text.lastIndexOf('.')) + " (" + n.text + ")")
                .collect(Collectors.joining(", "));
    }
}
