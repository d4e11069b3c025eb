package dev.collsim.topology.catalog;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.CpuModels;
import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.NvlinkGen;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.units.Bandwidth;

/**
 * NVIDIA DGX-1 with V100: 8 V100-SXM2-32GB (sm70) in a hybrid cube-mesh of NVLink2, 6 links per GPU at
 * 25 GB/s per link and direction; 4 PCIe Gen3 switches, each with 2 GPUs and 1 ConnectX-4 EDR 100 Gb/s InfiniBand
 * NIC; 2 Intel Xeon E5-2698 v4 (Broadwell) sockets joined by 2 QPI links at 9.6 GT/s (19.2 GB/s per link and
 * direction).
 *
 * <p>Sources: NVIDIA "DGX-1 With Tesla V100 System Architecture" white paper WP-08437-002 (hybrid cube-mesh figure:
 * GPU pairs 0-3, 0-4, 1-2, 1-5, 2-3, 4-7, 5-6, 6-7 have 2 links, pairs 0-1, 0-2, 1-3, 2-6, 3-7, 4-5, 4-6, 5-7 have 1);
 * Intel ARK E5-2698 v4 (2 QPI, 9.6 GT/s); PCIe placement from {@code ../shared/data/B-topo-dgx1-v100-pcie-paths.txt}
 * ({@code nvidia-smi topo -mp}: GPU0/GPU1/mlx5_0 PIX, GPU0-GPU2 PHB, GPU0-GPU4 SYS). NCCL bandwidths: sm70 NVLink
 * 20 GB/s per link, Broadwell QPI 6 GB/s, Gen3 x16 12 GB/s (NCCL 2.30 {@code src/graph/topo.h}).
 */
public final class Dgx1V100 implements HostType {

    private static final int[][] NVLINK_PAIRS = {
        {0, 1, 1}, {0, 2, 1}, {0, 3, 2}, {0, 4, 2}, {1, 2, 2}, {1, 3, 1}, {1, 5, 2}, {2, 3, 2},
        {2, 6, 1}, {3, 7, 1}, {4, 5, 1}, {4, 6, 1}, {4, 7, 2}, {5, 6, 2}, {5, 7, 1}, {6, 7, 2},
    };

    @Override
    public String name() {
        return "dgx1-v100";
    }

    @Override
    public String description() {
        return "NVIDIA DGX-1 V100: 8x V100-SXM2 hybrid cube-mesh NVLink2, 4 PCIe Gen3 switches, 4x EDR 100G, 2x Xeon"
                + " E5-2698 v4 (DGX-1 V100 white paper WP-08437-002)";
    }

    @Override
    public int gpusPerHost() {
        return 8;
    }

    @Override
    public void addHost(HostContext ctx) {
        CpuModel xeon = CpuModels.find("Xeon E5-2698 v4").orElseThrow();
        Cpu[] cpus = ctx.twoSockets(xeon, "Xeon E5-2698 v4", "QPI 2x 9.6 GT/s");
        Gpu[] gpus = new Gpu[8];
        for (int i = 0; i < 8; i++) {
            gpus[i] = ctx.gpu(i, GpuModels.sku("V100-SXM2-32GB").orElseThrow());
        }
        for (int sw = 0; sw < 4; sw++) {
            PcieSwitch ps = ctx.pcieSwitch(sw, 0);
            ctx.pcie(cpus[sw / 2], ps, xeon.rootPort(PcieGen.GEN3), 16);
            ctx.pcie(ps, gpus[2 * sw], PcieGen.GEN3, 16);
            ctx.pcie(ps, gpus[2 * sw + 1], PcieGen.GEN3, 16);
            Nic nic = ctx.nic(sw, "mlx5_" + sw, Bandwidth.ofGbits(100), true, sw);
            ctx.pcie(ps, nic, PcieGen.GEN3, 16);
        }
        for (int[] p : NVLINK_PAIRS) {
            ctx.nvlink(gpus[p[0]], gpus[p[1]], p[2], NvlinkGen.NVLINK2);
        }
    }
}
