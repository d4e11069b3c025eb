package dev.collsim.simulator;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Hierarchical compositions collsim predicts beyond NCCL's own algorithms, each built from NCCL collectives on
 * sub-communicators and timed with the same model as its phases run one after the other.
 */
public enum Hierarchy {
    /**
     * AllReduce as intra-node ReduceScatter (S bytes over the q GPUs of a node), inter-node AllReduce (S/q bytes
     * over one GPU per node; q such rails run at once) and intra-node AllGather (S bytes).
     */
    RS_AR_AG("hier:rs-ar-ag");

    private final String text;

    Hierarchy(String text) {
        this.text = text;
    }

    /** @return the name users type, e.g. {@code hier:rs-ar-ag} */
    public String text() {
        return text;
    }

    /**
     * @param value e.g. {@code hier:rs-ar-ag} (case-insensitive)
     * @return the hierarchy
     * @throws IllegalArgumentException naming the allowed names
     */
    public static Hierarchy parse(String value) {
        for (Hierarchy h : values()) {
            if (h.text.equalsIgnoreCase(value.trim())) {
                return h;
            }
        }
        throw new IllegalArgumentException("unknown hierarchical composition '" + value + "'; allowed: " + allowed());
    }

    /** @return names, comma separated */
    public static String allowed() {
        return Arrays.stream(values()).map(Hierarchy::text).collect(Collectors.joining(", "));
    }

    /** @return true when the text names a hierarchical composition (starts with {@code hier:}) */
    public static boolean isHierarchical(String value) {
        return value != null && value.trim().toLowerCase(Locale.ROOT).startsWith("hier:");
    }
}
