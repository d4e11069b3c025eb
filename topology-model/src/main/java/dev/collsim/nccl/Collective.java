package dev.collsim.nccl;

import dev.collsim.io.NearestName;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The collectives collsim predicts and runs, with NCCL's and nccl-tests' names. Their nccl-tests counts are in
 * {@link CollGeometry}, their algbw and busbw in {@link BusBandwidth}.
 */
public enum Collective {
    /** ncclAllReduce. */
    ALL_REDUCE("AllReduce", "all_reduce", true, false),
    /** ncclAllGather. */
    ALL_GATHER("AllGather", "all_gather", false, false),
    /** ncclReduceScatter. */
    REDUCE_SCATTER("ReduceScatter", "reduce_scatter", true, false),
    /** ncclBroadcast. */
    BROADCAST("Broadcast", "broadcast", false, true),
    /** ncclReduce. */
    REDUCE("Reduce", "reduce", true, true),
    /** ncclAlltoAll (2.28+) or grouped send/recv. */
    ALL_TO_ALL("AllToAll", "alltoall", false, false),
    /** ncclSend/ncclRecv in a ring pattern, as nccl-tests' sendrecv. */
    SEND_RECV("SendRecv", "sendrecv", false, false),
    /** ncclGather (2.28+) or point-to-point. */
    GATHER("Gather", "gather", false, true),
    /** ncclScatter (2.28+) or point-to-point. */
    SCATTER("Scatter", "scatter", false, true);

    private final String ncclName;
    private final String testName;
    private final boolean reduction;
    private final boolean rooted;

    Collective(String ncclName, String testName, boolean reduction, boolean rooted) {
        this.ncclName = ncclName;
        this.testName = testName;
        this.reduction = reduction;
        this.rooted = rooted;
    }

    /** @return NCCL's display name, e.g. {@code AllReduce} */
    public String ncclName() {
        return ncclName;
    }

    /** @return nccl-tests' name, e.g. {@code all_reduce} (binary {@code all_reduce_perf}) */
    public String testName() {
        return testName;
    }

    /** @return true when the collective applies a reduction operator (nccl-tests prints a redop) */
    public boolean isReduction() {
        return reduction;
    }

    /** @return true when the collective has a root rank (nccl-tests prints the root, else -1) */
    public boolean isRooted() {
        return rooted;
    }

    /** @return true for the collectives NCCL's tuning model covers (Broadcast..AllReduce) */
    public boolean hasNcclTuningModel() {
        return switch (this) {
            case ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, BROADCAST, REDUCE -> true;
            default -> false;
        };
    }

    /**
     * Parses NCCL or nccl-tests spelling, case-insensitive, with or without underscores:
     * {@code allreduce}, {@code AllReduce}, {@code all_reduce}, {@code all_reduce_perf}.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static Collective parse(String text) {
        // a pasted nccl-tests command names its binary with a path (./build/all_reduce_perf): the file name counts
        String base = text.substring(Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\')) + 1);
        String k = base.toLowerCase(Locale.ROOT).replace("_perf", "").replace("_", "").replace("-", "");
        for (Collective c : values()) {
            if (c.ncclName.toLowerCase(Locale.ROOT).equals(k)) {
                return c;
            }
        }
        List<String> names = Arrays.stream(values()).map(c -> c.ncclName.toLowerCase(Locale.ROOT)).toList();
        throw new IllegalArgumentException("unknown collective '" + text + "'; allowed: " + allowed() + " (any case,"
                + " with or without '_' or '-': allreduce, AllReduce, all_reduce_perf)" + NearestName.hint(k, names));
    }

    /** @return the allowed spellings, comma separated */
    public static String allowed() {
        return Arrays.stream(values()).map(c -> c.testName).collect(Collectors.joining(", "));
    }
}
