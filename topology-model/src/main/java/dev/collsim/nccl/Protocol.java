package dev.collsim.nccl;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** NCCL's protocols in NCCL's index order (0 LL, 1 LL128, 2 Simple), also its tie-break order. */
public enum Protocol {
    /** Low latency: 8-byte stores of 4 B data + 4 B flag (50% efficiency). */
    LL("LL"),
    /** 128-byte lines with 120 B data + 8 B flag (about 93.75% efficiency); needs NVLink paths. */
    LL128("LL128"),
    /** Large chunks with fenced head/tail synchronisation. */
    SIMPLE("Simple");

    private final String ncclName;

    Protocol(String ncclName) {
        this.ncclName = ncclName;
    }

    /** @return NCCL's spelling */
    public String ncclName() {
        return ncclName;
    }

    /** @throws IllegalArgumentException naming the allowed values */
    public static Protocol parse(String text) {
        String k = text.trim().toLowerCase(Locale.ROOT);
        for (Protocol p : values()) {
            if (p.ncclName.toLowerCase(Locale.ROOT).equals(k)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown protocol '" + text + "'; allowed: " + allowed());
    }

    /** @return NCCL spellings, comma separated */
    public static String allowed() {
        return Arrays.stream(values()).map(Protocol::ncclName).collect(Collectors.joining(", "));
    }
}
