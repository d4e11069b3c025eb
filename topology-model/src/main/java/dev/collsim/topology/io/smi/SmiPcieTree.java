package dev.collsim.topology.io.smi;

import dev.collsim.topology.io.HardwareHints;
import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.CpuModels;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.NcclBandwidths;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.io.smi.SmiMatrix.Cell;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Builds the CPUs, PCIe switches and PCIe/SMP links that reproduce the PCIe labels of an {@code nvidia-smi topo -m}
 * matrix (see {@link SmiInference}), and checks every labelled pair against the result. Not thread-safe; one use.
 */
final class SmiPcieTree {

    private final SmiInference in;
    private final TopologyBuilder b;
    private final Device[] dev;
    private final int gen;
    private final int n;
    private final int[] domainOf;
    private final int[] pxbOf;
    private final int[] pixOf;
    private final int[] bridgeOf;
    private int switches;
    private boolean c2cNoted;

    SmiPcieTree(SmiInference in, TopologyBuilder b, Device[] dev, int gen) {
        this.in = in;
        this.b = b;
        this.dev = dev;
        this.gen = gen;
        this.n = in.size();
        this.domainOf = new int[n];
        this.pxbOf = new int[n];
        this.pixOf = new int[n];
        this.bridgeOf = new int[n];
    }

