package dev.collsim.simulator.channel;

import dev.collsim.topology.PathType;
import java.util.Arrays;

/**
 * A path inside one host as the search uses it: NCCL path type, bottleneck bandwidth in the NCCL view (GB/s) and
 * the indices of its directed links in the {@link HostModel}. Ordered as NCCL prefers paths: better type, then
 * higher bandwidth, then fewer hops. This record is immutable (the array is never changed after creation).
 *
 * @param type      NCCL path type
 * @param bandwidth bottleneck bandwidth, GB/s
 * @param links     link indices from source to destination
 */
record HostPath(PathType type, double bandwidth, int[] links) implements Comparable<HostPath> {

    HostPath extend(PathType t, double linkBw, int link) {
        int[] l = Arrays.copyOf(links, links.length + 1);
        l[links.length] = link;
        return new HostPath(t, Math.min(bandwidth, linkBw), l);
    }

    HostPath concat(HostPath next, PathType t) {
        int[] l = Arrays.copyOf(links, links.length + next.links.length);
        System.arraycopy(next.links, 0, l, links.length, next.links.length);
        return new HostPath(t, Math.min(bandwidth, next.bandwidth), l);
    }

    int hops() {
        return links.length;
    }

    @Override
    public int compareTo(HostPath o) {
        int c = Integer.compare(type.ordinal(), o.type.ordinal());
        if (c != 0) {
            return c;
        }
        c = Double.compare(o.bandwidth, bandwidth);
        return c != 0 ? c : Integer.compare(links.length, o.links.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HostPath p && p.type == type && p.bandwidth == bandwidth && Arrays.equals(p.links, links);
    }

    @Override
    public int hashCode() {
        return type.hashCode() * 31 + Arrays.hashCode(links);
    }

    @Override
    public String toString() {
        return type + "/" + bandwidth + "/" + links.length + " hops";
    }
}
