package dev.collsim.nccl;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * NCCL's collective algorithms, in NCCL's index order (NCCL 2.30 {@code src/include/plugin/nccl_tuner.h}:
 * 0 Tree, 1 Ring, 2 CollNetDirect, 3 CollNetChain, 4 NVLS, 5 NVLSTree, 6 PAT). The order is also NCCL's
 * tie-break order in selection.
 */
public enum Algorithm {
    /** Double binary tree across hosts, chain inside a host. */
    TREE("Tree"),
    /** Ring. */
    RING("Ring"),
    /** CollNet (SHARP) direct. */
    COLLNET_DIRECT("CollNetDirect"),
    /** CollNet (SHARP) chain. */
    COLLNET_CHAIN("CollNetChain"),
    /** NVLink SHARP (NVSwitch multicast). */
    NVLS("NVLS"),
    /** NVLS inside hosts, tree across hosts. */
    NVLS_TREE("NVLSTree"),
    /** Parallel Aggregated Trees (AllGather/ReduceScatter, 1 GPU per host). */
    PAT("PAT");

    private final String ncclName;

    Algorithm(String ncclName) {
        this.ncclName = ncclName;
    }

    /** @return NCCL's spelling, e.g. {@code NVLSTree} */
    public String ncclName() {
        return ncclName;
    }

    /**
     * Parses NCCL's spelling, case-insensitive ({@code ring}, {@code nvlstree}, {@code collnet_direct}).
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static Algorithm parse(String text) {
        String k = text.trim().toLowerCase(Locale.ROOT).replace("_", "");
        for (Algorithm a : values()) {
            if (a.ncclName.toLowerCase(Locale.ROOT).equals(k)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown algorithm '" + text + "'; allowed: " + allowed());
    }

    /** @return NCCL spellings, comma separated */
    public static String allowed() {
        return Arrays.stream(values()).map(Algorithm::ncclName).collect(Collectors.joining(", "));
    }
}
