package dev.collsim.reports.plan;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;

/** Small hand-built clusters for plan tests: hosts of GPUs on one NVSwitch, NICs on one leaf switch. */
public final class TestClusters {

    private TestClusters() {
    }

    /**
     * @param hosts       host count
     * @param gpusPerHost GPUs per host, all on one NVSwitch with {@code nvlinkGBps} per GPU per direction
     * @param nicsPerHost NICs per host, each {@code nicGbits} Gb/s, all cabled to one leaf switch
     * @param nicGbits    NIC speed in Gb/s
     * @param nvlinkGBps  GPU-NVSwitch bandwidth in GB/s
     * @param model       GPU model name
     * @return the cluster
     */
    public static Topology cluster(int hosts, int gpusPerHost, int nicsPerHost, double nicGbits, double nvlinkGBps,
            String model) {
        TopologyBuilder b = Topology.builder("test-" + hosts + "x" + gpusPerHost + "-" + nicsPerHost + "x"
                + (int) nicGbits + "G");
        NetSwitch leaf = b.add(new NetSwitch("leaf0", NetSwitch.Tier.LEAF, 0));
        for (int h = 0; h < hosts; h++) {
            NvSwitch nvs = b.add(new NvSwitch("h" + h + "/nvs", h, h));
            for (int i = 0; i < gpusPerHost; i++) {
                Gpu g = b.add(new Gpu("h" + h + "/gpu" + i, h, i, model, 90, 80L << 30, ""));
                b.connect(g, nvs, LinkType.NVLINK, 1, Bandwidth.ofGBps(nvlinkGBps), Latency.ZERO, "test");
            }
            for (int k = 0; k < nicsPerHost; k++) {
                Nic n = b.add(new Nic("h" + h + "/nic" + k, h, "mlx5_" + k, Bandwidth.ofGbits(nicGbits), 1, true,
                        k, ""));
                b.connect(n, leaf, LinkType.NET, 1, Bandwidth.ofGbits(nicGbits), Latency.ZERO, "test");
            }
        }
        return b.build();
    }
}
