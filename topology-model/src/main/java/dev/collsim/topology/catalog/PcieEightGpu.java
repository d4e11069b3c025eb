package dev.collsim.topology.catalog;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.CpuModels;
import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.units.Bandwidth;

/**
 * PCIe-only 8-GPU servers (no NVLink). Two layouts:
 * <ul>
 *   <li>{@link #l40s()}: 8 L40S (sm89, 48 GB) on 4 PCIe Gen4 switches, 2 GPUs and one 200 Gb/s NIC per switch, two
 *       switches per socket of 2 Intel Xeon Platinum 8462Y+ (Sapphire Rapids) joined by UPI (3 links at 16 GT/s,
 *       96 GB/s per direction), each switch on its own host bridge. Sources: NVIDIA L40S datasheet (PCIe Gen4 x16,
 *       48 GB, no NVLink); Supermicro SYS-521GE-TNRT manual (dual-root PCIe switch 8-GPU layout); Intel ARK 8462Y+
 *       (3 UPI links, 16 GT/s). The one-NIC-per-switch placement is collsim's choice for a rail-ready box.</li>
 *   <li>{@link #rtx4090()}: 8 RTX 4090 class GPUs (sm89, 24 GB) directly on CPU root ports (no PCIe switch) of 2 AMD
 *       EPYC 7542 in NPS4 (8 NUMA nodes, one GPU each), with 2 dual-port 100 Gb/s NICs on NUMA node 5 beside GPU6.
 *       Source: {@code ../shared/data/B-topo-8xRTX4090-dual-epyc7542-nopcieswitch.txt} (every GPU pair SYS; GPU
 *       NUMA nodes 3,2,1,0,7,6,5,4; NIC0/1 and NIC2/3 PIX pairs, PHB to GPU6); NIC speed is not in the file (100 Gb/s
 *       assumed). GeForce GPUs do not support GPUDirect RDMA, so the NICs are marked without GDR.</li>
 * </ul>
 * NCCL bandwidths: Gen4 x16 24 GB/s, SPR UPI 22 GB/s, AMD 16 GB/s (NCCL 2.30 {@code src/graph/topo.h}).
 *
 * @param name catalog name
 * @param description one line with the main source
 * @param switched true for the L40S switch layout, false for the root-port layout
 */
public record PcieEightGpu(String name, String description, boolean switched) implements HostType {

    private static final int[] RTX_GPU_NUMA = {3, 2, 1, 0, 7, 6, 5, 4};

    /** @return the 8x L40S switched server */
    public static PcieEightGpu l40s() {
        return new PcieEightGpu("pcie-8x-l40s", "8x L40S PCIe Gen4, 4 PCIe switches (2 GPUs + 1 200G NIC each), 2x Xeon"
                + " 8462Y+ (NVIDIA L40S datasheet)", true);
    }

    /** @return the 8x RTX 4090 root-port server */
    public static PcieEightGpu rtx4090() {
        return new PcieEightGpu("pcie-8x-rtx4090", "8x RTX 4090 on CPU root ports, no PCIe switch, 2x EPYC 7542 NPS4"
                + " (B-topo-8xRTX4090-dual-epyc7542-nopcieswitch.txt)", false);
    }

    @Override
    public int gpusPerHost() {
        return 8;
    }

    @Override
    public void addHost(HostContext ctx) {
        if (switched) {
            addL40s(ctx);
        } else {
            addRtx(ctx);
        }
    }

    private static void addL40s(HostContext ctx) {
        CpuModel xeon = CpuModels.find("Xeon Platinum 8462Y+").orElseThrow();
        Cpu[] cpus = ctx.twoSockets(xeon, "Xeon Platinum 8462Y+", "UPI 3x 16 GT/s");
        for (int sw = 0; sw < 4; sw++) {
            PcieSwitch ps = ctx.pcieSwitch(sw, sw);
            ctx.pcie(cpus[sw / 2], ps, xeon.rootPort(PcieGen.GEN4), 16);
            for (int k = 0; k < 2; k++) {
                Gpu g = ctx.gpu(2 * sw + k, GpuModels.sku("L40S").orElseThrow());
                ctx.pcie(ps, g, PcieGen.GEN4, 16);
            }
            Nic nic = ctx.nic(sw, "mlx5_" + sw, Bandwidth.ofGbits(200), true, sw);
            ctx.pcie(ps, nic, PcieGen.GEN4, 16);
        }
    }

    private static void addRtx(HostContext ctx) {
        CpuModel epyc = CpuModels.find("EPYC 7542").orElseThrow();
        Cpu[] cpus = ctx.twoSocketsNps4(epyc, "EPYC 7542", "xGMI 4x16");
        for (int i = 0; i < 8; i++) {
            Gpu g = ctx.gpu(i, GpuModels.sku("GeForce RTX 4090").orElseThrow());
            ctx.pcie(cpus[RTX_GPU_NUMA[i]], g, epyc.rootPort(PcieGen.GEN4), 16);
        }
        for (int card = 0; card < 2; card++) {
            PcieSwitch cardSw = ctx.pcieSwitch(card, -1);
            ctx.pcie(cpus[5], cardSw, epyc.rootPort(PcieGen.GEN4), 16);
            for (int port = 0; port < 2; port++) {
                int k = 2 * card + port;
                Nic nic = ctx.nic(k, "mlx5_" + k, Bandwidth.ofGbits(100), false, k);
                ctx.pcie(cardSw, nic, PcieGen.GEN4, 16);
            }
        }
    }
}
