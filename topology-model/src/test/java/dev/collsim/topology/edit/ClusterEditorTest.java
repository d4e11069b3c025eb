package dev.collsim.topology.edit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Device;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NicVendor;
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
class ClusterEditorTest {

    private static final ClusterSpec BASE = new ClusterSpec("b", "", Catalog.hostType("dgx-h100").orElseThrow(), 4,
            FabricSpec.of(FabricKind.RAIL_OPTIMIZED));

    private static ClusterEdits edits(Integer hosts, Bandwidth nic, Integer nics, FabricKind fabric, Double over,
            Double nvlink, Integer radix) {
        return new ClusterEdits(hosts, null, nic, nics, fabric, over, nvlink, radix);
    }

    /** A cloud host keeps its provider's NIC vendor (NCCL's socket defaults) through device edits. */
    @Test
    void editedCloudHostsKeepTheirNicVendor() {
        ClusterSpec p5 = new ClusterSpec("p", "", Catalog.hostType("p5.48xlarge").orElseThrow(), 2,
                FabricSpec.of(FabricKind.RAIL_OPTIMIZED));
        assertEquals(NicVendor.AWS, ClusterEditor.build(p5, ClusterEdits.NONE).nicVendor());
        assertEquals(NicVendor.AWS, ClusterEditor.build(p5, edits(null, Bandwidth.ofGbits(200), null, null, null,
                null, null)).nicVendor());
        assertEquals(NicVendor.OTHER, ClusterEditor.build(BASE, edits(null, Bandwidth.ofGbits(200), null, null, null,
                null, null)).nicVendor());
    }

    @Test
    void baseIsUnchanged() {
        Topology t = ClusterEditor.build(BASE, ClusterEdits.NONE);
        assertEquals(32, t.gpus().size());
        assertEquals(400, cabledNicGBps(t, 0), 1e-9, "8 x 50 GB/s cabled");
        assertEquals(450, nvlinkOfGpu0(t), 1e-9);
    }

    /** 200 Gb/s NICs: 8 x 25 = 200 GB/s per host, and the NIC-leaf cables follow (25 GB/s). */
    @Test
    void nicSpeedAndRails() {
        Topology slow = ClusterEditor.build(BASE, edits(null, Bandwidth.ofGbits(200), null, null, null, null, null));
        assertEquals(200, cabledNicGBps(slow, 0), 1e-9);
        assertTrue(slow.graph().edgeSet().stream().filter(l -> l.type() == LinkType.NET
                && slow.source(l) instanceof Nic n && n.rail() >= 0).allMatch(l -> l.bandwidth().gbps() == 25));
        Topology two = ClusterEditor.build(BASE, edits(null, null, 2, null, null, null, null));
        assertEquals(100, cabledNicGBps(two, 0), 1e-9, "2 rails x 50 GB/s");
        ClusterEditException nine = assertThrows(ClusterEditException.class,
                () -> ClusterEditor.build(BASE, edits(null, null, 9, null, null, null, null)));
        assertEquals(ClusterEdits.Field.NICS_PER_HOST, nine.field());
        assertEquals("found 9, more than the 8 compute NICs a dgx-h100 host has; allowed: 1 to 8", nine.detail());
    }

    /** 2:1 fat-tree with 8 host ports per leaf: 32 NICs fill 4 leaves, each with down:up = 2. */
    @Test
    void oversubscribedFatTree() {
        Topology t = ClusterEditor.build(BASE, edits(null, null, null, FabricKind.FAT_TREE, 2.0, null, 8));
        long leaves = t.devices(NetSwitch.class).stream().filter(s -> s.tier() == NetSwitch.Tier.LEAF).count();
        assertEquals(4, leaves);
        assertEquals(2.0, downOverUp(t, "leaf0"), 1e-9);
    }

    /** NVLink what-if: 300 GB/s per GPU (an NVLink3-like A100 figure) scales every NVLink of the host. */
    @Test
    void nvlinkBandwidthAndHostCount() {
        Topology t = ClusterEditor.build(BASE, edits(2, null, null, null, null, 300.0, null));
        assertEquals(16, t.gpus().size());
        assertEquals(300, nvlinkOfGpu0(t), 1e-6);
    }

    /** @return the summed speed of the host's NICs that have a network cable, GB/s */
    private static double cabledNicGBps(Topology t, int host) {
        return t.devices(Nic.class).stream().filter(n -> n.host() == host)
                .filter(n -> t.outgoing(n).stream().anyMatch(l -> l.type() == LinkType.NET))
                .mapToDouble(n -> n.speed().gbps()).sum();
    }

    /** @return a leaf's bandwidth towards hosts over its bandwidth towards spines */
    private static double downOverUp(Topology t, String leafId) {
        NetSwitch leaf = t.devices(NetSwitch.class).stream().filter(s -> s.id().equals(leafId)).findFirst()
                .orElseThrow();
        double down = 0;
        double up = 0;
        for (Link l : t.outgoing(leaf)) {
            Device to = t.target(l);
            if (to instanceof NetSwitch) {
                up += l.bandwidth().gbps();
            } else {
                down += l.bandwidth().gbps();
            }
        }
        return down / up;
    }

    private static double nvlinkOfGpu0(Topology t) {
        return t.outgoing(t.gpus().get(0)).stream().filter(l -> l.type() == LinkType.NVLINK)
                .mapToDouble(l -> l.bandwidth().gbps()).sum();
    }
}
