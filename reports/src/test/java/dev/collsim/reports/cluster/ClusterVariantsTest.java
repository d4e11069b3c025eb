package dev.collsim.reports.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.reports.spec.ClusterEdits;
import dev.collsim.simulator.bound.HostNicShare;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.units.Bandwidth;
import org.junit.jupiter.api.Test;

/**
 * Variants of 4 catalog DGX H100 hosts (8 compute NICs of 400 Gb/s = 50 GB/s each, 18 NVLink4 links of 25 GB/s =
 * 450 GB/s per GPU; DGX H100 User Guide) on a rail-optimized fabric.
 */
class ClusterVariantsTest {

    private static final ClusterSpec BASE = new ClusterSpec("b", "", Catalog.hostType("dgx-h100").orElseThrow(), 4,
            FabricSpec.of(FabricKind.RAIL_OPTIMIZED));

    private static ClusterEdits edits(Integer hosts, Bandwidth nic, Integer nics, String fabric, Double over,
            Double nvlink, Integer radix) {
        return new ClusterEdits(hosts, null, nic, nics, fabric, over, nvlink, radix);
    }

    @Test
    void baseIsUnchanged() {
        Topology t = ClusterVariants.build(BASE, ClusterEdits.NONE);
        assertEquals(32, t.gpus().size());
        assertEquals(400, HostNicShare.hostNicGBps(t, 0), 1e-9, "8 x 50 GB/s cabled");
        assertEquals(450, nvlinkOfGpu0(t), 1e-9);
    }

    /** 200 Gb/s NICs: 8 x 25 = 200 GB/s per host, and the NIC-leaf cables follow (25 GB/s). */
    @Test
    void nicSpeedAndRails() {
        Topology slow = ClusterVariants.build(BASE, edits(null, Bandwidth.ofGbits(200), null, null, null, null, null));
        assertEquals(200, HostNicShare.hostNicGBps(slow, 0), 1e-9);
        assertTrue(slow.graph().edgeSet().stream().filter(l -> l.type() == LinkType.NET
                && slow.source(l) instanceof Nic n && n.rail() >= 0).allMatch(l -> l.bandwidth().gbps() == 25));
        Topology two = ClusterVariants.build(BASE, edits(null, null, 2, null, null, null, null));
        assertEquals(100, HostNicShare.hostNicGBps(two, 0), 1e-9, "2 rails x 50 GB/s");
        assertThrows(IllegalArgumentException.class,
                () -> ClusterVariants.build(BASE, edits(null, null, 9, null, null, null, null)));
    }

    /** 2:1 fat-tree with 8 host ports per leaf: 32 NICs fill 4 leaves, each with down:up = 2. */
    @Test
    void oversubscribedFatTree() {
        Topology t = ClusterVariants.build(BASE, edits(null, null, null, "fat-tree", 2.0, null, 8));
        long leaves = t.devices(NetSwitch.class).stream().filter(s -> s.tier() == NetSwitch.Tier.LEAF).count();
        assertEquals(4, leaves);
        assertEquals(2.0, HostNicShare.leafOversubscription(t, 0), 1e-9);
    }

    /** NVLink what-if: 300 GB/s per GPU (an NVLink3-like A100 figure) scales every NVLink of the host. */
    @Test
    void nvlinkBandwidthAndHostCount() {
        Topology t = ClusterVariants.build(BASE, edits(2, null, null, null, null, 300.0, null));
        assertEquals(16, t.gpus().size());
        assertEquals(300, nvlinkOfGpu0(t), 1e-6);
    }

    private static double nvlinkOfGpu0(Topology t) {
        return t.outgoing(t.gpus().get(0)).stream().filter(l -> l.type() == LinkType.NVLINK)
                .mapToDouble(l -> l.bandwidth().gbps()).sum();
    }
}