    void build() {
        UnionFind domains = new UnionFind(n);
        UnionFind pxb = new UnionFind(n);
        UnionFind pix = new UnionFind(n);
        UnionFind bridge = new UnionFind(n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                String l = in.label(i, j);
                if (l == null) {
                    continue;
                }
                switch (nvReverse(i, j) ? "NV" : l) {
                    case "PIX" -> {
                        pix.union(i, j);
                        pxb.union(i, j);
                        bridge.union(i, j);
                        domains.union(i, j);
                    }
                    case "PXB" -> {
                        pxb.union(i, j);
                        bridge.union(i, j);
                        domains.union(i, j);
                    }
                    case "PHB" -> {
                        bridge.union(i, j);
                        domains.union(i, j);
                    }
                    case "NODE" -> domains.union(i, j);
                    default -> {
                    }
                }
                if (i != j && in.gpuNuma(i) >= 0 && in.gpuNuma(i) == in.gpuNuma(j)) {
                    domains.union(i, j);
                }
            }
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(i);
            domainOf[i] = domains.find(i);
            pxbOf[i] = pxb.find(i);
            pixOf[i] = pix.find(i);
            bridgeOf[i] = bridge.find(i);
        }
        check();
        List<Cpu> cpus = cpus(domains.groups(all));
        smp(cpus);
        List<List<Integer>> domainGroups = domains.groups(all);
        for (int d = 0; d < domainGroups.size(); d++) {
            List<Integer> members = domainGroups.get(d);
            Set<Integer> bridges = new TreeSet<>();
            members.forEach(i -> bridges.add(bridgeOf[i]));
            List<Integer> bridgeList = new ArrayList<>(bridges);
            List<Integer> c2c = members.stream().filter(in::c2c).toList();
            for (List<Integer> group : pxb.groups(members)) {
                int hb = bridges.size() > 1 ? bridgeList.indexOf(bridgeOf[group.get(0)]) : -1;
                pxbGroup(group, pix, cpus.get(d), hb);
            }
            for (int g : c2c) {
                c2c(dev[g], cpus.get(d), c2c.size());
            }
        }
    }

    /**
     * @return true when the pair's other cell (row j, column i) is NV#: nvidia-smi prints NV# both ways for GPUs
     *         joined by NVLink, whatever their PCIe path, so a PCIe label in this cell is an edited or damaged file,
     *         which {@link SmiNvlinks} warns of and reads as NVLinks; the label then says nothing of the PCIe tree
     *         (taken as PIX, it would join a switch that the file's other labels deny, and every error would point
     *         at those other cells)
     */
    private boolean nvReverse(int i, int j) {
        String r = in.label(j, i);
        return r != null && r.startsWith("NV");
    }

    /** Every labelled pair must be what the grouping gives; a contradiction is a problem at that cell. */
    private void check() {
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                String l = in.label(i, j);
                if (i == j || l == null || l.startsWith("NV") || nvReverse(i, j)) {
                    continue;
                }
                String want = domainOf[i] != domainOf[j] ? "SYS" : pxbOf[i] != pxbOf[j]
                        ? (bridgeOf[i] == bridgeOf[j] ? "PHB" : "NODE") : pixOf[i] != pixOf[j] ? "PXB" : "PIX";
                if (!want.equals(l)) {
                    Cell c = in.cell(i, j);
                    in.problems().at(c.line(), c.column(), in.column(i) + "/" + in.column(j), "found '" + l
                            + "', but the other labels of the matrix put these devices " + meaning(want)
                            + "; allowed here: " + want);
                }
            }
        }
    }

    private static String meaning(String label) {
        return switch (label) {
            case "SYS" -> "on different NUMA nodes (SYS)";
            case "NODE" -> "below different host bridges of one NUMA node (NODE)";
            case "PHB" -> "below one host bridge (PHB)";
            case "PXB" -> "below different PCIe switches under one upper switch (PXB)";
            default -> "below one PCIe switch (PIX)";
        };
    }

    private List<Cpu> cpus(List<List<Integer>> domainGroups) {
        int maxKnown = -1;
        for (int i = 0; i < n; i++) {
            maxKnown = Math.max(maxKnown, in.gpuNuma(i));
        }
        int next = maxKnown + 1;
        HardwareHints h = in.hints();
        String vendor = h.cpuVendor() == null ? grace() ? "NVIDIA" : "" : h.cpuVendor();
        String model = h.cpuFamily() >= 0 && h.cpuModel() >= 0
                ? "family " + h.cpuFamily() + " model " + h.cpuModel() : grace() ? "Grace" : "";
        List<Cpu> cpus = new ArrayList<>();
        Set<Integer> used = new TreeSet<>();
        for (List<Integer> g : domainGroups) {
            Set<Integer> numas = new TreeSet<>();
            g.stream().filter(i -> in.gpuNuma(i) >= 0).forEach(i -> numas.add(in.gpuNuma(i)));
            int numa;
            if (numas.isEmpty()) {
                numa = next++;
                in.notes().add("NUMA node " + numa + " assumed for " + g.stream().map(in::column).toList()
                        + " (no NUMA Affinity in the matrix for them)");
            } else {
                numa = numas.iterator().next();
                if (numas.size() > 1) {
                    in.notes().add("devices " + g.stream().map(in::column).toList() + " are PCIe-near but report"
                            + " NUMA nodes " + numas + "; one CPU, NUMA " + numa);
                }
            }
            if (!used.add(numa)) {
                numa = next++;
            }
            cpus.add(b.add(new Cpu("h0/cpu" + numa, 0, numa, grace() ? "arm64" : "x86_64", vendor, model)));
        }
        return cpus;
    }

    private void smp(List<Cpu> cpus) {
        HardwareHints h = in.hints();
        NcclBandwidths.Smp rate = NcclBandwidths.interCpu(grace() ? "arm64" : "x86_64", h.cpuVendor() == null ? ""
                : h.cpuVendor(), h.cpuFamily(), h.cpuModel());
        // the CPU --cpu-model names carries its socket links' rate (CpuModel.interSocket), as a catalog host's do;
        // NCCL's figure stays the NCCL view
        Optional<CpuModel> named = Optional.ofNullable(h.cpuName()).flatMap(CpuModels::family)
                .filter(c -> c.interSocket().isPresent());
        Bandwidth physical = named.flatMap(CpuModel::interSocket).orElse(rate.bandwidth());
        if (cpus.size() > 1) {
            boolean modelUnknown = "GenuineIntel".equals(h.cpuVendor()) && h.cpuFamily() < 0;
            in.notes().add("CPUs joined by SMP links of " + rate.bandwidth() + " per direction: " + rate.detail()
                    + (modelUnknown ? ", NCCL's figure for an Intel CPU of unknown model; name the CPU with"
                            + " --cpu-model (e.g. 'Xeon Platinum 8480': Sapphire Rapids)" : "")
                    + named.map(c -> "; physically " + physical + " (" + c.family() + ": " + c.socketLinks() + " "
                            + c.socketLink() + " links, the CPU database)").orElse(""));
        }
        for (int i = 0; i < cpus.size(); i++) {
            for (int j = i + 1; j < cpus.size(); j++) {
                b.connect(cpus.get(i), cpus.get(j), LinkType.SMP, 1, physical, rate.bandwidth(), Latency.ZERO,
                        rate.detail());
            }
        }
    }

    /** One PXB group: an upper switch over one switch per PIX class, or one switch, or a device on the CPU. */
    private void pxbGroup(List<Integer> group, UnionFind pix, Cpu cpu, int hostBridge) {
        List<List<Integer>> classes = pix.groups(group);
        if (classes.size() == 1 && classes.get(0).size() == 1 && hostBridge < 0) {
            pcie(dev[group.get(0)], cpu);
            return;
        }
        if (classes.size() == 1) {
            PcieSwitch s = newSwitch(hostBridge);
            pcie(s, cpu);
            classes.get(0).forEach(i -> pcie(dev[i], s));
            return;
        }
        PcieSwitch upper = newSwitch(hostBridge);
        pcie(upper, cpu);
        for (List<Integer> c : classes) {
            PcieSwitch leaf = newSwitch(-1);
            pcie(leaf, upper);
            c.forEach(i -> pcie(dev[i], leaf));
        }
    }

    /**
     * Joins a GPU whose memory is a NUMA node ({@link SmiInference#c2c}) to its CPU by NVLink-C2C, as a Grace
     * superchip does, so NCCL's path from it to a NIC on that CPU is P2C (NCCL 2.30.7 {@code src/graph/paths.cc
     * mergePathType}: C2C then PHB) rather than a PCIe path through the CPU; the Grace's C2C bandwidth is shared
     * evenly by its GPUs ({@link CpuModels#GRACE_C2C_GBPS}). The GPU keeps its place in the PCIe tree the labels
     * give (as NCCL keeps a C2C GPU's PCI parent, {@code src/graph/topo.cc ncclTopoAddC2c}), so the labels read back.
     */
    private void c2c(Device gpu, Cpu cpu, int gpusOnCpu) {
        Bandwidth bw = Bandwidth.ofGBps(CpuModels.GRACE_C2C_GBPS / gpusOnCpu);
        b.connect(gpu, cpu, LinkType.C2C, 1, bw, Latency.ZERO, "NVLink-C2C");
        if (!c2cNoted) {
            c2cNoted = true;
            in.notes().add("GPUs with a GPU NUMA ID (their memory a NUMA node, as on a Grace superchip) joined to"
                    + " their CPU by NVLink-C2C of " + bw + " per direction (Grace's "
                    + Bandwidth.ofGBps(CpuModels.GRACE_C2C_GBPS) + " shared by its " + gpusOnCpu + " GPU(s))");
        }
    }

    /**
     * @return true when the CPUs are Grace (arm64): some GPU has a GPU NUMA ID ({@link SmiInference#c2c}) and no
     *         CPU vendor or family hint says otherwise; NCCL then takes ARM_BW for the link between them
     *         ({@code NcclBandwidths.interCpu}), as the catalog's GB200 tray has it
     */
    private boolean grace() {
        HardwareHints h = in.hints();
        if (h.cpuVendor() != null || h.cpuFamily() >= 0) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (in.c2c(i)) {
                return true;
            }
        }
        return false;
    }

    private PcieSwitch newSwitch(int hostBridge) {
        return b.add(new PcieSwitch("h0/pcisw" + switches++, 0, "", hostBridge));
    }

    private void pcie(Device child, Device parent) {
        Bandwidth bw = PcieGen.of(gen).physical(16);
        b.connect(child, parent, LinkType.PCIE, 16, bw, Latency.ZERO, PcieGen.of(gen).detail(16));
    }
}
