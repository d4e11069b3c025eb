package dev.collsim.topology.paths;

import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NcclBandwidths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Numbers the hops of a scope (the devices of some hosts and the NVSwitches joining them), so that a caller can keep
 * per-link state in flat arrays: the channel search subtracts each channel's bandwidth from every hop of every path
 * it crosses (NCCL 2.30 {@code src/graph/search.cc} {@code ncclTopoFollowPath} charges {@code link->bw} per link).
 * A hop is NCCL's link between two nodes: all parallel links of one type, NVSwitch chips of one domain as one node
 * ({@link Hop}, {@link ScopeGraph}). Indices run from 0 to {@link #size()} - 1 in device order, then link order.
 * This class is immutable.
 */
public final class HopIndex {

    private record Key(Device from, Device to, LinkType type) {
    }

    private final ScopeGraph scope;
    private final List<Hop> hops = new ArrayList<>();
    private final Map<Key, Integer> index = new HashMap<>();
    private final int[][] outgoing;

    HopIndex(ScopeGraph scope) {
        this.scope = scope;
        this.outgoing = new int[scope.size()][];
        for (int v = 0; v < scope.size(); v++) {
            List<Hop> out = scope.out.get(v);
            outgoing[v] = new int[out.size()];
            for (int k = 0; k < out.size(); k++) {
                Hop h = out.get(k);
                outgoing[v][k] = hops.size();
                index.put(new Key(h.from(), h.to(), h.type()), hops.size());
                hops.add(h);
            }
        }
    }

    /** @return number of hops */
    public int size() {
        return hops.size();
    }

    /** @param i hop index; @return the hop */
    public Hop hop(int i) {
        return hops.get(i);
    }

    /** @return the devices of the scope, one per node (an NVLink domain's NVSwitch chips give its first chip) */
    public List<Device> devices() {
        return List.of(scope.nodes);
    }

    /** @return NCCL's bandwidth of every hop, GB/s per direction, by index (a fresh array) */
    public double[] ncclCapacities() {
        double[] c = new double[hops.size()];
        for (int i = 0; i < c.length; i++) {
            c[i] = hops.get(i).bandwidth(BandwidthView.NCCL).gbps();
        }
        return c;
    }

    /**
     * NCCL's bandwidth of every hop as a given release's graph search counts it: {@link #ncclCapacities()} with each
     * NVLink hop from or to a GPU at that release's per-link figure ({@link NcclBandwidths#nvlinkPerLink(int, int)}:
     * 22 GB/s per sm80 link in NCCL 2.10-2.17, where 2.18 on count 20).
     *
     * @param ncclMinor NCCL 2 minor release
     * @return GB/s per direction, by index (a fresh array)
     */
    public double[] ncclCapacities(int ncclMinor) {
        double[] c = ncclCapacities();
        for (int i = 0; i < c.length; i++) {
            Hop h = hops.get(i);
            Device end = h.from() instanceof Gpu ? h.from() : h.to();
            if (h.type() == LinkType.NVLINK && end instanceof Gpu gpu) {
                c[i] *= NcclBandwidths.nvlinkPerLink(gpu.sm(), ncclMinor) / NcclBandwidths.nvlinkPerLink(gpu.sm());
            }
        }
        return c;
    }

    /**
     * @param d a device of the scope
     * @return indices of the hops leaving it (a fresh array; empty when the device is outside the scope)
     */
    public int[] outgoing(Device d) {
        int v = scope.indexOf(d);
        return v < 0 ? new int[0] : outgoing[v].clone();
    }

    /** @param i hop index; @return the index of the hop of the same type in the other direction, -1 if none */
    public int reverse(int i) {
        Hop h = hops.get(i);
        Integer r = index.get(new Key(h.to(), h.from(), h.type()));
        return r == null ? -1 : r;
    }

    /**
     * @param path a path of {@link PathFinder} between devices of the scope
     * @return the indices of its hops, source to destination
     * @throws IllegalArgumentException when a hop of the path is outside the scope (e.g. a network path)
     */
    public int[] indices(DevicePath path) {
        int[] out = new int[path.hopCount()];
        for (int k = 0; k < out.length; k++) {
            Hop h = path.hops().get(k);
            Integer i = index.get(new Key(h.from(), h.to(), h.type()));
            if (i == null) {
                throw new IllegalArgumentException("path " + path.from().id() + " -> " + path.to().id()
                        + " leaves the scope at hop " + h.from().id() + " -> " + h.to().id());
            }
            out[k] = i;
        }
        return out;
    }

    /** @param path a path inside the scope; @return true when every hop is in the scope */
    public boolean contains(DevicePath path) {
        for (Hop h : path.hops()) {
            if (!index.containsKey(new Key(h.from(), h.to(), h.type()))) {
                return false;
            }
        }
        return true;
    }
}
