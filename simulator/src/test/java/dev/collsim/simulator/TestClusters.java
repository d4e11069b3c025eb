package dev.collsim.simulator;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.edit.ClusterEditor;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;

/**
 * Small topologies for tests, built with {@link Topology#builder}: DGX-style hosts with 8 GPUs on NVSwitch
 * chips, 4 PCIe Gen switches (2 GPUs and 2 NICs each), 2 CPUs joined by an SMP link, NICs on one leaf switch
 * per rail. Physical NVLink is 25 GB/s per link per direction (NVLink3/4); NCCL's view is derived from sm.
 */
public final class TestClusters {

    private TestClusters() {
    }

    /** Shape of one host. */
    public record Shape(String model, int sm, int nvlinksPerGpu, int nvSwitchChips, int pcieGen, int nicsPerHost,
            double nicGbits, boolean nvlink) {
    }

    /** DGX H100: 18 NVLinks per GPU over 4 NVSwitch chips, PCIe Gen5, 8 x 400 Gb/s NICs. */
    public static final Shape DGX_H100 = new Shape("H100-SXM5-80GB", 90, 18, 4, 5, 8, 400, true);
    /** DGX A100: 12 NVLinks per GPU over 6 NVSwitch chips, PCIe Gen4, 8 x 200 Gb/s NICs. */
    public static final Shape DGX_A100 = new Shape("A100-SXM4-80GB", 80, 12, 6, 4, 8, 200, true);
    /** 8 PCIe GPUs (sm89), no NVLink, PCIe Gen4, 1 x 100 Gb/s NIC. */
    public static final Shape PCIE_L40S = new Shape("L40S", 89, 0, 0, 4, 1, 100, false);

    /**
     * @param shape host shape
     * @param hosts number of hosts
     * @return the cluster
     */
    public static Topology cluster(Shape shape, int hosts) {
        TopologyBuilder b = Topology.builder(hosts + "x " + shape.model()).source("test fixture");
        Bandwidth nvl = Bandwidth.ofGBps(25);
        Bandwidth pcie = Bandwidth.ofGBps(shape.pcieGen() == 5 ? 63 : 31.5);
        String pcieDetail = "PCIe Gen" + shape.pcieGen() + " x16";
        NetSwitch[] leaves = new NetSwitch[shape.nicsPerHost()];
        if (hosts > 1) {
            for (int r = 0; r < leaves.length; r++) {
                leaves[r] = b.add(new NetSwitch("leaf" + r, NetSwitch.Tier.LEAF, 0));
            }
        }
        for (int h = 0; h < hosts; h++) {
            String p = "h" + h + "/";
            Cpu[] cpus = {b.add(new Cpu(p + "cpu0", h, 0, "x86_64", "GenuineIntel", "Xeon")),
                b.add(new Cpu(p + "cpu1", h, 1, "x86_64", "GenuineIntel", "Xeon"))};
            b.connect(cpus[0], cpus[1], LinkType.SMP, 1, Bandwidth.ofGBps(40), Latency.ZERO, "UPI");
            NvSwitch[] chips = new NvSwitch[shape.nvSwitchChips()];
            for (int c = 0; c < chips.length; c++) {
                chips[c] = b.add(new NvSwitch(p + "nvs" + c, h, h));
            }
            PcieSwitch[] sw = new PcieSwitch[4];
            for (int s = 0; s < 4; s++) {
                sw[s] = b.add(new PcieSwitch(p + "pcisw" + s, h, ""));
                b.connect(sw[s], cpus[s / 2], LinkType.PCIE, 16, pcie, Latency.ZERO, pcieDetail);
            }
            for (int g = 0; g < 8; g++) {
                Gpu gpu = b.add(new Gpu(p + "gpu" + g, h, g, shape.model(), shape.sm(), 80L << 30, ""));
                b.connect(gpu, sw[g / 2], LinkType.PCIE, 16, pcie, Latency.ZERO, pcieDetail);
                for (int c = 0; c < chips.length; c++) {
                    int links = shape.nvlinksPerGpu() / chips.length + (c < shape.nvlinksPerGpu() % chips.length ? 1 : 0);
                    if (links == 0) {
                        continue;
                    }
                    b.connect(gpu, chips[c], LinkType.NVLINK, links, nvl.times(links), Latency.ZERO, "NVLink");
                }
            }
            for (int n = 0; n < shape.nicsPerHost(); n++) {
                Nic nic = b.add(new Nic(p + "nic" + n, h, "mlx5_" + n, Bandwidth.ofGbits(shape.nicGbits()), 1, true, n,
                        ""));
                b.connect(nic, sw[n * 4 / shape.nicsPerHost()], LinkType.PCIE, 16, pcie, Latency.ZERO, pcieDetail);
                if (hosts > 1) {
                    b.connect(nic, leaves[n], LinkType.NET, 1, Bandwidth.ofGbits(shape.nicGbits()), Latency.ZERO,
                            "IB");
                }
            }
        }
        return b.build();
    }

    /**
     * The catalog's DGX H100 (DGX H100 User Guide: 8 GPUs, GPU i and NIC i on one PCIe switch), {@code hosts} of them
     * on a rail-optimized fabric, as {@code -c dgx-h100xN} builds them; with {@code nics} compute NICs per host (rails
     * 0..nics-1 kept, as a what-if's {@code nics-per-host}), or the catalog's 8 when null.
     *
     * @param hosts hosts, >= 1
     * @param nics  compute NICs per host, or null for all 8
     * @return the cluster
     */
    public static Topology dgxH100(int hosts, Integer nics) {
        ClusterSpec spec = new ClusterSpec("dgx-h100x" + hosts, "", Catalog.hostType("dgx-h100").orElseThrow(), hosts,
                FabricSpec.of(FabricKind.RAIL_OPTIMIZED));
        return nics == null ? spec.build() : ClusterEditor.build(spec, ClusterEdits.NONE.withNicsPerHost(nics));
    }
}
