package dev.collsim.simulator.bound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The NIC-sharing floor and the per-node NIC arithmetic, worked by hand. */
class HostNicShareTest {

    /**
     * 2 DGX H100 (catalog): 8 compute NICs of 400 Gb/s = 50 GB/s cabled per host, H = 400 GB/s (4 storage NICs are not
     * cabled). AllReduce of S = 1 GiB over all n = 16 GPUs on k = 2 hosts, 2 groups sharing each host's NICs: as a
     * Ring each host sends 2 (n-1)/n S = 2 x 15/16 x 1073741824 B, so 2 x 2013265920 / (400e9 B/s) = 10,066.33 us;
     * for any algorithm at least 2 (k-1)/k S = S: 2 x 1073741824 / 400e9 s = 5,368.71 us.
     */
    @Test
    void sharedFloorOnTwoDgxH100() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x2");
        assertEquals(400.0, HostNicShare.hostNicGBps(t, 0), 1e-9);
        assertEquals(10_066.32960, HostNicShare.boundUs(t, t.gpus(), Collective.ALL_REDUCE, 1L << 30, 2, true),
                1e-4);
        assertEquals(5_368.70912, HostNicShare.boundUs(t, t.gpus(), Collective.ALL_REDUCE, 1L << 30, 2, false),
                1e-4);
    }

    /**
     * GB200 NVL72 (configs/gb200-nvl72.yaml): 18 trays of 4 GPUs on one NVLink domain, which NCCL treats as one
     * node, so a group over GPUs of two trays never sends through a NIC: no floor (the bound counted trays as hosts
     * before and put a NIC floor under NVLink traffic).
     */
    @Test
    void oneNvlinkDomainIsOneNode() throws Exception {
        Topology t = ClusterLoader.load("gb200-nvl72");
        List<Gpu> twoTrays = List.of(t.gpusOf(0).get(0), t.gpusOf(1).get(0));
        assertEquals(0.0, HostNicShare.boundUs(t, twoTrays, Collective.ALL_REDUCE, 1L << 30, 4, true), 0.0);
    }

    /**
     * At H = 400 GB/s per node: a Ring AllReduce or AllGather leaves busbw <= H = 400 (nccl-tests
     * doc/PERFORMANCE.md); AllToAll on n = 32, g = 8 per node: H (n-1)/(g (n-g)) = 400 x 31 / 192 = 64.583; Gather on
     * n = 16, g = 8: the root's node receives (n-g)/n S, busbw <= H (n-1)/(n-g) = 400 x 15/8 = 750.
     */
    @Test
    void nicBusBwByCollective() {
        assertEquals(400.0, PhysicalBound.nicBusBw(Collective.ALL_REDUCE, true, 32, 4, 8, 400), 1e-9);
        assertEquals(400.0, PhysicalBound.nicBusBw(Collective.ALL_GATHER, true, 32, 4, 8, 400), 1e-9);
        assertEquals(400.0 * 31 / 192, PhysicalBound.nicBusBw(Collective.ALL_TO_ALL, true, 32, 4, 8, 400), 1e-9);
        assertEquals(750.0, PhysicalBound.nicBusBw(Collective.GATHER, true, 16, 2, 8, 400), 1e-9);
    }
}
