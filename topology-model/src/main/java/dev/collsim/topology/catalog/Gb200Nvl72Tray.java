package dev.collsim.topology.catalog;

import dev.collsim.hardware.CpuModels;
import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.NicModel;
import dev.collsim.hardware.NicModels;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.hardware.PcieGen;
import dev.collsim.units.Bandwidth;

/**
 * One GB200 NVL72 compute tray as a host: 2 GB200 superchips, i.e. 2 Grace CPUs (one NUMA node each) and 4 B200-class
 * GPUs (sm100, 186 GB HBM3e), each GPU joined to its Grace by NVLink-C2C; all GPUs of 18 trays (72 GPUs) share one
 * NVLink domain through the rack's NVLink switch trays (9 trays x 2 NVLink5 switch chips = 18 chips, one NVS node
 * {@code nvl{domain}/nvs0} with host -1), 18 NVLink5 links per GPU at 50 GB/s per link and direction (900 GB/s);
 * 4 ConnectX-7 400 Gb/s NICs per tray on the Graces' PCIe Gen5 (2 per Grace), so GPU-NIC paths are P2C in NCCL.
 *
 * <p>Sources: NVIDIA GB200 NVL72 product page and datasheet (72 Blackwell GPUs, 36 Grace CPUs, 130 TB/s NVLink
 * domain = 72 x 1.8 TB/s, NVLink-C2C 900 GB/s per superchip, 13.5 TB HBM3e = 72 x ~186 GB); OCI BM.GPU.GB200.4 shape
 * (4 GPUs, 4x 400 Gb/s RoCE per tray; see {@code ../shared/data/A-allreduce-alltoall-GB200-NVL72-oci-*}); NCCL 2.30
 * {@code src/graph/paths.cc} (P2C path type for GPU-C2C-CPU-PCIe-NIC), {@code topo.h} (sm100 NVLink 40.1 GB/s per
 * link, ARM CPU 6 GB/s). Assumption: the 900 GB/s NVLink-C2C of a superchip is split evenly between its 2 GPUs
 * (225 GB/s per GPU and direction). The two Graces of a tray have no published coherent link; NCCL joins every CPU
 * pair with a SYS link of 6 GB/s, which is used for both views.
 */
public final class Gb200Nvl72Tray implements HostType {

    /** GPUs per NVL72 domain. */
    static final int DOMAIN_GPUS = 72;

    @Override
    public String name() {
        return "gb200-nvl72";
    }

    @Override
    public String description() {
        return "GB200 NVL72 compute tray: 2x Grace + 4x B200 (C2C), 72-GPU NVLink5 domain (18 links, 900 GB/s per GPU),"
                + " 4x CX-7 400G (NVIDIA GB200 NVL72 datasheet)";
    }

    @Override
    public int gpusPerHost() {
        return 4;
    }

    @Override
    public int hostsPerNvlinkDomain() {
        return DOMAIN_GPUS / 4;
    }

    @Override
    public void addHost(HostContext ctx) {
        addTray(ctx, GpuModels.sku("B200 (GB200)").orElseThrow(),
                Bandwidth.ofGbits(NicModels.find("ConnectX-7").orElseThrow().portGbits()));
    }

    /**
     * Adds one NVL72 compute tray as this class describes it, with the given GPUs and compute NICs. A GB300 NVL72
     * tray has the same layout (2 Grace, 4 GPUs on the rack's NVLink switch trays, one compute NIC per GPU) with one
     * change: its NICs are ConnectX-8 SuperNICs, whose built-in PCIe Gen6 switch joins the GPU (Gen6 x16), the Grace
     * (Gen5 x16) and the NIC, so a GPU reaches its NIC through that switch (PIX in NCCL) instead of through its Grace
     * (P2C, capped by the Grace's Gen5 x16 at NCCL's 48 GB/s, below an 800 Gb/s port's 100 GB/s). Sources: NVIDIA at
     * Hot Chips 2025 (ConnectX-8: 48 PCIe Gen6 lanes with a built-in switch; on GB300 NVL72 a Gen5 x16 link to Grace
     * and a Gen6 x16 link to the B300 GPU), NVIDIA GB300 NVL72 Enterprise RA (4 ConnectX-8 per compute tray). The
     * NVLink switch is the one of the context's NVLink domain ({@link HostContext#domainNvSwitch}).
     *
     * @param ctx      where to add the tray
     * @param sku      the GPUs
     * @param nicSpeed port speed of each of the 4 compute NICs
     */
    static void addTray(HostContext ctx, GpuModels.Sku sku, Bandwidth nicSpeed) {
        NvSwitch domainSwitch = ctx.domainNvSwitch(18);
        PcieGen rootGen = CpuModels.find("Grace").orElseThrow().rootPort(PcieGen.GEN6);
        Cpu[] graces = {ctx.cpu(0, "arm64", "NVIDIA", "Grace"), ctx.cpu(1, "arm64", "NVIDIA", "Grace")};
        ctx.smp(graces[0], graces[1], Bandwidth.ofGBps(6.0), "inter-Grace (NCCL ARM_BW)");
        boolean superNic = sku.model().name().equals("GB300");
        NicModel model = NicModels.find(superNic ? "ConnectX-8" : "ConnectX-7").orElseThrow();
        for (int i = 0; i < 4; i++) {
            Gpu gpu = ctx.gpu(i, sku);
            ctx.c2c(gpu, graces[i / 2], Bandwidth.ofGBps(CpuModels.GRACE_C2C_GBPS / 2));
            ctx.nvlink(gpu, domainSwitch, sku.model().nvlinks(), sku.model().nvlink());
            Nic nic = ctx.nic(i, "mlx5_" + i, nicSpeed, true, i);
            if (superNic) {
                PcieSwitch cx8 = ctx.pcieSwitch(i, i);
                ctx.pcie(graces[i / 2], cx8, rootGen, 16);
                ctx.pcie(cx8, gpu, PcieGen.GEN6, 16);
                ctx.pcie(cx8, nic, model.link(PcieGen.GEN6), model.linkWidth(16));
            } else {
                ctx.pcie(graces[i / 2], nic, model.link(rootGen), model.linkWidth(16));
            }
        }
    }
}
