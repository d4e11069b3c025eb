package dev.collsim.simulator.network;

import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.List;

/**
 * Small fabrics built by hand for tests. Host: {@code gpus} GPUs on one NVSwitch ({@code nvl} GB/s per direction
 * per GPU), each GPU with its own PCIe switch (GPU-switch and switch-NIC links {@code pcie} GB/s) and NIC
 * ({@code nic} GB/s, rail = local index). Every link has latency {@code lat} microseconds.
 */
final class TestFabrics {

    private TestFabrics() {
    }

    record Spec(int gpus, double nvl, double pcie, double nic, double lat) {
    }

    static List<Nic> addHost(TopologyBuilder b, int h, Spec s) {
        NvSwitch nvs = b.add(new NvSwitch("h" + h + "/nvs0", h, 0));
        List<Nic> nics = new ArrayList<>();
        for (int i = 0; i < s.gpus(); i++) {
            Gpu g = b.add(new Gpu("h" + h + "/gpu" + i, h, i, "H100-SXM5", 90, 0, ""));
            PcieSwitch p = b.add(new PcieSwitch("h" + h + "/pcie" + i, h, ""));
            Nic n = b.add(new Nic("h" + h + "/nic" + i, h, "mlx5_" + i, Bandwidth.ofGBps(s.nic()), 1, true, i, ""));
            b.connect(g, nvs, LinkType.NVLINK, 18, Bandwidth.ofGBps(s.nvl()), Latency.ofMicros(s.lat()), "NVLink4");
            b.connect(g, p, LinkType.PCIE, 16, Bandwidth.ofGBps(s.pcie()), Latency.ofMicros(s.lat()), "PCIe");
            b.connect(p, n, LinkType.PCIE, 16, Bandwidth.ofGBps(s.pcie()), Latency.ofMicros(s.lat()), "PCIe");
            nics.add(n);
        }
        return nics;
    }

    /** {@code hosts} hosts, every NIC on one switch {@code sw0}. */
    static Topology singleSwitch(int hosts, Spec s) {
        TopologyBuilder b = Topology.builder("single-switch-" + hosts + "x" + s.gpus());
        NetSwitch sw = b.add(new NetSwitch("sw0", NetSwitch.Tier.LEAF, 0));
        for (int h = 0; h < hosts; h++) {
            for (Nic n : addHost(b, h, s)) {
                net(b, n, sw, s.nic(), s.lat());
            }
        }
        return b.build();
    }

    /**
     * Two-tier fat-tree: hosts {@code hostsPerLeaf} per leaf ({@code leaf0, leaf1, ...}), every leaf joined to every
     * spine ({@code spine0, ...}) by one cable of {@code uplink} GB/s.
     */
    static Topology fatTree(int hosts, int hostsPerLeaf, int spines, double uplink, Spec s) {
        TopologyBuilder b = Topology.builder("fat-tree-" + hosts);
        List<NetSwitch> spine = new ArrayList<>();
        for (int k = 0; k < spines; k++) {
            spine.add(b.add(new NetSwitch("spine" + k, NetSwitch.Tier.SPINE, 0)));
        }
        NetSwitch leaf = null;
        for (int h = 0; h < hosts; h++) {
            if (h % hostsPerLeaf == 0) {
                leaf = b.add(new NetSwitch("leaf" + h / hostsPerLeaf, NetSwitch.Tier.LEAF, 0));
                for (NetSwitch sp : spine) {
                    net(b, leaf, sp, uplink, s.lat());
                }
            }
            for (Nic n : addHost(b, h, s)) {
                net(b, n, leaf, s.nic(), s.lat());
            }
        }
        return b.build();
    }

    /**
     * Rail-optimized: NIC r of every host goes to a leaf of rail r ({@code hostsPerLeaf} hosts per leaf, {@code
     * r<r>/leaf<k>}); every leaf of rail r is joined to each of the rail's {@code spines} spines by one cable of the
     * NIC's speed, so rails meet only inside hosts.
     */
    static Topology railOptimized(int hosts, int hostsPerLeaf, int spines, Spec s) {
        TopologyBuilder b = Topology.builder("rail-optimized-" + hosts);
        List<List<Nic>> nics = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            nics.add(addHost(b, h, s));
        }
        for (int r = 0; r < s.gpus(); r++) {
            List<NetSwitch> spine = new ArrayList<>();
            for (int k = 0; k < spines; k++) {
                spine.add(b.add(new NetSwitch("r" + r + "/spine" + k, NetSwitch.Tier.SPINE, 0)));
            }
            for (int l = 0; l * hostsPerLeaf < hosts; l++) {
                NetSwitch leaf = b.add(new NetSwitch("r" + r + "/leaf" + l, NetSwitch.Tier.LEAF, 0));
                for (NetSwitch sp : spine) {
                    net(b, leaf, sp, s.nic(), s.lat());
                }
                for (int h = l * hostsPerLeaf; h < Math.min(hosts, (l + 1) * hostsPerLeaf); h++) {
                    net(b, nics.get(h).get(r), leaf, s.nic(), s.lat());
                }
            }
        }
        return b.build();
    }

    static void net(TopologyBuilder b, Device a, Device c, double gbps, double lat) {
        b.connect(a, c, LinkType.NET, 1, Bandwidth.ofGBps(gbps), Latency.ofMicros(lat), "IB");
    }

    static List<Gpu> gpus(Topology t, String... ids) {
        List<Gpu> out = new ArrayList<>();
        for (String id : ids) {
            out.add((Gpu) t.device(id).orElseThrow());
        }
        return out;
    }

    /**
     * @param m the network model
     * @param r a route in it
     * @return the devices at both ends of each of the route's links, in order (a device between two links twice)
     */
    static List<Device> routeDevices(NetworkModel m, Route r) {
        List<Device> out = new ArrayList<>();
        for (int i = 0; i < r.size(); i++) {
            out.add(m.vertex(m.source(r.link(i))));
            out.add(m.vertex(m.target(r.link(i))));
        }
        return out;
    }
}
