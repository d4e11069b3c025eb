package dev.collsim.topology.catalog;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.CpuModels;
import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.units.Bandwidth;

/**
 * NVIDIA DGX A100: 8 A100-SXM4-80GB (sm80), each with 12 NVLink3 links at 25 GB/s per link and direction (300 GB/s)
 * to 6 NVSwitch chips (one NVS node, as NCCL models it); 4 PCIe Gen4 switch complexes, each with 2 GPUs and 2
 * ConnectX-6 HDR 200 Gb/s compute NICs, every device on its own downstream bridge (so GPU-NIC and NIC-NIC pairs are
 * PXB); 2 AMD EPYC 7742 sockets in NPS4 mode (8 NUMA nodes) joined by xGMI; optionally 2 dual-port ConnectX-6
 * storage NICs on NUMA nodes without GPUs.
 *
 * <p>Sources: NVIDIA DGX A100 User Guide (system specifications: 8x A100, 6x NVSwitch, 8x single-port ConnectX-6
 * 200 Gb/s compute, 2x dual-port ConnectX-6 storage, 2x AMD EPYC 7742); NVIDIA A100 datasheet (NVLink 600 GB/s
 * bidirectional over 12 links); {@code ../shared/data/B-topo-dgx-a100.txt} ({@code nvidia-smi topo -m}: NV12 for
 * every GPU pair; GPU0,1 with mlx5_0,1 on NUMA 3; GPU2,3 with mlx5_2,3 on NUMA 1; GPU4,5 with mlx5_6,7 on NUMA 7;
 * GPU6,7 with mlx5_8,9 on NUMA 5; mlx5_4/5 and mlx5_10/11 PIX pairs, SYS to every GPU). The storage NICs' NUMA nodes
 * (2 and 6) are not in that file; any GPU-less node gives its SYS labels. xGMI physical bandwidth: the CPU database's
 * EPYC 7002 figure ({@code hardware.CpuModels}: 4 x16 links at an assumed 16 GT/s, 128 GB/s per direction; AMD gives
 * no rate), also used for NUMA nodes of one socket (no public per-quadrant figure). NCCL bandwidths: sm80 NVLink 20 GB/s per link (12 x 20 = 240), Gen4 x16 24 GB/s,
 * AMD 16 GB/s, 200 Gb/s NIC 25 GB/s (NCCL 2.30 {@code src/graph/topo.h}).
 */
public final class DgxA100 implements HostType {

    private static final int[] PAIR_NUMA = {3, 1, 7, 5};
    private static final String[][] PAIR_NIC_NAMES = {{"mlx5_0", "mlx5_1"}, {"mlx5_2", "mlx5_3"},
        {"mlx5_6", "mlx5_7"}, {"mlx5_8", "mlx5_9"}};
    private final boolean storageNics;

    /** @param storageNics true to add the 2 dual-port storage NICs (4 NIC ports, not on the compute fabric) */
    public DgxA100(boolean storageNics) {
        this.storageNics = storageNics;
    }

    @Override
    public String name() {
        return "dgx-a100";
    }

    @Override
    public String description() {
        return "NVIDIA DGX A100: 8x A100-SXM4-80GB, 6 NVSwitch (NV12, 300 GB/s per GPU), 8x HDR 200G, 2x EPYC 7742"
                + " NPS4 (DGX A100 User Guide; B-topo-dgx-a100.txt)";
    }

    @Override
    public int gpusPerHost() {
        return 8;
    }

    @Override
    public void addHost(HostContext ctx) {
        CpuModel epyc = CpuModels.find("EPYC 7742").orElseThrow();
        Cpu[] cpus = ctx.twoSocketsNps4(epyc, "EPYC 7742", "xGMI 4x16");
        NvSwitch nvs = ctx.nvSwitch(0, 6);
        Gpu[] gpus = new Gpu[8];
        GpuModels.Sku a100 = GpuModels.sku("A100-SXM4-80GB").orElseThrow();
        for (int i = 0; i < 8; i++) {
            gpus[i] = ctx.gpu(i, a100);
            ctx.nvlink(gpus[i], nvs, a100.model().nvlinks(), a100.model().nvlink());
        }
        int sw = 0;
        for (int pair = 0; pair < 4; pair++) {
            PcieSwitch top = ctx.pcieSwitch(sw++, pair);
            ctx.pcie(cpus[PAIR_NUMA[pair]], top, epyc.rootPort(PcieGen.GEN4), 16);
            for (int k = 0; k < 2; k++) {
                PcieSwitch gsw = ctx.pcieSwitch(sw++, -1);
                ctx.pcie(top, gsw, PcieGen.GEN4, 16);
                ctx.pcie(gsw, gpus[2 * pair + k], PcieGen.GEN4, 16);
                PcieSwitch nsw = ctx.pcieSwitch(sw++, -1);
                ctx.pcie(top, nsw, PcieGen.GEN4, 16);
                int nicIndex = 2 * pair + k;
                Nic nic = ctx.nic(nicIndex, PAIR_NIC_NAMES[pair][k], Bandwidth.ofGbits(200), true, nicIndex);
                ctx.pcie(nsw, nic, PcieGen.GEN4, 16);
            }
        }
        if (storageNics) {
            String[][] names = {{"mlx5_4", "mlx5_5"}, {"mlx5_10", "mlx5_11"}};
            int[] numa = {2, 6};
            for (int card = 0; card < 2; card++) {
                PcieSwitch cardSw = ctx.pcieSwitch(sw++, 4 + card);
                ctx.pcie(cpus[numa[card]], cardSw, epyc.rootPort(PcieGen.GEN4), 16);
                for (int port = 0; port < 2; port++) {
                    Nic nic = ctx.nic(8 + 2 * card + port, names[card][port], Bandwidth.ofGbits(200), true, -1);
                    ctx.pcie(cardSw, nic, PcieGen.GEN4, 16);
                }
            }
        }
    }
}
