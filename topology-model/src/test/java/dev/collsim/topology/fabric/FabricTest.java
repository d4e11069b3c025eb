package dev.collsim.topology.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.paths.DevicePath;
import dev.collsim.topology.paths.PathFinder;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import org.junit.jupiter.api.Test;

/**
 * Fabrics and their bisection bandwidth, with expected values worked out by hand from the sizing rule in
 * {@link FabricBuilder}: DGX H100 hosts have 8 NICs of 400 Gb/s = 50 GB/s; half of 4 hosts is 16 NICs.
 */
class FabricTest {

    private static final double EPS = 1e-6;
    private static final HostType H100 = Catalog.hostType("dgx-h100").orElseThrow();

    private static Topology cluster(int hosts, FabricKind kind, double ratio, int radix, int planes) {
        FabricSpec f = new FabricSpec(kind, null, ratio, radix, planes, Latency.ofMicros(0.6));
        return new ClusterSpec("t", "test", H100, hosts, f).build();
    }

    private static long count(Topology t, NetSwitch.Tier tier) {
        return t.devices(NetSwitch.class).stream().filter(s -> s.tier() == tier).count();
    }

    /**
     * Fat-tree, 4 hosts x 8 NICs, 8 downlinks per leaf, 2:1: 4 leaves (one host each), uplink per leaf
     * U = 8 x 50 / 2 = 200 GB/s over round(8/2) = 4 spines. Half A = 2 leaves: B = min(16 x 50, 2 x 200) = 400 GB/s.
     */
    @Test
    void fatTreeTwoToOneBisectionIsHalfTheInjection() {
        Topology t = cluster(4, FabricKind.FAT_TREE, 2.0, 8, 1);
        assertEquals(4, count(t, NetSwitch.Tier.LEAF));
        assertEquals(4, count(t, NetSwitch.Tier.SPINE));
        assertEquals(400.0, Bisection.of(t).gbps(), EPS);
    }

    /** Same fat-tree at 1:1: U = 400 GB/s per leaf, B = min(800, 2 x 400) = 800 GB/s (full bisection). */
    @Test
    void nonBlockingFatTreeHasFullBisection() {
        assertEquals(800.0, Bisection.of(cluster(4, FabricKind.FAT_TREE, 1.0, 8, 1)).gbps(), EPS);
    }

    /**
     * Rail-optimized, 4 hosts in one scalable unit (radix 32): 8 rail leaves each holding 2 NICs of each half, so all
     * half-to-half traffic stays inside the leaves: B = 16 x 50 = 800 GB/s. With 2 hosts per unit (radix 2) at 2:1,
     * half A owns 8 leaves whose uplink is 2 x 50 / 2 = 50 GB/s each: B = 8 x 50 = 400 GB/s.
     */
    @Test
    void railOptimizedBisection() {
        Topology one = cluster(4, FabricKind.RAIL_OPTIMIZED, 1.0, 32, 1);
        assertEquals(8, count(one, NetSwitch.Tier.LEAF));
        assertEquals(800.0, Bisection.of(one).gbps(), EPS);
        Topology two = cluster(4, FabricKind.RAIL_OPTIMIZED, 2.0, 2, 1);
        assertEquals(16, count(two, NetSwitch.Tier.LEAF));
        assertEquals(400.0, Bisection.of(two).gbps(), EPS);
    }

    /** A single switch never limits: B = 16 NICs x 50 GB/s = 800 GB/s; one host has no bisection. */
    @Test
    void singleSwitchAndSingleHost() {
        assertEquals(800.0, Bisection.of(cluster(4, FabricKind.SINGLE_SWITCH, 1.0, 32, 1)).gbps(), EPS);
        assertEquals(0.0, Bisection.of(cluster(1, FabricKind.SINGLE_SWITCH, 1.0, 32, 1)).gbps(), EPS);
    }

    /** Two planes: even rails on p0, odd rails on p1; rail 1 of host 0 and rail 0 of host 1 cannot meet. */
    @Test
    void planesSplitRails() {
        Topology t = cluster(2, FabricKind.RAIL_OPTIMIZED, 1.0, 32, 2);
        assertTrue(t.device("p0/leaf0").isPresent());
        assertTrue(t.device("p1/leaf0").isPresent());
        PathFinder pf = PathFinder.of(t);
        assertEquals(PathType.DIS, pf.path("h0/nic1", "h1/nic0").type());
        assertEquals(PathType.NET, pf.path("h0/nic1", "h1/nic1").type());
    }

    /**
     * A GPU on one DGX H100 reaches a GPU on another through its own NIC: GPU-PCIe-NIC (4 hops, PXB), NIC-leaf-NIC
     * (2 hops), NIC-PCIe-GPU (4 hops); NCCL bottleneck Gen5 x16 = 48 GB/s, physical 400 Gb/s = 50 GB/s.
     */
    @Test
    void crossHostPathGoesThroughTheRailLeaf() {
        DevicePath p = PathFinder.of(cluster(4, FabricKind.RAIL_OPTIMIZED, 1.0, 32, 1)).path("h0/gpu3", "h2/gpu3");
        assertEquals(PathType.NET, p.type());
        assertEquals(10, p.hopCount());
        assertEquals(48.0, p.nccl().gbps(), EPS);
        assertEquals(50.0, p.physical().gbps(), EPS);
        assertEquals("leaf3", p.hops().get(4).to().id(), "NIC 3 of every host is on rail leaf 3");
    }

    /** Ratios parse as down:up (down / up) or as the bare ratio; up above down, 0 up and beyond 64 are refused. */
    @Test
    void ratioParsing() {
        assertEquals(2.0, FabricSpec.parseRatio("2:1"), EPS);
        assertEquals(1.5, FabricSpec.parseRatio("3:2"), EPS);
        assertEquals(2.0, FabricSpec.parseRatio("2"), EPS);
        assertEquals(1.5, FabricSpec.parseRatio("1.5"), EPS);
        for (String bad : new String[] {"1:2", "2:0", "0.5", "65", "65:1", "-2:-1", "2:1:1", "", "x"}) {
            assertThrows(IllegalArgumentException.class, () -> FabricSpec.parseRatio(bad), bad);
        }
        assertEquals(Bandwidth.ofGBps(50), Bandwidth.ofGbits(400));
    }
}
