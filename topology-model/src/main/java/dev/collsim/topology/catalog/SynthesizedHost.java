package dev.collsim.topology.catalog;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
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
 * <p>With {@code sharedSwitch} (a data file saying its GPUs sit behind one PCIe switch, as {@code nvidia-smi topo -m}
 * prints PIX between them), every GPU and NIC hangs off one PCIe switch with one x16 uplink to the CPU instead.
 *
 * @param gpu          the GPU SKU (sm, memory, NVLink generation and links, PCIe generation from the database)
 * @param gpus         GPUs per host, >= 1
 * @param nicSpeed     compute NIC port speed (one NIC per GPU)
 * @param sharedSwitch all GPUs behind one PCIe switch (else one switch per GPU)
 */
public record SynthesizedHost(GpuModels.Sku gpu, int gpus, Bandwidth nicSpeed, boolean sharedSwitch)
        implements HostType {

    /**
     * One PCIe switch per GPU.
     *
     * @param gpu      the GPU SKU
     * @param gpus     GPUs per host, >= 1
     * @param nicSpeed compute NIC port speed
     */
    public SynthesizedHost(GpuModels.Sku gpu, int gpus, Bandwidth nicSpeed) {
        this(gpu, gpus, nicSpeed, false);
    }

    /**
     * Validates the fields.
     *
     * @throws IllegalArgumentException when gpus is below 1
     */
    public SynthesizedHost {
        Objects.requireNonNull(gpu, "gpu");
        Objects.requireNonNull(nicSpeed, "nicSpeed");
        if (gpus < 1) {
            throw new IllegalArgumentException("gpus must be >= 1, got " + gpus);
        }
    }

    @Override
    public String name() {
        return "synth-" + gpus + "x-" + gpu.model().name().replaceAll("[^A-Za-z0-9]+", "-").toLowerCase(Locale.ROOT)
                .replaceAll("-+$", "") + (sharedSwitch ? "-one-switch" : "");
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
            a.add("one CPU socket; " + (sharedSwitch ? "all GPUs behind one " + pcie + " switch (GPU-GPU path PIX, read"
                    + " from the header)" : "each GPU on its own " + pcie + " switch") + "; no NIC: one host, so no"
                    + " traffic leaves it");
            return a;
        }
        String where = sharedSwitch ? "all GPUs behind one " + pcie + " switch (GPU-GPU path PIX, read from the"
                + " header), one " : "each GPU on its own " + pcie + " switch with one ";
        a.add("one CPU socket; " + where + Math.round(nicSpeed.gbits()) + " Gb/s NIC" + (sharedSwitch ? " per GPU on it"
                : "") + " (GPU-NIC path PIX, GPUDirect RDMA " + (gdr() ? "on" : "off") + ")");
        return a;
    }

    @Override
    public void addHost(HostContext ctx) {
        GpuModel m = gpu.model();
        Cpu cpu = ctx.cpu(0, "x86_64", "GenuineIntel", "synthesized");
        NvSwitch nvs = m.hasNvlink() && m.nvSwitch() ? ctx.nvSwitch(0, 1) : null;
        List<Gpu> all = new ArrayList<>();
        PcieSwitch shared = null;
        for (int i = 0; i < gpus; i++) {
            Gpu g = ctx.gpu(i, gpu);
            PcieSwitch sw = sharedSwitch && i > 0 ? shared : ctx.pcieSwitch(i, i);
            if (sw != shared) {
                ctx.pcie(cpu, sw, m.pcieGen(), 16);
            }
            shared = i == 0 ? sw : shared;
            ctx.pcie(sw, g, m.pcieGen(), m.pcieWidth());
            Nic nic = ctx.nic(i, "mlx5_" + i, nicSpeed, gdr(), i);
            ctx.pcie(sw, nic, m.pcieGen(), 16);
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
