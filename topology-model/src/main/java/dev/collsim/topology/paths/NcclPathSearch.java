package dev.collsim.topology.paths;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.NcclBandwidths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * NCCL's breadth-first path search from one device to every device of a scope (NCCL 2.30 {@code src/graph/paths.cc}
 * {@code ncclTopoSetPaths}; nccl-model.md section 5.1):
 * <ul>
 *   <li>the search goes level by level (hop count) and a device reached again with a better path is searched from
 *       again; a device's path is replaced by one of better type, or of the same type and higher bottleneck
 *       bandwidth, or of the same type and bandwidth and strictly fewer hops (NCCL 2.30's rule; NCCL 2.28 instead
 *       kept the widest among the shortest paths, {@code (remPath.bw == 0 || remPath.count > path.count) &&
 *       remPath.bw < bw}, so a 2-hop PCIe path wider than a 2-hop NVLink path won there);</li>
 *   <li>bandwidth is NCCL's per-link bandwidth ({@link dev.collsim.topology.Link#ncclBandwidth()}); the route NCCL
 *       picks does not depend on the bandwidth view asked for;</li>
 *   <li>the path type is the maximum over hops of the hop's type: NVLink NVL, C2C C2C, PCIe PIX, SMP SYS,
 *       network LOC; a PCIe hop between two PCIe switches is PXB; a PCIe hop touching a CPU is PHB; an NVLink hop
 *       leaving an intermediate GPU reached by one NVLink hop is NVB;</li>
 *   <li>a path never passes through a GPU, except GPU to GPU over NVLink after exactly one NVLink hop (NVB, unless
 *       NCCL_NVB_DISABLE), and never through a NIC.</li>
 * </ul>
 * Complexity: O(V + E) per source and improvement round over the scope; on hosts a device is improved at most a few
 * times.
 */
final class NcclPathSearch {

    private NcclPathSearch() {
    }

    /** Result arrays of one search. */
    static final class Tree {
        final int source;
        final int[] count;
        final double[] bw;
        final PathType[] type;
        final Hop[] via;
        final int[] prev;

        Tree(int n, int source) {
            this.source = source;
            count = new int[n];
            bw = new double[n];
            type = new PathType[n];
            via = new Hop[n];
            prev = new int[n];
            Arrays.fill(prev, -1);
            Arrays.fill(type, PathType.DIS);
        }

        boolean reached(int i) {
            return i == source || type[i] != PathType.DIS;
        }

        List<Hop> hops(int i) {
            if (!reached(i)) {
                return List.of();
            }
            List<Hop> hops = new ArrayList<>(count[i]);
            for (int at = i; at != source; at = prev[at]) {
                hops.add(via[at]);
            }
            Collections.reverse(hops);
            return hops;
        }
    }

    /**
     * Runs the search.
     *
     * @param g          the scope
     * @param source     index of the source device
     * @param nvbEnabled false to model NCCL_NVB_DISABLE=1
     * @return the search tree
     */
    static Tree search(ScopeGraph g, int source, boolean nvbEnabled) {
        int n = g.size();
        Tree t = new Tree(n, source);
        t.count[source] = 0;
        t.bw[source] = NcclBandwidths.LOC_BW;
        t.type[source] = PathType.LOC;
        int[] level = {source};
        int levelSize = 1;
        int[] next = new int[n];
        boolean[] inNext = new boolean[n];
        while (levelSize > 0) {
            int nextSize = 0;
            for (int li = 0; li < levelSize; li++) {
                int node = level[li];
                Device nd = g.nodes[node];
                for (Hop hop : g.out.get(node)) {
                    int rem = g.indexOf(hop.to());
                    if (node != source && !mayPassThrough(nd, hop, t.count[node], t.type[node], nvbEnabled)) {
                        continue;
                    }
                    if (rem == source) {
                        continue;
                    }
                    double bw = Math.min(t.bw[node], hop.bandwidth(BandwidthView.NCCL).gbps());
                    PathType type = t.type[node].max(hopType(nd, hop, t.type[node], node != source));
                    int remType = t.type[rem].ordinal();
                    boolean better = type.ordinal() < remType
                            || type.ordinal() == remType && t.bw[rem] < bw
                            || type.ordinal() == remType && t.bw[rem] == bw && t.count[rem] > t.count[node] + 1;
                    if (better) {
                        t.count[rem] = t.count[node] + 1;
                        t.bw[rem] = bw;
                        t.via[rem] = hop;
                        t.prev[rem] = node;
                        t.type[rem] = type;
                        if (!inNext[rem]) {
                            inNext[rem] = true;
                            next[nextSize++] = rem;
                        }
                    }
                }
            }
            int[] swap = level.length >= n ? level : new int[n];
            level = next;
            next = swap;
            levelSize = nextSize;
            for (int i = 0; i < levelSize; i++) {
                inNext[level[i]] = false;
            }
        }
        return t;
    }

    private static boolean mayPassThrough(Device node, Hop hop, int countSoFar, PathType typeSoFar,
            boolean nvbEnabled) {
        if (node instanceof Nic) {
            return false;
        }
        if (node instanceof Gpu) {
            return nvbEnabled && hop.type() == LinkType.NVLINK && hop.to() instanceof Gpu
                    && countSoFar == 1 && typeSoFar == PathType.NVL;
        }
        return true;
    }

    private static PathType hopType(Device node, Hop hop, PathType typeSoFar, boolean intermediate) {
        Device rem = hop.to();
        PathType t = switch (hop.type()) {
            case NVLINK -> PathType.NVL;
            case C2C -> PathType.C2C;
            case PCIE -> PathType.PIX;
            case SMP -> PathType.SYS;
            case NET, LOC -> PathType.LOC;
        };
        if (node instanceof PcieSwitch && rem instanceof PcieSwitch) {
            t = PathType.PXB;
        }
        if (hop.type() == LinkType.PCIE && (node instanceof Cpu || rem instanceof Cpu)) {
            t = PathType.PHB;
        }
        if (intermediate && node instanceof Gpu && typeSoFar == PathType.NVL && t == PathType.NVL) {
            t = PathType.NVB;
        }
        return t;
    }
}
