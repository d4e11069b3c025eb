package dev.collsim.topology.catalog;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.CpuModels;
import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.NvlinkGen;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.units.Bandwidth;

/**
 * ABCI Compute Node (V), a FUJITSU PRIMERGY CX2570 M4: 4 V100-SXM2-16GB (sm70), every GPU pair joined by 2 NVLink2
 * links (6 links per GPU, 25 GB/s per link and direction: the 4 GPUs fully connected, 50 GB/s per pair); 2 Intel Xeon
 * Gold 6148 (Skylake-SP) sockets joined by 3 UPI links at 10.4 GT/s; on each socket one PCIe Gen3 x16 link to a PCIe
 * switch holding 2 of the GPUs (a 48-lane switch on socket 0, a 64-lane one on socket 1) and one InfiniBand EDR
 * 100 Gb/s NIC on its own x16 root port. A GPU reaches its NIC through the CPU (PHB to NCCL), never through a switch.
 *
 * <p>Sources: the ABCI system overview (aistabci/abci-docs {@code en/docs/system-overview.md}, "Compute Node (V)": 2x
 * Xeon Gold 6148, 4x NVIDIA V100 for NVLink 16 GiB, 2x InfiniBand EDR 100 Gbps) and its block diagram
 * ({@code en/docs/img/compute-node-v-diagram.png}, read at abci-docs commit 95081db9: "NVLink2 x2" on each of the 6
 * GPU pairs, "UPI x3" at "10.4GT/s x3", "PCIe Gen3 x16" to each IB EDR and to the x48 and x64 switches). GPU order: the
 * Rank lines of the ABCI 2.0 benchmark record (aistabci/abci2.0benchmark, {@code allreduce/intra_vnode}) print devices
 * 0-3 at buses 0x3d, 0x3e, 0xb1, 0xb2, two per socket's bus range; GPUs 0-1 sit on socket 0's switch. NIC names
 * mlx5_0, mlx5_1 assumed (not in the sources). NCCL bandwidths: sm70 NVLink 20 GB/s per link in NCCL 2.30 (21 in 2.8.4)
 * ({@code src/graph/topo.h}), Gen3 x16 12 GB/s, Skylake UPI as NCCL's SKL figure.
 */
public final class AbciNodeV implements HostType {

    /** GPU pairs, each joined by 2 NVLink2 links (the block diagram's "NVLink2 x2"). */
    private static final int LINKS_PER_PAIR = 2;

    @Override
    public String name() {
        return "abci-node-v";
    }

    @Override
    public String displayName() {
        return "ABCI Compute Node (V)";
    }

    @Override
    public String description() {
        return "ABCI Compute Node (V) (FUJITSU PRIMERGY CX2570 M4): 4x V100-SXM2-16GB, NVLink2 x2 between every GPU"
                + " pair, 2 GPUs per socket behind a PCIe switch, 1 EDR 100G NIC per socket on its root port, 2x Xeon"
                + " Gold 6148 (abci-docs system-overview.md and compute-node-v-diagram.png)";
    }

    @Override
    public int gpusPerHost() {
        return 4;
    }

    @Override
    public void addHost(HostContext ctx) {
        CpuModel xeon = CpuModels.find("Xeon Gold 6148").orElseThrow();
        Cpu[] cpus = ctx.twoSockets(xeon, "Xeon Gold 6148", "UPI 3x 10.4 GT/s");
        GpuModels.Sku v100 = GpuModels.sku("V100-SXM2-16GB").orElseThrow();
        Gpu[] gpus = new Gpu[4];
        for (int i = 0; i < 4; i++) {
            gpus[i] = ctx.gpu(i, v100);
        }
        for (int s = 0; s < 2; s++) {
            PcieSwitch ps = ctx.pcieSwitch(s, s);
            ctx.pcie(cpus[s], ps, xeon.rootPort(PcieGen.GEN3), 16);
            ctx.pcie(ps, gpus[2 * s], PcieGen.GEN3, 16);
            ctx.pcie(ps, gpus[2 * s + 1], PcieGen.GEN3, 16);
            Nic nic = ctx.nic(s, "mlx5_" + s, Bandwidth.ofGbits(100), true, s);
            ctx.pcie(cpus[s], nic, xeon.rootPort(PcieGen.GEN3), 16);
        }
        for (int a = 0; a < 4; a++) {
            for (int b = a + 1; b < 4; b++) {
                ctx.nvlink(gpus[a], gpus[b], LINKS_PER_PAIR, NvlinkGen.NVLINK2);
            }
        }
    }
}
