package dev.collsim.topology.catalog;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.CpuModels;
import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A host built from a GPU model of the database when no catalog host type models it (used by a data file's cluster
 * guess): one CPU socket; per GPU one PCIe switch of the GPU's own generation holding the GPU and one compute NIC
 * (rail i, GPU-NIC path PIX); NVLink from the model: an NVSwitch node with the model's links per GPU when the model
 * meets in NVSwitches; without NVSwitch, a model of 18 or more links (GH200 quads, H200 NVL 4-way bridges) meets its
 * peers all-to-all with its links shared equally (at least one per pair), a model of fewer links (bridged boards) joins
 * GPU pairs (0-1, 2-3, ...) with all its links; none without NVLink. Every choice not read from a file is listed by {@link #assumptions()}. Immutable.
 *
 * <p>With {@code gpusPerSwitch} above 1 (a data file saying how many GPUs share a PCIe switch: all of them, as
 * {@code nvidia-smi topo -m} prints PIX between them, or "4 GPUs each"), GPUs 0 to k-1 and their NICs hang off the
 * first switch, k to 2k-1 off the second, and so on, each switch with one x16 uplink to the CPU on a host bridge of
 * its own (GPU pairs inside a switch PIX, across switches PHB, as NCCL 2.30.7 {@code src/graph/paths.cc} types a
 * path through the CPU).
 *
 * <p>A Grace Hopper model ({@link GpuModel#graceHopper}, one PCIe switch per GPU, no {@code nicNuma}) is built as
 * its superchips are: per GPU one Grace CPU node joined to it by NVLink-C2C ({@link CpuModels#GRACE_C2C_GBPS}, the
 * superchip's one GPU taking it whole) with the GPU's NIC on that Grace's PCIe Gen5 x16, every two Graces joined at
 * NCCL's ARM inter-CPU bandwidth ({@link NcclBandwidths#ARM_BW}, as {@code ncclTopoConnectCpus} joins its CPU nodes):
 * the GPU-NIC path is P2C, as NCCL 2.27 and later type it (GPU to C2C to CPU to PCIe to NIC; before 2.27 NCCL had no
 * P2C and typed it PHB, v2.26.6-1 {@code src/graph/topo.h}), not PIX: no PCIe switch joins a GH200's GPU and NIC.
 *
 * <p>With {@code nicOnCpu} (a run whose NCCL INFO log prints GPU-NIC distance PHB on its GPU Direct RDMA line, e.g.
 * {@code GPU Direct RDMA Disabled for GPU 81000 / HCA 0 (distance 6 > 4)} of NCCL 2.16.5), each NIC leaves its GPU's
 * switch for a root port of its own on the same CPU: GPU to switch to CPU to NIC, which NCCL types PHB (a path through
 * a host bridge, {@code src/graph/paths.cc}), beyond its default GPU Direct RDMA level (PXB before 2.27, P2C from
 * 2.27, {@code ncclTopoCheckGdr}). Under GDR off, the staged copies through host memory then share no uplink: the
 * GPU's link carries the GPU's traffic, the NIC's root port the NIC's.
 *
 * <p>With {@code nicNuma} set (a data file saying its GPUs sit on other NUMA nodes than the NIC), the NICs leave
 * the GPUs' switches: the GPUs' switches hang off {@link NicNuma#gpuNodes} CPU nodes (consecutive GPUs split evenly),
 * the host's {@link NicNuma#nics} NICs off one more CPU node, each on a root port of its own, every two CPU nodes
 * joined by an SMP link at the CPU model's socket-link bandwidth. NCCL makes one CPU node per NUMA node and joins
 * every pair by a SYS link at its inter-CPU bandwidth ({@code ncclTopoConnectCpus}, NCCL 2.30.7
 * {@code src/graph/topo.cc}), so the GPU-NIC path is SYS, farther than NCCL's default GPUDirect RDMA level (P2C,
 * {@code ncclTopoCheckGdr} in {@code src/graph/paths.cc}): the path rules route the data through the GPU's CPU and
 * host memory, at NCCL's inter-CPU bandwidth for the vendor in its tuning ({@link NcclBandwidths#smp}).
 *
 * @param gpu           the GPU SKU (sm, memory, NVLink generation and links, PCIe generation from the database)
 * @param gpus          GPUs per host, >= 1
 * @param nicSpeed      compute NIC port speed (one NIC per GPU, or {@link NicNuma#nics})
 * @param gpusPerSwitch GPUs behind each PCIe switch, 1 to gpus (1: one switch per GPU; gpus: all behind one)
 * @param nicNuma       NICs on a NUMA node of their own, or null for NICs on their GPU's PCIe switch (GPU-NIC path
 *                      PIX) and one synthesized Intel CPU
 * @param nicOnCpu      without {@code nicNuma}: true for each NIC on a CPU root port of its own, x16 of the GPU's
 *                      PCIe generation, instead of on its GPU's switch, so the GPU-NIC path crosses the host bridge
 *                      (PHB): a run whose NCCL INFO log prints that distance on its GPU Direct RDMA line
 */
public record SynthesizedHost(GpuModels.Sku gpu, int gpus, Bandwidth nicSpeed, int gpusPerSwitch, NicNuma nicNuma,
        boolean nicOnCpu) implements HostType {

    /**
     * A host whose NICs sit on another NUMA node than its GPUs.
     *
     * @param cpu      the host's CPU model (vendor for NCCL's inter-CPU bandwidth, socket link for the physical one)
     * @param gpuNodes NUMA nodes the GPUs are spread over, 1 or 2 (2: the first half of the GPUs on node 0, the rest
     *                 on node 1); the NICs are on node {@code gpuNodes}
     * @param nics     compute NICs of the host, >= 1 (at most one per GPU)
     */
    public record NicNuma(CpuModel cpu, int gpuNodes, int nics) {

        /** Validates the fields. */
        public NicNuma {
            Objects.requireNonNull(cpu, "cpu");
            if (gpuNodes < 1 || gpuNodes > 2) {
                throw new IllegalArgumentException("GPU NUMA nodes must be 1 or 2, got " + gpuNodes);
            }
            if (nics < 1) {
                throw new IllegalArgumentException("NICs must be >= 1, got " + nics);
            }
        }
    }

    /**
     * One PCIe switch per GPU.
     *
     * @param gpu      the GPU SKU
     * @param gpus     GPUs per host, >= 1
     * @param nicSpeed compute NIC port speed
     */
    public SynthesizedHost(GpuModels.Sku gpu, int gpus, Bandwidth nicSpeed) {
        this(gpu, gpus, nicSpeed, 1);
    }

    /**
     * Each NIC on its GPU's PCIe switch.
     *
     * @param gpu           the GPU SKU
     * @param gpus          GPUs per host, >= 1
     * @param nicSpeed      compute NIC port speed
     * @param gpusPerSwitch GPUs behind each PCIe switch, 1 to gpus
     */
    public SynthesizedHost(GpuModels.Sku gpu, int gpus, Bandwidth nicSpeed, int gpusPerSwitch) {
        this(gpu, gpus, nicSpeed, gpusPerSwitch, null, false);
    }

    /**
     * Each NIC on its GPU's PCIe switch, or on a NUMA node of its own.
     *
     * @param gpu           the GPU SKU
     * @param gpus          GPUs per host, >= 1
     * @param nicSpeed      compute NIC port speed
     * @param gpusPerSwitch GPUs behind each PCIe switch, 1 to gpus
     * @param nicNuma       NICs on a NUMA node of their own, or null
     */
    public SynthesizedHost(GpuModels.Sku gpu, int gpus, Bandwidth nicSpeed, int gpusPerSwitch, NicNuma nicNuma) {
        this(gpu, gpus, nicSpeed, gpusPerSwitch, nicNuma, false);
    }

    /**
     * Validates the fields.
     *
     * @throws IllegalArgumentException when gpus is below 1 or gpusPerSwitch outside 1 to gpus
     */
    public SynthesizedHost {
        Objects.requireNonNull(gpu, "gpu");
        Objects.requireNonNull(nicSpeed, "nicSpeed");
        if (gpus < 1) {
            throw new IllegalArgumentException("gpus must be >= 1, got " + gpus);
        }
        if (gpusPerSwitch < 1 || gpusPerSwitch > gpus) {
            throw new IllegalArgumentException("GPUs per PCIe switch must be 1 to " + gpus + ", got " + gpusPerSwitch);
        }
        if (nicOnCpu && nicNuma != null) {
            throw new IllegalArgumentException("a NIC on the GPUs' CPU and on a NUMA node of its own at once");
        }
    }

    /** @return true when every GPU of the host is behind one PCIe switch (and there are 2 or more) */
    public boolean sharedSwitch() {
        return gpus > 1 && gpusPerSwitch == gpus;
    }

    /** @return true when 2 or more GPUs share each switch but not all of them one */
    private boolean switchGroups() {
        return gpusPerSwitch > 1 && gpusPerSwitch < gpus;
    }

    @Override
    public String name() {
        return "synth-" + gpus + "x-" + gpu.model().name().replaceAll("[^A-Za-z0-9]+", "-").toLowerCase(Locale.ROOT)
                .replaceAll("-+$", "") + (sharedSwitch() ? "-one-switch" : switchGroups() ? "-" + gpusPerSwitch
                        + "-per-switch" : "") + (nicNuma != null ? "-nic-numa-apart" : nicOnCpu ? "-nic-on-cpu" : "");
    }

    @Override
    public String description() {
        return gpus + "x " + gpu.model().name() + " host synthesized from the GPU database (" + nvlinkText() + ")";
    }

    @Override
    public int gpusPerHost() {
        return gpus;
    }

    /** @return GPUDirect RDMA: false for GeForce boards (the driver does not offer it), true otherwise */
    public boolean gdr() {
        return !gpu.model().name().startsWith("GeForce");
    }

    private String nvlinkText() {
        GpuModel m = gpu.model();
        if (!m.hasNvlink()) {
            return "no NVLink";
        }
        String links = m.nvlinks() + " " + m.nvlink().label() + " per GPU";
        if (m.nvSwitch()) {
            return "NVSwitch, " + links;
        }
        return mesh() ? "all-to-all NVLink, " + meshLinks() + " links per GPU pair" : "NVLink bridges joining GPU pairs, "
                + links;
    }

    private boolean mesh() {
        return gpu.model().nvlinks() >= 18 && gpus > 2;
    }

    private int meshLinks() {
        return Math.max(1, gpu.model().nvlinks() / (gpus - 1));
    }

    /** @return one line per choice the synthesis made without a file saying so, for hosts of a multi-host run */
    public List<String> assumptions() {
        return assumptions(2);
    }

    /**
     * @param hosts the run's hosts
     * @return one line per choice the synthesis made without a file saying so; on one host no NIC is assumed in
     *         words (no traffic leaves the host: NCCL joins its GPUs by P2P or SHM, so the NICs the host is built
     *         with time nothing)
     */
    public List<String> assumptions(int hosts) {
        List<String> a = new ArrayList<>();
        a.add("host synthesized: " + description() + "; GPU figures from the GPU database");
        String pcie = gpu.model().pcieGen().detail(16);
        if (hosts == 1) {
            a.add("one CPU socket; " + switches(pcie) + "; no NIC: one host, so no traffic leaves it");
            return a;
        }
        if (nicNuma != null) {
            int n = Math.min(nicNuma.nics(), gpus);
            a.add(nicNumaText() + "; " + switches(pcie) + "; " + (n == 1 ? "one " : n + " x ")
                    + Math.round(nicSpeed.gbits()) + " Gb/s NIC" + (n == 1 ? "" : "s") + " on NUMA node "
                    + nicNuma.gpuNodes() + ", read from the header (GPU-NIC path SYS, GPUDirect RDMA off: data"
                    + " through host memory)");
            return a;
        }
        if (graces()) {
            a.add((gpus == 1 ? "one Grace CPU, its GPU" : gpus + " Grace CPUs, each GPU") + " joined to its own by"
                    + " NVLink-C2C with one " + Math.round(nicSpeed.gbits())
                    + " Gb/s NIC on that Grace's PCIe Gen5 x16 (GPU-NIC path P2C, PHB before NCCL 2.27; GPUDirect RDMA"
                    + " on)");
            return a;
        }
        if (nicOnCpu) {
            a.add("one CPU socket; " + switches(pcie) + "; one " + Math.round(nicSpeed.gbits()) + " Gb/s NIC per GPU"
                    + " on a CPU root port of its own (GPU-NIC path PHB, the distance the NCCL INFO log's GPU Direct"
                    + " RDMA line prints; GPUDirect RDMA only at NCCL_NET_GDR_LEVEL PHB or SYS)");
            return a;
        }
        String where = switches(pcie) + (gpusPerSwitch > 1 ? ", one " : " with one ");
        a.add("one CPU socket; " + where + Math.round(nicSpeed.gbits()) + " Gb/s NIC" + (gpusPerSwitch > 1
                ? " per GPU on them" : "") + " (GPU-NIC path PIX, GPUDirect RDMA " + (gdr() ? "on" : "off") + ")");
        return a;
    }

    private String switches(String pcie) {
        if (sharedSwitch()) {
            return "all GPUs behind one " + pcie + " switch (GPU-GPU path PIX, read from the header)";
        }
        if (switchGroups()) {
            int n = (gpus + gpusPerSwitch - 1) / gpusPerSwitch;
            return gpusPerSwitch + " GPUs behind each of " + n + " " + pcie + " switches, each switch on its own x16"
                    + " uplink to the CPU (GPU-GPU path PIX inside a switch, PHB across; read from the header)";
        }
        return "each GPU on its own " + pcie + " switch";
    }

    private String nicNumaText() {
        CpuModel c = nicNuma.cpu();
        String link = c.interSocket().map(b -> c.socketLink() + " (" + b + " per direction)")
                .orElse("SMP links at NCCL's inter-CPU bandwidth (no socket link figure for the family)");
        return (nicNuma.gpuNodes() == 1 ? "GPUs on NUMA node 0" : "GPUs split over NUMA nodes 0 and 1 (read from"
                + " their PCI buses)") + ", NICs on NUMA node " + nicNuma.gpuNodes() + " of " + c.family()
                + ", every two joined by " + link;
    }

    /** @return true when the host is built as Grace Hopper superchips (class comment) */
    private boolean graces() {
        return gpu.model().graceHopper() && gpusPerSwitch == 1 && nicNuma == null;
    }

    /** Adds the superchips of a Grace Hopper host (class comment). */
    private void addGraceHost(HostContext ctx) {
        GpuModel m = gpu.model();
        PcieGen rootGen = CpuModels.find("Grace").orElseThrow().rootPort(m.pcieGen());
        List<Cpu> graces = new ArrayList<>();
        List<Gpu> all = new ArrayList<>();
        for (int i = 0; i < gpus; i++) {
            Cpu grace = ctx.cpu(i, "arm64", "NVIDIA", "Grace");
            graces.forEach(peer -> ctx.smp(peer, grace, Bandwidth.ofGBps(NcclBandwidths.ARM_BW),
                    "inter-Grace (NCCL ARM_BW)"));
            graces.add(grace);
            Gpu g = ctx.gpu(i, gpu);
            ctx.c2c(g, grace, Bandwidth.ofGBps(CpuModels.GRACE_C2C_GBPS));
            ctx.pcie(grace, ctx.nic(i, "mlx5_" + i, nicSpeed, gdr(), i), rootGen, 16);
            if (mesh()) {
                all.forEach(peer -> ctx.nvlink(peer, g, meshLinks(), m.nvlink()));
            } else if (m.hasNvlink() && i % 2 == 1) {
                ctx.nvlink(all.get(i - 1), g, m.nvlinks(), m.nvlink());
            }
            all.add(g);
        }
    }

    /** @return the host's CPU nodes: one synthesized Intel CPU, or the GPUs' and the NICs' NUMA nodes */
    private List<Cpu> cpus(HostContext ctx) {
        if (nicNuma == null) {
            return List.of(ctx.cpu(0, "x86_64", "GenuineIntel", "synthesized"));
        }
        CpuModel c = nicNuma.cpu();
        List<Cpu> cpus = new ArrayList<>();
        for (int n = 0; n <= nicNuma.gpuNodes(); n++) {
            cpus.add(ctx.cpu(n, "x86_64", c.vendor(), c.family()));
        }
        for (int a = 0; a < cpus.size(); a++) {
            for (int b = a + 1; b < cpus.size(); b++) {
                ctx.smp(cpus.get(a), cpus.get(b), c.interSocket().orElse(NcclBandwidths.smp(cpus.get(a))),
                        c.socketLink().isEmpty() ? "SMP" : c.socketLink());
            }
        }
        return cpus;
    }

    @Override
    public void addHost(HostContext ctx) {
        if (graces()) {
            addGraceHost(ctx);
            return;
        }
        GpuModel m = gpu.model();
        List<Cpu> cpus = cpus(ctx);
        Cpu nicNode = nicNuma == null ? null : cpus.get(nicNuma.gpuNodes());
        NvSwitch nvs = m.hasNvlink() && m.nvSwitch() ? ctx.nvSwitch(0, 1) : null;
        List<Gpu> all = new ArrayList<>();
        PcieSwitch shared = null;
        for (int i = 0; i < gpus; i++) {
            Gpu g = ctx.gpu(i, gpu);
            int s = i / gpusPerSwitch;
            PcieSwitch sw = i % gpusPerSwitch == 0 ? ctx.pcieSwitch(s, s) : shared;
            if (sw != shared) {
                ctx.pcie(cpus.get(nicNuma == null ? 0 : i * nicNuma.gpuNodes() / gpus), sw, m.pcieGen(), 16);
            }
            shared = sw;
            ctx.pcie(sw, g, m.pcieGen(), m.pcieWidth());
            if (nicNode == null) {
                ctx.pcie(nicOnCpu ? cpus.get(0) : sw, ctx.nic(i, "mlx5_" + i, nicSpeed, gdr(), i), m.pcieGen(), 16);
            } else if (i < nicNuma.nics()) {
                ctx.pcie(nicNode, ctx.nic(i, "mlx5_" + i, nicSpeed, gdr(), i), nicNuma.cpu().rootPort(m.pcieGen()), 16);
            }
            if (nvs != null) {
                ctx.nvlink(g, nvs, m.nvlinks(), m.nvlink());
            } else if (m.hasNvlink() && mesh()) {
                all.forEach(peer -> ctx.nvlink(peer, g, meshLinks(), m.nvlink()));
            } else if (m.hasNvlink() && i % 2 == 1) {
                ctx.nvlink(all.get(i - 1), g, m.nvlinks(), m.nvlink());
            }
            all.add(g);
        }
    }
}
