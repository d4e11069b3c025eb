package dev.collsim.simulator.channel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The GPUs a channel search tries next from a GPU, in the order it tries them: collsim's counterpart of NCCL's
 * {@code ncclTopoSearchNextGpuSort} (NCCL 2.30.7 {@code src/graph/search.cc}; fact sheet §5.3). Behind an NVSwitch
 * every GPU is one hop from every other, and NCCL tries only the next index, then the previous one; otherwise every
 * GPU not yet in the channel, nearest first (better path type, then more bandwidth, then fewer hops: {@link
 * HostPath}'s order; GPUs without a path last; among equals by index, or on one node as NCCL's
 * {@code cmpScore} breaks ties, by {@code startIndex}). Stateless.
 */
final class NextGpus {

    private NextGpus() {
    }

    /**
     * @param h    the host
     * @param cur  the GPU the channel is at (index into the host's GPUs)
     * @param seen GPUs already in the channel
     * @return the GPUs to try next, in order
     */
    static int[] of(HostModel h, int cur, boolean[] seen) {
        return of(h, cur, seen, false);
    }

    /**
     * As {@link #of(HostModel, int, boolean[])}; {@code startIndex} true breaks ties among equal paths as NCCL's
     * {@code cmpScore} does on one node (its last key, {@code startIndex}: the GPU after {@code cur} first, then on
     * round the index ring), false by GPU index. The one-node search ({@link OneNodeSearchRec}) uses NCCL's; the
     * multi-node fill keeps the index order, as NCCL sorts its candidates there first by their NIC paths
     * ({@code interBw}, {@code interPciBw}, {@code interNhops}), which that fill does not model.
     *
     * @param h          the host
     * @param cur        the GPU the channel is at
     * @param seen       GPUs already in the channel
     * @param startIndex NCCL's tie-break
     * @return the GPUs to try next, in order
     */
    static int[] of(HostModel h, int cur, boolean[] seen, boolean startIndex) {
        int g = h.gpus.size();
        if (h.hasNvSwitch) {
            int a = (cur + 1) % g;
            int b = (cur - 1 + g) % g;
            List<Integer> c = new ArrayList<>(2);
            if (!seen[a]) {
                c.add(a);
            }
            if (!seen[b] && b != a) {
                c.add(b);
            }
            return c.stream().mapToInt(Integer::intValue).toArray();
        }
        Integer[] all = new Integer[g];
        int n = 0;
        for (int i = 1; i <= g; i++) {
            int j = startIndex ? (cur + i) % g : i - 1;
            if (!seen[j]) {
                all[n++] = j;
            }
        }
        Integer[] c = Arrays.copyOf(all, n);
        Arrays.sort(c, Comparator.comparing((Integer x) -> h.gpuToGpu[cur][x],
                Comparator.nullsLast(Comparator.naturalOrder())));
        return Arrays.stream(c).mapToInt(Integer::intValue).toArray();
    }
}
