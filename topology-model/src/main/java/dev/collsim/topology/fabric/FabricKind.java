package dev.collsim.topology.fabric;

import java.util.Locale;

/** Fabric shapes, spelled in YAML as {@link #yamlName()}. */
public enum FabricKind {
    /** Every NIC on one switch (per plane). */
    SINGLE_SWITCH("single-switch"),
    /** Two-tier leaf/spine: NICs fill leaves in host order; every leaf links to every spine. */
    FAT_TREE("fat-tree"),
    /** NIC i of every host on rail leaf i (per group of {@code leafRadix} hosts); spines join the rails. */
    RAIL_OPTIMIZED("rail-optimized");

    private final String yamlName;

    FabricKind(String yamlName) {
        this.yamlName = yamlName;
    }

    /** @return the YAML spelling, e.g. {@code fat-tree} */
    public String yamlName() {
        return yamlName;
    }

    /** @param text YAML spelling (case-insensitive); @return the kind, or null if unknown */
    public static FabricKind parse(String text) {
        for (FabricKind k : values()) {
            if (k.yamlName.equals(text == null ? "" : text.toLowerCase(Locale.ROOT))) {
                return k;
            }
        }
        return null;
    }

    /** @return the allowed YAML spellings, comma-separated */
    public static String allowed() {
        StringBuilder sb = new StringBuilder();
        for (FabricKind k : values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(k.yamlName);
        }
        return sb.toString();
    }
}
