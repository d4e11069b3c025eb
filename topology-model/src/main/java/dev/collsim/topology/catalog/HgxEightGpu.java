package dev.collsim.topology.catalog;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.CpuModels;
import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.NicModel;
import dev.collsim.hardware.NicModels;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.units.Bandwidth;
import java.util.Objects;

/**
 * An HGX 8-GPU board host (DGX H100, DGX H200, HGX/DGX B200): 8 SXM GPUs on NVSwitch chips (one NVS node), one
 * PCIe switch per GPU holding that GPU and its compute NIC on separate downstream bridges (GPU-NIC pairs are PXB),
 * each switch on its own CPU host bridge (pairs on one socket are NODE apart), two Intel Xeon sockets joined by UPI,
 * and optionally two dual-port storage NICs, one per socket. GPU i uses NIC i (rail i). Placement matches
 * {@code ../shared/data/B-topo-dgx-h100-12nic-partial.txt} (GPU0-3 on NUMA 0 with NIC0,3,4,5 PXB; NIC1/NIC2 a PIX
 * pair NODE to GPU0-3; SYS across sockets). Instances come from {@link Catalog}, which cites each system's sources.
 * This class is immutable.
 *
 * @param name          catalog name
 * @param description   one line with the main source
 * @param gpu           the GPU SKU (name, sm, memory, NVLink generation and links per GPU from the database)
 * @param nvSwitchChips NVSwitch chips on the board
 * @param cpuModel      CPU model text (decides NCCL's UPI bandwidth; the physical UPI bandwidth and the root ports'
 *                      PCIe generation are its family's in the CPU database, {@link CpuModels})
 * @param nicSpeed      compute NIC port speed
 * @param pcieGen       PCIe generation of the switches, GPUs and NICs (a switch's uplink to its CPU runs at the lower
 *                      of this and the CPU's root ports, {@link CpuModel#rootPort})
 * @param storageNics   true to add two dual-port storage NICs (not on the compute fabric)
 */
public record HgxEightGpu(String name, String description, GpuModels.Sku gpu, int nvSwitchChips, String cpuModel,
        Bandwidth nicSpeed, PcieGen pcieGen, boolean storageNics) implements HostType {

    /** NIC names of the 8 compute NICs in GPU order, and of the storage ports, as the DGX H100 file lists them. */
    private static final int[] COMPUTE_NIC_MLX = {0, 3, 4, 5, 6, 9, 10, 11};
    private static final int[][] STORAGE_NIC_MLX = {{1, 2}, {7, 8}};

    /**
     * The boards' compute and storage NICs: ConnectX-7 (NVIDIA DGX H100, DGX H200 and DGX B200 datasheets), whose
     * own link is Gen5 x16 ({@link NicModels}): a NIC's link runs at the lower of that and its switch's generation.
     */
    private static final NicModel NIC = NicModels.find("ConnectX-7").orElseThrow();

    /** Validates the fields. */
    public HgxEightGpu {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(gpu, "gpu");
        if (CpuModels.find(cpuModel).flatMap(CpuModel::interSocket).isEmpty()) {
            throw new IllegalArgumentException(name + ": CPU '" + cpuModel + "' has no socket link in the CPU database");
        }
        Objects.requireNonNull(nicSpeed, "nicSpeed");
        Objects.requireNonNull(pcieGen, "pcieGen");
    }

    @Override
    public int gpusPerHost() {
        return 8;
    }

    @Override
    public void addHost(HostContext ctx) {
        CpuModel cpu = CpuModels.find(cpuModel).orElseThrow();
        PcieGen rootGen = cpu.rootPort(pcieGen);
        Cpu[] cpus = ctx.twoSockets(cpu, cpuModel, cpu.socketLink());
        NvSwitch nvs = ctx.nvSwitch(0, nvSwitchChips);
        int sw = 0;
        for (int i = 0; i < 8; i++) {
            Gpu g = ctx.gpu(i, gpu);
            ctx.nvlink(g, nvs, gpu.model().nvlinks(), gpu.model().nvlink());
            PcieSwitch top = ctx.pcieSwitch(sw++, i);
            ctx.pcie(cpus[i / 4], top, rootGen, 16);
            PcieSwitch gpuBridge = ctx.pcieSwitch(sw++, -1);
            ctx.pcie(top, gpuBridge, pcieGen, 16);
            ctx.pcie(gpuBridge, g, pcieGen, 16);
            PcieSwitch nicBridge = ctx.pcieSwitch(sw++, -1);
            ctx.pcie(top, nicBridge, pcieGen, 16);
            Nic nic = ctx.nic(i, "mlx5_" + COMPUTE_NIC_MLX[i], nicSpeed, true, i);
            ctx.pcie(nicBridge, nic, NIC.link(pcieGen), NIC.linkWidth(16));
        }
        if (storageNics) {
            for (int s = 0; s < 2; s++) {
                PcieSwitch card = ctx.pcieSwitch(sw++, 8 + s);
                ctx.pcie(cpus[s], card, rootGen, 16);
                for (int port = 0; port < 2; port++) {
                    Nic nic = ctx.nic(8 + 2 * s + port, "mlx5_" + STORAGE_NIC_MLX[s][port], nicSpeed, true, -1);
                    ctx.pcie(card, nic, NIC.link(pcieGen), NIC.linkWidth(16));
                }
            }
        }
    }
}
