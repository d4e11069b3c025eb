package dev.collsim.topology.catalog;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.CpuModels;
import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.units.Bandwidth;

/**
 * ABCI Compute Node (A), a FUJITSU PRIMERGY GX2570 successor: 8 A100-SXM4-40GB (sm80), each with 12 NVLink3 links to
 * 6 NVSwitch chips (one NVS node, as NCCL models it); 2 Intel Xeon Platinum 8360Y (Ice Lake) sockets joined by UPI;
 * on each socket two PCIe Gen4 x16 links to two PLX switches, each switch holding 2 of the GPUs and one InfiniBand
 * HDR 200 Gb/s NIC (x16), so every GPU shares a switch with one NIC (PIX to NCCL) and each NIC serves 2 GPUs (unlike
 * the DGX A100, whose 8 NICs give every GPU its own, and whose CPUs are AMD).
 *
 * <p>Sources: the ABCI system overview (aistabci/abci-docs {@code en/docs/system-overview.md}, "Compute Node (A)": 2x
 * Xeon Platinum 8360Y, 8x NVIDIA A100 for NVLink 40 GiB, 4x InfiniBand HDR 200 Gbps) and its block diagram
 * ({@code en/docs/img/compute-node-a-diagram.png}, read at abci-docs commit 95081db9: 4 "PLX" switches, each with an "x16"
 * link to its "Xeon SP", 2 "A100 SXM4" and one "IB HDR" at x16, NVMe x4 on two of them; "NVLink3 x12" to the
 * NVSwitch chips; "PCIe Gen4 x16"). GPU order: the Rank lines of the ABCI 2.0 benchmark record
 * (aistabci/abci2.0benchmark, {@code allreduce/intra_anode}) print devices 0-7 at buses 0x27, 0x2a, 0x51, 0x57, 0x9e,
 * 0xa4, 0xc7, 0xca: pairs of neighbouring buses, GPUs 0-3 on socket 0. The UPI link count and rate are the CPU
 * database's Ice Lake figures (the diagram draws one "UPI" arrow without a figure). NIC names mlx5_0 to mlx5_3 assumed.
 */
public final class AbciNodeA implements HostType {

    @Override
    public String name() {
        return "abci-node-a";
    }

    @Override
    public String displayName() {
        return "ABCI Compute Node (A)";
    }

    @Override
    public String description() {
        return "ABCI Compute Node (A) (FUJITSU PRIMERGY GX2570 successor): 8x A100-SXM4-40GB on 6 NVSwitch, 4 PLX"
                + " switches with 2 GPUs and 1 HDR 200G NIC each, 2x Xeon Platinum 8360Y (abci-docs system-overview.md"
                + " and compute-node-a-diagram.png)";
    }

    @Override
    public int gpusPerHost() {
        return 8;
    }

    @Override
    public void addHost(HostContext ctx) {
        CpuModel xeon = CpuModels.find("Xeon Platinum 8360Y").orElseThrow();
        Cpu[] cpus = ctx.twoSockets(xeon, "Xeon Platinum 8360Y", "UPI");
        GpuModels.Sku a100 = GpuModels.sku("A100-SXM4-40GB").orElseThrow();
        NvSwitch nvs = ctx.nvSwitch(0, 6);
        Gpu[] gpus = new Gpu[8];
        for (int i = 0; i < 8; i++) {
            gpus[i] = ctx.gpu(i, a100);
            ctx.nvlink(gpus[i], nvs, a100.model().nvlinks(), a100.model().nvlink());
        }
        for (int sw = 0; sw < 4; sw++) {
            PcieSwitch plx = ctx.pcieSwitch(sw, sw);
            ctx.pcie(cpus[sw / 2], plx, xeon.rootPort(PcieGen.GEN4), 16);
            ctx.pcie(plx, gpus[2 * sw], PcieGen.GEN4, 16);
            ctx.pcie(plx, gpus[2 * sw + 1], PcieGen.GEN4, 16);
            Nic nic = ctx.nic(sw, "mlx5_" + sw, Bandwidth.ofGbits(200), true, sw);
            ctx.pcie(plx, nic, PcieGen.GEN4, 16);
        }
    }
}
