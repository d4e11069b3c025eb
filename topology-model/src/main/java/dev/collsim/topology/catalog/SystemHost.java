package dev.collsim.topology.catalog;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NicVendor;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Hosts of a cloud instance type or vendor system of the catalog's data file ({@link SystemEntry}). An NVL72 tray is
 * built as {@link Gb200Nvl72Tray} builds it, with the row's GPU SKU and NIC speed (a GB300 tray: ConnectX-8). An HGX
 * board: two CPU sockets joined by their UPI/xGMI links (the CPU database's figure, {@link CpuModel#interSocket()});
 * the GPUs on the board's NVSwitch chips (one NVS node) with the GPU model's NVLinks; with GPUDirect, the GPUs and NICs
 * split into {@code min(GPUs, NICs)} equal groups, each group under one PCIe switch of the GPU's generation (every
 * device on its own downstream bridge, so a GPU and a NIC of its group are PXB apart, as on the DGX boards), groups
 * spread evenly over the two sockets, NIC i on rail i (on an EFA host whose net plugin groups a GPU's EFA devices
 * into one device, that device: {@link OfiRailGroups}); without GPUDirect (a virtual NIC, NCCL's socket transport) each
 * GPU has its own switch and the NICs hang off the CPUs. A link on a CPU root port (a switch's uplink, a NIC on the
 * CPU) runs at the lower of the device's and the CPU's PCIe generation ({@link CpuModel#rootPort}): a p5's H100 and
 * its switches are Gen5, its EPYC 7R13 (Milan) root ports Gen4, so its uplinks are Gen4 x16. A NIC's own link runs at
 * the lower of its port's and its model's generation ({@code hardware.NicModel#link}, the row's NIC column): an
 * a4-highgpu-8g's ConnectX-7 (Gen5 x16) sits on its B200's Gen6 switch at Gen5, NCCL's 48 GB/s, below its 400 Gb/s
 * port's 50 GB/s; a row that names no NIC model keeps the switch's generation. An HGX 4-GPU board
 * ({@link SystemEntry.Layout#HGX4}): two sockets as above, no NVSwitch, every GPU pair joined directly by the GPU's
 * NVLinks divided among its 3 peers, each GPU and each NIC on a CPU root port of its own (GPUs 0-1 and the first half
 * of the NICs on socket 0, the rest on socket 1), so a GPU and a NIC of one socket are PHB apart. An HGX 4-GPU board
 * with one NIC per GPU under a shared PCIe switch ({@link SystemEntry.Layout#HGX4_SWITCHED}): the HGX board's groups
 * above, one GPU and one NIC each (PXB apart), with the 4-GPU board's direct NVLinks. Immutable.
 *
 * @param entry the system's row
 */
public record SystemHost(SystemEntry entry) implements HostType {

    /** Validates the field. */
    public SystemHost {
        Objects.requireNonNull(entry, "entry");
    }

    @Override
    public String name() {
        return entry.key();
    }

    /** @return the name as the provider spells it (the data file's {@code name} column) */
    @Override
    public String displayName() {
        return entry.name();
    }

    @Override
    public String description() {
        return entry.describe();
    }

    /**
     * @param traysPerDomain trays per NVLink domain in the cluster ({@link SystemEntry#describe(int)})
     * @return the description with that NVLink domain (for an NVL72 tray; other hosts as {@link #description()})
     */
    public String description(int traysPerDomain) {
        return entry.describe(traysPerDomain);
    }

    @Override
    public int gpusPerHost() {
        return entry.gpus();
    }

    @Override
    public int hostsPerNvlinkDomain() {
        return entry.layout() == SystemEntry.Layout.NVL72 ? Gb200Nvl72Tray.DOMAIN_GPUS / entry.gpus() : 1;
    }

    @Override
    public NetworkClass networkClass() {
        return entry.network();
    }

    /** @return the provider's NIC vendor ({@link NicVendor#ofProvider}: AWS, GCP, else OTHER) */
    @Override
    public NicVendor nicVendor() {
        return NicVendor.ofProvider(entry.provider());
    }

    @Override
    public void addHost(HostContext ctx) {
        if (entry.layout() == SystemEntry.Layout.NVL72) {
            Gb200Nvl72Tray.addTray(ctx, entry.gpu(), Bandwidth.ofGbits(entry.nicGbits()));
            return;
        }
        if (entry.layout() == SystemEntry.Layout.HGX4) {
            addDirectBoard(ctx);
            return;
        }
        boolean direct = entry.layout().direct();
        GpuModel m = entry.gpu().model();
        PcieGen gen = m.pcieGen();
        CpuModel cpu = entry.cpuModel();
        PcieGen rootGen = cpu.rootPort(gen);
        Cpu[] cpus = ctx.twoSockets(cpu, entry.cpu(), cpu.socketLink());
        NvSwitch nvs = direct ? null : ctx.nvSwitch(0, entry.nvSwitchChips());
        List<Gpu> placed = new ArrayList<>();
        int groups = entry.gpuDirect() ? Math.min(entry.gpus(), entry.nics()) : entry.gpus();
        int gpusPer = entry.gpus() / groups;
        int nicsPer = entry.gpuDirect() ? entry.nics() / groups : 0;
        int rails = OfiRailGroups.rails(entry, nicsPer);
        int devices = nicsPer / rails;
        int sw = 0;
        for (int k = 0; k < groups; k++) {
            PcieSwitch top = ctx.pcieSwitch(sw++, k);
            ctx.pcie(cpus[k * 2 / groups], top, rootGen, 16);
            for (int j = 0; j < gpusPer; j++) {
                PcieSwitch bridge = ctx.pcieSwitch(sw++, -1);
                ctx.pcie(top, bridge, gen, 16);
                Gpu g = ctx.gpu(k * gpusPer + j, entry.gpu());
                ctx.pcie(bridge, g, gen, m.pcieWidth());
                if (direct) {
                    placed.forEach(peer -> ctx.nvlink(peer, g, m.nvlinks() / (entry.gpus() - 1), m.nvlink()));
                    placed.add(g);
                } else {
                    ctx.nvlink(g, nvs, m.nvlinks(), m.nvlink());
                }
            }
            for (int j = 0; j < devices; j++) {
                PcieSwitch bridge = ctx.pcieSwitch(sw++, -1);
                ctx.pcie(top, bridge, gen, 16);
                ctx.pcie(bridge, nic(ctx, k * devices + j, rails), nicGen(gen), nicWidth());
            }
        }
        if (!entry.gpuDirect()) {
            for (int i = 0; i < entry.nics(); i++) {
                ctx.pcie(cpus[i % 2], nic(ctx, i, 1), nicGen(rootGen), nicWidth());
            }
        }
    }

    /** Adds an HGX 4-GPU board's host (class comment). */
    private void addDirectBoard(HostContext ctx) {
        GpuModel m = entry.gpu().model();
        CpuModel cpu = entry.cpuModel();
        PcieGen rootGen = cpu.rootPort(m.pcieGen());
        Cpu[] cpus = ctx.twoSockets(cpu, entry.cpu(), cpu.socketLink());
        int perPair = m.nvlinks() / (entry.gpus() - 1);
        List<Gpu> placed = new ArrayList<>();
        for (int i = 0; i < entry.gpus(); i++) {
            Gpu g = ctx.gpu(i, entry.gpu());
            ctx.pcie(cpus[i * 2 / entry.gpus()], g, rootGen, m.pcieWidth());
            placed.forEach(peer -> ctx.nvlink(peer, g, perPair, m.nvlink()));
            placed.add(g);
        }
        for (int i = 0; i < entry.nics(); i++) {
            ctx.pcie(cpus[i * 2 / entry.nics()], nic(ctx, i, 1), nicGen(rootGen), nicWidth());
        }
    }

    /** @return the generation of a NIC's link to a port of generation {@code port}: the lower of the two */
    private PcieGen nicGen(PcieGen port) {
        return entry.nicModel().map(n -> n.link(port)).orElse(port);
    }

    /** @return lanes of a NIC's link to an x16 port: the NIC's own, at most 16 */
    private int nicWidth() {
        return entry.nicModel().map(n -> n.linkWidth(16)).orElse(16);
    }

    /** NIC {@code i}, of {@code rails} EFA devices grouped into one NCCL device ({@link OfiRailGroups}). */
    private Nic nic(HostContext ctx, int i, int rails) {
        String name = switch (entry.network()) {
            case EFA -> "rdmap" + i;
            case TCPX, TCPXO -> "eth" + (i + 1);
            case SOCKET -> "eth" + i;
            case SLINGSHOT -> "cxi" + i;
            default -> "mlx5_" + i;
        };
        return ctx.nic(i, name, Bandwidth.ofGbits(entry.nicGbits() * rails), entry.gpuDirect(), i);
    }
}
