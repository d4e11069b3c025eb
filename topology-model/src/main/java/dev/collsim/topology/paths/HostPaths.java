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

    /** @return the host's NICs in id order */
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
     * The NIC NCCL treats as nearest to a GPU: best path type, then highest NCCL bandwidth, then first in id order.
     *
     * @param gpu a GPU of this host
     * @return the NIC, or empty when the host has none
     * @throws IllegalArgumentException if the GPU is not on this host
     */
    public Optional<Nic> nearestNic(Gpu gpu) {
        Nic best = null;
        for (Nic n : nics) {
            if (best == null || better(path(gpu, n), path(gpu, best))) {
                best = n;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * The GPU nearest to a NIC (NCCL {@code ncclTopoGetLocalGpu}): best path type, then highest bandwidth, then lowest
     * index.
     *
     * @param nic a NIC of this host
     * @return the GPU, or empty when the host has none
     */
    public Optional<Gpu> nearestGpu(Nic nic) {
        Gpu best = null;
        for (Gpu g : gpus) {
            if (best == null || better(path(g, nic), path(best, nic))) {
                best = g;
            }
        }
        return Optional.ofNullable(best);
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

    /** @return number of GPU pairs (ordered, excluding self) whose path is of the given type */
    public long countGpuPairs(PathType type) {
        long n = 0;
        for (Gpu a : gpus) {
            for (Gpu b : gpus) {
                if (a != b && path(a, b).type() == type) {
                    n++;
                }
            }
        }
        return n;
    }
}
