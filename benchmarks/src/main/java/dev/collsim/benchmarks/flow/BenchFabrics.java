package dev.collsim.benchmarks.flow;

import dev.collsim.topology.Device;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostContext;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.List;

/**
 * Large fabrics of DGX H100 hosts for the benchmarks, wired here (400 Gb/s = 50 GB/s per NIC and cable, 0.6 us
 * per switch hop; 64-port leaves).
 */
final class BenchFabrics {

    private static final Bandwidth CABLE = Bandwidth.ofGbits(400);
    private static final Latency HOP = Latency.ofMicros(0.6);

    private BenchFabrics() {
    }

    private static List<List<Nic>> hosts(TopologyBuilder b, int hosts) {
        HostType dgx = Catalog.dgxH100();
        List<List<Nic>> nics = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            dgx.addHost(new HostContext(b, h));
            List<Nic> mine = new ArrayList<>();
            for (int r = 0; r < 8; r++) {
                mine.add((Nic) b.device("h" + h + "/nic" + r).orElseThrow());
            }
            nics.add(mine);
        }
        return nics;
    }

    private static void cable(TopologyBuilder b, Device x, Device y) {
        b.connect(x, y, LinkType.NET, 1, CABLE, HOP, "NDR");
    }

    /**
     * Rail-optimized: NIC r of every host goes to rail r's leaves (32 hosts per leaf); each rail is a two-tier
     * non-blocking tree of its own 32 spines (one cable from every rail-r leaf to every rail-r spine).
     */
    static Topology railOptimized(int hosts) {
        TopologyBuilder b = Topology.builder("rail-optimized-" + hosts);
        List<List<Nic>> nics = hosts(b, hosts);
        int leavesPerRail = (hosts + 31) / 32;
        for (int r = 0; r < 8; r++) {
            List<NetSwitch> spines = new ArrayList<>();
            for (int s = 0; s < 32; s++) {
                spines.add(b.add(new NetSwitch("r" + r + "/spine" + s, NetSwitch.Tier.SPINE, 0)));
            }
            for (int l = 0; l < leavesPerRail; l++) {
                NetSwitch leaf = b.add(new NetSwitch("r" + r + "/leaf" + l, NetSwitch.Tier.LEAF, 0));
                for (NetSwitch s : spines) {
                    cable(b, leaf, s);
                }
                for (int h = 32 * l; h < Math.min(hosts, 32 * l + 32); h++) {
                    cable(b, nics.get(h).get(r), leaf);
                }
            }
        }
        return b.build();
    }

    /**
     * Two-tier fat-tree with 2:1 oversubscription: 4 hosts (32 NICs) per leaf, 16 uplinks per leaf, one to each of
     * 16 spines (spines of 512 ports, as chassis switches).
     */
    static Topology fatTree2to1(int hosts) {
        TopologyBuilder b = Topology.builder("fat-tree-2to1-" + hosts);
        List<List<Nic>> nics = hosts(b, hosts);
        List<NetSwitch> spines = new ArrayList<>();
        for (int s = 0; s < 16; s++) {
            spines.add(b.add(new NetSwitch("spine" + s, NetSwitch.Tier.SPINE, 0)));
        }
        for (int l = 0; l < (hosts + 3) / 4; l++) {
            NetSwitch leaf = b.add(new NetSwitch("leaf" + l, NetSwitch.Tier.LEAF, 0));
            for (NetSwitch s : spines) {
                cable(b, leaf, s);
            }
            for (int h = 4 * l; h < Math.min(hosts, 4 * l + 4); h++) {
                for (Nic n : nics.get(h)) {
                    cable(b, n, leaf);
                }
            }
        }
        return b.build();
    }
}
