package dev.collsim.simulator.channel;

import dev.collsim.hardware.PcieGen;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.CpuKind;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.BandwidthView;
import dev.collsim.topology.paths.DevicePath;
import dev.collsim.topology.paths.HopIndex;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * One NCCL node (a host, or the hosts of one multi-node NVLink domain) as NCCL's search sees it: the paths between
 * the GPUs taking part and between those GPUs and the node's NICs, with their hops numbered so the search can
 * subtract bandwidth per link. Paths, path types and NCCL's rules on them (P2P level, NVB, P2C, PXN in the GPU to
 * NIC direction only, GPU Direct RDMA) come from {@link PathFinder}, with the options the NCCL_* settings give
 * ({@link PathFinder.Options#of}); hop indices and NCCL-view capacities (GB/s per direction) come from its
 * {@link HopIndex}. A NIC path's bandwidth here is that of its links only; the search charges NIC ports
 * separately ({@link #nicSpeed}). A GPU has no path (null) to a NIC of another host: NCCL's PXN relay must be on the
 * same host (NCCL 2.30 {@code src/graph/paths.cc}, PXN condition 3).
 *
 * <p>Only devices of the node are considered; network switches are outside. This class is immutable; the search
 * copies {@link #capacity} before subtracting from it.
 */
final class HostModel {

    final List<Gpu> gpus;
    final List<Nic> nics;
    final boolean hasNvSwitch;
    final int minSm;
    /** NCCL-view capacity of every hop in the modelled release's search, GB/s per direction, by hop index. */
    final double[] capacity;
    /** The same with NCCL 2.18+'s NVLink figure, which collsim times bytes with ({@link HopIndex#ncclCapacities()}). */
    final double[] figure;
    final HostPath[][] gpuToGpu;
    final HostPath[][] nicToGpu;
    final HostPath[][] gpuToNic;
    /** Port speed of every NIC of {@link #nics}, GB/s per direction. */
    final double[] nicSpeed;
    final List<Cpu> cpus;
    private final Topology topo;
    private final HopIndex hops;

    HostModel(Topology topo, Set<Integer> hosts, List<Gpu> used, NcclSettings settings, int ncclMinor) {
        this.gpus = List.copyOf(used);
        this.topo = topo;
        PathFinder finder = PathFinder.of(topo, PathFinder.Options.of(settings));
        this.hops = finder.hopIndex(hosts);
        this.capacity = hops.ncclCapacities(ncclMinor);
        this.figure = hops.ncclCapacities();
        List<Device> devices = hops.devices().stream().sorted(Comparator.comparing(Device::id)).toList();
        // A NIC that is not cabled to the fabric (e.g. a DGX storage NIC) carries no collective traffic: when any
        // NIC of these hosts has a network link, only cabled NICs count.
        List<Nic> allNics = devices.stream().filter(Nic.class::isInstance).map(Nic.class::cast).toList();
        boolean anyCabled = allNics.stream().anyMatch(n -> isCabled(topo, n));
        // NCCL's NET device order (Nic.NET_DEV_ORDER, as Topology.nicsOf): a NIC's index here is the position the
        // search's channels name and SearchedHost.nic reads back, whatever rail the NIC is cabled to.
        nics = allNics.stream().filter(n -> !anyCabled || isCabled(topo, n)).sorted(Nic.NET_DEV_ORDER).toList();
        nicSpeed = nics.stream().mapToDouble(n -> n.speed().gbps()).toArray();
        cpus = devices.stream().filter(Cpu.class::isInstance).map(Cpu.class::cast).toList();
        hasNvSwitch = devices.stream().anyMatch(NvSwitch.class::isInstance);
        minSm = gpus.stream().mapToInt(Gpu::sm).min().orElse(0);
        int g = gpus.size();
        gpuToGpu = new HostPath[g][g];
        gpuToNic = new HostPath[g][nics.size()];
        nicToGpu = new HostPath[nics.size()][g];
        for (int i = 0; i < g; i++) {
            for (int j = 0; j < g; j++) {
                if (i != j) {
                    gpuToGpu[i][j] = hostPath(finder, gpus.get(i), gpus.get(j));
                }
            }
            for (int n = 0; n < nics.size(); n++) {
                gpuToNic[i][n] = hostPath(finder, gpus.get(i), nics.get(n));
                nicToGpu[n][i] = hostPath(finder, nics.get(n), gpus.get(i));
            }
        }
    }

    /** @return the path in the search's terms, or null when there is none inside the node */
    private HostPath hostPath(PathFinder finder, Device from, Device to) {
        if ((from instanceof Nic || to instanceof Nic) && from.host() != to.host()) {
            return null;
        }
        DevicePath p = finder.path(from, to);
        if (p.type() == PathType.DIS || p.type() == PathType.NET || p.hopCount() == 0 || !hops.contains(p)) {
            return null;
        }
        int[] links = hops.indices(p);
        double bw = Double.MAX_VALUE;
        for (int l : links) {
            bw = Math.min(bw, capacity[l]);
        }
        return new HostPath(p.type(), bw, links);
    }

    /**
     * The NICs the GPUs taking part drive: for each used GPU its local NICs by NCCL's rule ({@link HostPaths#local},
     * {@code ncclTopoGetLocal}; a NIC path's bandwidth here is that of the hops' capacities capped by the port), united
     * over the GPUs. On a DGX H100 with 2 of its 8 GPUs as ranks these are the 2 NICs next to them, not all 8: the
     * other NICs are reachable only over worse paths (PXN through a peer GPU, or through the CPU) that NCCL's
     * collectives do not take while a local NIC is there.
     *
     * @return indices into {@link #nics}, ascending; every NIC when no used GPU has a path to any NIC
     */
    int[] localNics() {
        boolean[] local = new boolean[nics.size()];
        boolean any = false;
        for (int i = 0; i < gpus.size(); i++) {
            for (int n : localNics(i)) {
                local[n] = true;
                any = true;
            }
        }
        final boolean found = any;
        return IntStream.range(0, nics.size()).filter(n -> !found || local[n]).toArray();
    }

    /**
     * NCCL's {@code comm->minNetBw} on this node ({@code src/graph/topo.cc ncclTopoGetMinNetBw}, NCCL 2.30.7): the
     * smallest GPU-NIC path bandwidth (hops' capacities capped by the port) over the used GPUs' local NICs.
     *
     * @return GB/s; 0 when no used GPU has a local NIC
     */
    double minLocalNetBw() {
        double min = Double.POSITIVE_INFINITY;
        for (int i = 0; i < gpus.size(); i++) {
            for (int n : localNics(i)) {
                min = Math.min(min, Math.min(gpuToNic[i][n].bandwidth(), nicSpeed[n]));
            }
        }
        return Double.isInfinite(min) ? 0 : min;
    }

    /**
     * NCCL's {@code getLocalNetCountByBw} (NCCL 2.27.3 {@code src/graph/topo.cc}, used by {@code ncclTopoGetNchannels}
     * for the channels per network peer), the fewest over the used GPUs: a GPU's local NICs counted, path bandwidth
     * added up, until they reach the bandwidth of the GPU's link to a CPU; a GPU with no direct link to a CPU (one
     * behind a PCIe switch) counts 0. A GB200 GPU reaches its Grace over NVLink-C2C and both NICs of that Grace over
     * it (P2C): 2.
     *
     * @return NICs, >= 0
     */
    int localNetCountByBw() {
        int min = Integer.MAX_VALUE;
        for (int i = 0; i < gpus.size(); i++) {
            double gpuBw = 0;
            for (int n = 0; n < nics.size() && gpuBw == 0; n++) {
                HostPath p = gpuToNic[i][n];
                if (p != null && p.links().length > 0 && (hops.hop(p.links()[0]).to() instanceof Cpu
                        || hops.hop(p.links()[0]).from() instanceof Cpu)) {
                    gpuBw = capacity[p.links()[0]];
                }
            }
            int count = 0;
            double total = 0;
            for (int n : localNics(i)) {
                if (total >= gpuBw) {
                    break;
                }
                total += Math.min(gpuToNic[i][n].bandwidth(), nicSpeed[n]);
                count++;
            }
            min = Math.min(min, count);
        }
        return min == Integer.MAX_VALUE ? 0 : min;
    }

    /** @return the local NICs of one used GPU ({@link HostPaths#local}), indices into {@link #nics}; may be empty */
    int[] localNics(int gpu) {
        double[] bw = new double[nics.size()];
        PathType[] type = new PathType[nics.size()];
        for (int n = 0; n < nics.size(); n++) {
            HostPath p = gpuToNic[gpu][n];
            type[n] = p == null ? PathType.DIS : p.type();
            bw[n] = p == null ? 0 : Math.min(p.bandwidth(), nicSpeed[n]);
        }
        return HostPaths.local(bw, type);
    }

    /**
     * A NIC's physical rate: its port speed held to the physical bandwidth of the link it hangs on (its PCIe link to
     * a switch or root port, the first hop of its paths to the GPUs), GB/s per direction. An 800 Gb/s NIC (100 GB/s)
     * in a PCIe Gen5 x16 slot moves at most the slot's 63.0 GB/s ({@code hardware.PcieGen}): the bound on what the
     * hardware can move ({@code bound.PhysicalBound}, through {@link ChannelPlan#nodeNicBw}) cannot pass it. NCCL's
     * own view (its net speed, {@link #nicSpeed}) is kept for the search and the local-NIC choice.
     *
     * @param n index into {@link #nics}
     * @return GB/s per direction; the port speed when no GPU of the node reaches the NIC inside it
     */
    double nicLineBw(int n) {
        for (HostPath p : nicToGpu[n]) {
            if (p != null && p.links().length > 0) {
                return Math.min(nicSpeed[n], physicalBw(p.links()[0]));
            }
        }
        return nicSpeed[n];
    }

    /** @return the hop's physical bandwidth per direction (sum of its parallel links), GB/s */
    double physicalBw(int hop) {
        return hops.hop(hop).bandwidth(BandwidthView.PHYSICAL).gbps();
    }

    /**
     * @return the hop's rate as built, GB/s per direction: the sum of {@link NcclBandwidths#asBuilt} over its links,
     *         NCCL's figure except on a PCIe link NCCL read with its fallback (a VM that hides the link speed)
     */
    double asBuiltBw(int hop) {
        double sum = 0;
        for (Link l : hops.hop(hop).links()) {
            sum += NcclBandwidths.asBuilt(l).gbps();
        }
        return sum;
    }

    /**
     * @return true when the hop is NVLink straight from one GPU to another (no NVSwitch between them) of a GPU whose
     *         direct NVLinks a ring counts at their datasheet rate ({@link CpuPathRates#datasheetSm}: before sm80, and
     *         sm86's bridges)
     */
    boolean datasheetNvlink(int hop) {
        return hops.hop(hop).type() == LinkType.NVLINK && hops.hop(hop).from() instanceof Gpu g
                && hops.hop(hop).to() instanceof Gpu && CpuPathRates.datasheetSm(g.sm());
    }

    /** @return true when the hop joins two CPUs (NCCL's SYS link: QPI, UPI, xGMI, or two NUMA nodes of one socket) */
    boolean interCpu(int hop) {
        return hops.hop(hop).type() == LinkType.SMP;
    }

    /** @return true when the path passes a CPU between its ends (a GPU-NIC path NCCL routes through host memory) */
    boolean viaCpu(HostPath p) {
        for (int i = 0; i + 1 < p.links().length; i++) {
            if (hops.hop(p.links()[i]).to() instanceof Cpu) {
                return true;
            }
        }
        return false;
    }

    /**
     * NCCL's {@code ncclTopoCpuType} (NCCL 2.30.7 {@code src/graph/topo.cc}): the architecture and vendor of the node's
     * first CPU node.
     *
     * @return the CPU kind; Intel x86 when the node lists no CPU
     */
    CpuKind cpuKind() {
        return cpus.isEmpty() ? CpuKind.INTEL_X86 : CpuKind.of(cpus.get(0).arch(), cpus.get(0).vendor());
    }

    /**
     * NCCL's {@code ncclTopoSplitNvLink} (NCCL 2.26.2 and later, {@code src/graph/paths.cc}; the same in 2.28.9 and
     * 2.30.7): each GPU g in turn gives its domain to every later GPU p with an NVL path from g (NCCL's own pass, not a
     * full union-find), then the domains holding more than one GPU are counted.
     *
     * @return true when there are exactly 2 such NVLink domains (two sockets each with its NVLink island)
     */
    boolean splitNvLink() {
        int g = gpus.size();
        int[] domain = IntStream.range(0, g).toArray();
        for (int i = 0; i < g; i++) {
            for (int p = i + 1; p < g; p++) {
                if (gpuToGpu[i][p] != null && gpuToGpu[i][p].type() == PathType.NVL) {
                    domain[p] = domain[i];
                }
            }
        }
        int[] count = new int[g];
        for (int d : domain) {
            count[d]++;
        }
        return Arrays.stream(count).filter(c -> c > 1).count() == 2;
    }

    /**
     * The hops of a ring graph, the one walk of them ({@link CpuPathRates#ring}, {@link RingSwitchHops#share}):
     * channel by channel, each GPU of the channel's order to the next, the last back to the first.
     *
     * @param orders the GPU orders of the ring graph's channels (local indices), as {@link GraphSearch#orders}
     * @return the path of each hop, in that order; null where the node has no path between the two GPUs
     */
    List<HostPath> ringHops(List<int[]> orders) {
        int g = gpus.size();
        List<HostPath> out = new ArrayList<>();
        for (int[] order : orders) {
            for (int k = 0; k < g; k++) {
                out.add(gpuToGpu[order[k]][order[(k + 1) % g]]);
            }
        }
        return out;
    }

    /** @return most NVLink + PCIe bandwidth out of any GPU, NCCL's {@code totalBw} (max of PCI, sum of NVLink) */
    double totalBw() {
        double total = 0;
        for (Gpu g : gpus) {
            double nvl = 0;
            double pci = 0;
            for (int l : hops.outgoing(g)) {
                LinkType t = hops.hop(l).type();
                if (t == LinkType.NVLINK) {
                    nvl += capacity[l];
                } else if (t == LinkType.PCIE || t == LinkType.C2C) {
                    pci = Math.max(pci, capacity[l]);
                }
            }
            total = Math.max(total, Math.max(nvl, pci));
        }
        return total;
    }

    /** @return the NVLink bandwidth (NCCL view) from a GPU to NVSwitches, GB/s, 0 if none */
    double nvSwitchBw(int gpu) {
        double bw = 0;
        for (int l : hops.outgoing(gpus.get(gpu))) {
            if (hops.hop(l).type() == LinkType.NVLINK && hops.hop(l).to() instanceof NvSwitch) {
                bw += capacity[l];
            }
        }
        return bw;
    }

    /**
     * @return the weakest used GPU's way out ({@link ScaleUp}): its NVLinks summed (per direction, physical), or its
     *         best PCIe/C2C link when it has no NVLink; {@link ScaleUp#NONE} without GPUs
     */
    ScaleUp physicalScaleUp() {
        ScaleUp min = null;
        for (Gpu g : gpus) {
            double nvl = 0;
            double other = 0;
            LinkType otherType = LinkType.PCIE;
            boolean toSwitch = false;
            Set<Device> peers = new HashSet<>();
            for (Link l : topo.outgoing(g)) {
                if (l.type() == LinkType.NVLINK) {
                    nvl += l.bandwidth().gbps();
                    Device to = topo.target(l);
                    toSwitch |= to instanceof NvSwitch;
                    if (to instanceof Gpu) {
                        peers.add(to);
                    }
                } else if (l.bandwidth().gbps() > other) {
                    other = l.bandwidth().gbps();
                    otherType = l.type() == LinkType.C2C ? LinkType.C2C : LinkType.PCIE;
                }
            }
            ScaleUp s = nvl > 0 ? new ScaleUp(nvl, LinkType.NVLINK, toSwitch ? 0 : peers.size(), toSwitch)
                    : new ScaleUp(other, otherType, 0, false);
            min = min == null ? s : min.weaker(s);
        }
        return min == null ? ScaleUp.NONE : min;
    }

    /**
     * The PCIe generation of the used GPUs' own links (the link from each GPU to its PCIe switch or CPU; the
     * generation its detail text names, else the one nearest its per-lane rate, {@link PcieGen#nearest}), the lowest
     * over the GPUs: what sets the share of the link NCCL's SHM transport moves ({@code perf.ShmLinkShare}).
     *
     * @return the generation number, 1 to 6; 0 when a used GPU has no PCIe link in the topology
     */
    int gpuPcieGen() {
        int min = Integer.MAX_VALUE;
        for (Gpu g : gpus) {
            int gen = 0;
            for (Link l : topo.outgoing(g)) {
                if (l.type() == LinkType.PCIE) {
                    PcieGen named = PcieGen.fromDetail(l.detail());
                    PcieGen pg = named != null ? named : PcieGen.nearest(l.bandwidth().gbps() / l.count());
                    gen = Math.max(gen, pg.number());
                }
            }
            min = Math.min(min, gen);
        }
        return min == Integer.MAX_VALUE ? 0 : min;
    }

    private static boolean isCabled(Topology topo, Nic n) {
        return topo.graph().outgoingEdgesOf(n).stream().anyMatch(l -> l.type() == LinkType.NET);
    }
}
