package dev.collsim.cli.predict;

import dev.collsim.topology.Gpu;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The "ranks per node" words of predict's cluster header. An even layout reads {@code 8 per node}; an uneven one
 * names the counts host by host in rank order, e.g. {@code 8 + 1 per node} for 9 ranks on two 8-GPU hosts (NCCL's
 * communicator then has one node of 8 local ranks and one of 1: its channel search and tuning use the largest,
 * {@code maxLocalRanks}).
 */
final class RanksPerNode {

    /** Hosts named one by one at most; longer uneven layouts print the smallest and largest count. */
    private static final int MAX_LISTED = 8;

    private RanksPerNode() {
    }

    /**
     * @param rankList      the ranks in rank order
     * @param ncclNodes     NCCL's node count for the communicator (hosts, or NVLink domains across hosts)
     * @param maxLocalRanks NCCL's largest local rank count
     * @return e.g. {@code 8 per node}, {@code 8 + 1 per node}, {@code 1 to 8 per node (uneven over 12 nodes)}
     */
    static String text(List<Gpu> rankList, int ncclNodes, int maxLocalRanks) {
        Map<Integer, Integer> perHost = new LinkedHashMap<>();
        for (Gpu g : rankList) {
            perHost.merge(g.host(), 1, Integer::sum);
        }
        List<Integer> counts = new ArrayList<>(perHost.values());
        boolean even = counts.stream().distinct().count() <= 1;
        if (even || counts.size() != ncclNodes) {
            // NCCL nodes that are not hosts (a multi-node NVLink domain) or an even layout: NCCL's own figure
            return maxLocalRanks + " per node";
        }
        if (counts.size() <= MAX_LISTED) {
            StringBuilder b = new StringBuilder();
            for (int c : counts) {
                b.append(b.length() == 0 ? "" : " + ").append(c);
            }
            return b + " per node";
        }
        int min = counts.stream().mapToInt(Integer::intValue).min().orElse(0);
        return String.format(Locale.ROOT, "%d to %d per node (uneven over %d nodes)", min, maxLocalRanks,
                counts.size());
    }
}
