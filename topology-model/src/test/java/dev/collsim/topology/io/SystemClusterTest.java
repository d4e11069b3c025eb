package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import org.junit.jupiter.api.Test;

/** Cloud instance types as every {@code -c} and a YAML cluster name them: one host, N hosts, their transport. */
class SystemClusterTest {

    @Test
    void instanceTypesTakeAHostCount() throws Exception {
        ClusterSource s = ClusterLoader.resolve("p5.48xlargex4", HardwareHints.NONE, null);
        Topology t = s.topology();
        assertEquals(ClusterSource.Origin.HOSTS, s.origin());
        assertEquals("p5.48xlargex4", s.spec().name());
        assertEquals(4, t.hostCount());
        assertEquals(32, t.gpus().size());
        // EFA is p5's own transport (aws.amazon.com/ec2/instance-types/p5/), no --network needed
        assertSame(NetworkClass.EFA, t.networkClass());
        // a rail-optimized fabric: the 8 NCCL devices of every host (aws-ofi-nccl's 4 EFA rails each,
        // catalog.OfiRailGroups) on their own rail, each NIC cabled to a leaf
        assertEquals(4 * 8, t.devices(Nic.class).stream().filter(n -> n.rail() >= 0).count());
        assertEquals(2, ClusterLoader.resolve("BM.GPU.H100.8:2", HardwareHints.NONE, null).topology().hostCount());
        assertSame(NetworkClass.ROCE, ClusterLoader.load("bm.gpu.h100.8x2").networkClass());
        assertSame(NetworkClass.TCPXO, ClusterLoader.load("a3-megagpu-8g").networkClass());
    }

    /** An NVL72 tray counts racks, as {@code gb200-nvl72x1}: 18 trays of 4 GPUs. */
    @Test
    void aTrayInstanceCountsRacks() throws Exception {
        Topology t = ClusterLoader.load("a4x-highgpu-4gx1");
        assertEquals(18, t.hostCount());
        assertEquals(72, t.gpus().size());
    }

    @Test
    void aYamlClusterOfInstancesKeepsTheirTransportUnlessTheFabricNamesOne() throws Exception {
        String yaml = "schema: collsim/v1\nname: two\nhosts: p5.48xlarge\ncount: 2\nfabric:\n  kind: rail-optimized\n";
        assertSame(NetworkClass.EFA, ClusterLoader.read("c.yaml", yaml).networkClass());
        assertSame(NetworkClass.INFINIBAND, ClusterLoader.read("c.yaml", yaml + "  network: infiniband\n")
                .networkClass());
    }
}
