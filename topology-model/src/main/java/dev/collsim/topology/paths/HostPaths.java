package dev.collsim.topology.paths;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * All NCCL paths between the GPUs, NICs and CPUs of one host, after NCCL's adjustments (P2P level, P2C, PXN, GPU
 * Direct RDMA; see {@link NcclPathRules}). This class is immutable once built by {@link PathFinder}.
 */
public final class HostPaths {

    private final int host;
    private final List<Gpu> gpus;
    private final List<Nic> nics;
    private final List<Cpu> cpus;
    private final List<Device> endpoints;
    private final Map<Device, Integer> index;
    private final DevicePath[][] paths;

    HostPaths(int host, List<Gpu> gpus, List<Nic> nics, List<Cpu> cpus, DevicePath[][] paths) {
        this.host = host;
        this.gpus = List.copyOf(gpus);
        this.nics = List.copyOf(nics);
        this.cpus = List.copyOf(cpus);
        List<Device> all = new ArrayList<>(gpus);
        all.addAll(nics);
        all.addAll(cpus);
        this.endpoints = List.copyOf(all);
        this.index = new HashMap<>();
        for (int i = 0; i < all.size(); i++) {
            index.put(all.get(i), i);
        }
        this.paths = paths;
    }

    /** @return the host index */
    public int host() {
        return host;
    }

    /** @return the host's GPUs by local index */
    public List<Gpu> gpus() {
        return gpus;
    }

    /** @return the host's NICs in NCCL's NET device order ({@link Nic#NET_DEV_ORDER}) */
    public List<Nic> nics() {
        return nics;
    }

    /** @return the host's CPUs (NUMA domains) in NUMA order */
    public List<Cpu> cpus() {
        return cpus;
    }

    /** @return GPUs, then NICs, then CPUs: the devices {@link #path} accepts */
    public List<Device> endpoints() {
        return endpoints;
    }

    /**
     * @param from a GPU, NIC or CPU of this host
     * @param to   a GPU, NIC or CPU of this host
     * @return NCCL's path
     * @throws IllegalArgumentException if a device is not a GPU, NIC or CPU of this host
     */
    public DevicePath path(Device from, Device to) {
        return paths[indexOf(from)][indexOf(to)];
    }

    /**
     * The NICs a GPU uses, NCCL 2.30.7's {@code ncclTopoGetLocal} ({@code src/graph/topo.cc}): among the NICs, those
     * whose path from the GPU has the highest bandwidth, and among those the best path type. A path's bandwidth is
     * its NCCL bandwidth capped by the NIC's port speed (in NCCL the NIC's network link is the last link of a path
     * to the NET node). NICs on a path of type DIS are never local.
     *
     * @param gpu      a GPU of this host
     * @param eligible which NICs to consider (all, or the working ones of a what-if)
     * @return the local NICs in NCCL's NET device order, empty when no eligible NIC is reachable
     * @throws IllegalArgumentException if the GPU is not on this host
     */
    public List<Nic> localNics(Gpu gpu, Predicate<Nic> eligible) {
        return local(nics.stream().filter(eligible).toList(), n -> path(gpu, n));
    }

    /**
     * @param candidates NICs of one host
     * @param path       a GPU's path to each candidate
     * @return the local candidates by {@link #local(double[], PathType[])}, a path's bandwidth capped by the NIC's
     *         port speed, in candidate order
     */
    static List<Nic> local(List<Nic> candidates, Function<Nic, DevicePath> path) {
        double[] bw = new double[candidates.size()];
        PathType[] type = new PathType[candidates.size()];
        for (int i = 0; i < bw.length; i++) {
            DevicePath p = path.apply(candidates.get(i));
            type[i] = p.type();
            bw[i] = Math.min(p.nccl().gbps(), candidates.get(i).speed().gbps());
        }
        List<Nic> out = new ArrayList<>();
        for (int i : local(bw, type)) {
            out.add(candidates.get(i));
        }
        return out;
    }

    /**
     * NCCL's {@code ncclTopoGetLocal} rule on candidate paths (NCCL 2.30.7 {@code src/graph/topo.cc}): the highest
     * bandwidth, then among those the best (lowest) path type. Candidates of type DIS or bandwidth 0 are never local.
     *
     * @param bw   bandwidth of each candidate's path, GB/s
     * @param type type of each candidate's path, same length
     * @return indices of the local candidates, ascending; empty when none is reachable
     */
    public static int[] local(double[] bw, PathType[] type) {
        double maxBw = 0;
        int minType = PathType.DIS.ordinal();
        for (int i = 0; i < bw.length; i++) {
            if (type[i] == PathType.DIS) {
                continue;
            }
            if (bw[i] > maxBw || bw[i] == maxBw && type[i].ordinal() < minType) {
                maxBw = bw[i];
                minType = type[i].ordinal();
            }
        }
        final double b = maxBw;
        final int t = minType;
        return IntStream.range(0, bw.length)
                .filter(i -> b > 0 && bw[i] == b && type[i].ordinal() == t).toArray();
    }

    /**
     * The NIC a GPU's network traffic leaves by: of its {@link #localNics local NICs}, the one on the GPU's own rail
     * (NIC rail = GPU index, rail-optimized hosts), otherwise the (GPU index mod their count)-th in NET device order. So
     * GPUs that tie on several NICs none of which is on their rail (a DGX H100 with rails 0..3 cabled: GPUs 4..7
     * reach NICs 0..3 alike, over PXN) spread over them, GPU 4 on NIC 0, GPU 5 on NIC 1, ..., as NCCL spreads such
     * a GPU's channels over its local NICs (NCCL 2.30.7 {@code src/graph/topo.cc ncclTopoGetLocalNetType}: channel
     * c takes the (c mod NICs)-th), rather than all on the first.
     *
     * @param gpu      a GPU of this host
     * @param eligible which NICs to consider
     * @return the NIC, or empty when no eligible NIC is reachable
     * @throws IllegalArgumentException if the GPU is not on this host
     */
    public Optional<Nic> nearestNic(Gpu gpu, Predicate<Nic> eligible) {
        List<Nic> local = localNics(gpu, eligible);
        return local.stream().filter(n -> n.rail() == gpu.index()).findFirst()
                .or(() -> local.isEmpty() ? Optional.empty() : Optional.of(local.get(gpu.index() % local.size())));
    }

    /**
     * @param gpu a GPU of this host
     * @return {@link #nearestNic(Gpu, Predicate)} over all the host's NICs
     */
    public Optional<Nic> nearestNic(Gpu gpu) {
        return nearestNic(gpu, n -> true);
    }

    static boolean better(DevicePath a, DevicePath b) {
        if (a.type() != b.type()) {
            return a.type().ordinal() < b.type().ordinal();
        }
        return a.nccl().gbps() > b.nccl().gbps();
    }

    private int indexOf(Device d) {
        Integer i = index.get(d);
        if (i == null) {
            throw new IllegalArgumentException("device " + d.id() + " is not a GPU, NIC or CPU of host " + host);
        }
        return i;
    }

}
