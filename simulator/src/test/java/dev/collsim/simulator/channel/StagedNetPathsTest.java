package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The network bandwidth a node's GPUs feed when their NIC paths cross the CPU, with the NICs NCCL 2.30.7 gives each
 * GPU ({@code src/graph/topo.cc ncclTopoGetLocalNetType}, {@code src/graph/topo.h mirrorBits}). PCIe Gen4 x16: 16 GT/s
 * x 16 lanes x 128/130 / 8 = 31.5077 GB/s per direction (hardware.PcieGen).
 */
class StagedNetPathsTest {

    private static final double EPS = 1e-3;

    private static Topology p5(int hosts) {
        return Catalog.standalone(Catalog.hostType("p5.48xlarge").orElseThrow(), hosts);
    }

    private static double nodeNetBw(Topology t, Map<String, String> env) {
        return ChannelSearch.search(t, t.gpus(), NcclSettings.parse(env), NcclVersion.DEFAULT).nodeNetBw();
    }

    /**
     * AWS p5 (catalog: one NCCL device of 4 EFA rails behind each GPU's PCIe switch, topology.catalog.OfiRailGroups;
     * GPU i's device is rail i, GPUs 0-3 on CPU 0). Over sockets every GPU-NIC path goes through the CPU, so the 4
     * devices of a GPU's CPU are its local NICs (PHB, same bandwidth), each local to that CPU's 4 GPUs: each GPU uses
     * ceil(4 / 4) = 1 device from dev % 4 mirrored within 4 (mirrorBits(1, 4) = 2, mirrorBits(2, 4) = 1). GPU 0:
     * device 0 (its own switch); GPU 1: device 2 (GPU 2's switch); GPU 2: device 1; GPU 3: device 3; GPU 5 (dev 5 % 4 =
     * 1): index 2 of CPU 1's list, device 6.
     */
    @Test
    void p5SocketGpusSpreadOverTheirCpusPorts() {
        Topology t = p5(2).withNetworkClass(NetworkClass.SOCKET);
        HostModel h = new HostModel(t, Set.of(0), t.gpusOf(0), NcclSettings.DEFAULTS, 30);
        assertEquals(4, h.localNics(0).length);
        assertEquals(2, LocalNet.mirrorBits(1, 4));
        assertArrayEquals(new int[] {0}, StagedNetPaths.gpuNets(h, 0));
        assertArrayEquals(new int[] {2}, StagedNetPaths.gpuNets(h, 1));
        assertArrayEquals(new int[] {1}, StagedNetPaths.gpuNets(h, 2));
        assertArrayEquals(new int[] {3}, StagedNetPaths.gpuNets(h, 3));
        assertArrayEquals(new int[] {6}, StagedNetPaths.gpuNets(h, 5));
    }

    /**
     * p5 over sockets: each switch uplink ends on an EPYC 7R13 (Milan) root port, PCIe Gen4 (AMD EPYC 7003 product
     * pages), so it runs at Gen4 x16, 31.5077 GB/s, although the H100 and the switch are Gen5. Per direction it carries
     * one send or receive of its own GPU and one of the GPU using its ports (GPU 1's traffic to ports 8-11 crosses GPU
     * 2's uplink down and up): 2 traversals, 15.7538 GB/s per GPU, below its device's 4 x 12.5 = 50 GB/s; 8 x 15.7538
     * = 126.031 GB/s per node (252.062 when the uplinks were taken at the GPU's Gen5). With EFA's GPU Direct RDMA (the
     * default) no path crosses the CPU: the 8 devices' 400 GB/s. NCCL_NET_GDR_LEVEL=LOC on EFA is the same staging as
     * sockets: 126.03.
     */
    @Test
    void p5StagedThroughTheCpuIsLimitedByTheSwitchUplinks() {
        assertEquals(126.031, nodeNetBw(p5(2).withNetworkClass(NetworkClass.SOCKET), Map.of()), EPS);
        assertEquals(400.0, nodeNetBw(p5(2), Map.of()), EPS);
        assertEquals(126.031, nodeNetBw(p5(2), Map.of("NCCL_NET_GDR_LEVEL", "LOC")), EPS);
    }
}
