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
