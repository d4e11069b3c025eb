package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.ShmLinkShare;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.yaml.YamlClusterReader;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Each GPU's SHM directions from the ring's GPU orders, by hand, on the Azure NC A100 v4 host (configs/
 * azure-nc96ads-a100-v4.yaml: A100 PCIe pairs 0-1 and 2-3 on NVLink bridges, each GPU on its own AMD NUMA node, SYS
 * between the pairs). Over SHM the sender stores into host memory (its PCIe link upstream) and the receiver loads
 * from it (downstream; NCCL 2.30.7 {@code src/transport/shm.cc}); a ring rank sends to the next GPU of its channel's
 * order and receives from the previous one ({@code src/graph/connect.cc} ring.next / ring.prev).
 */
class RingShmDirectionsTest {

    private static final String YAML = "schema: collsim/v1\nname: t\nhosts:\n  name: h\n"
            + "  gpus: {count: 4, model: A100-PCIE-80GB, sm: 80, memory: 80 GB}\n"
            + "  cpus: {count: 4, vendor: AuthenticAMD, model: EPYC 7V13, interconnect: 64 GB/s}\n"
            + "  nvlink:\n    generation: NVLink3\n    bandwidthPerLink: 25 GB/s\n    pairs:\n"
            + "      - {gpus: [0, 1], links: 12}\n      - {gpus: [2, 3], links: 12}\n"
            + "  pcie:\n    gen: 4\n    rootPorts:\n      - {cpu: 0, gpus: [0]}\n      - {cpu: 1, gpus: [1]}\n"
            + "      - {cpu: 2, gpus: [2]}\n      - {cpu: 3, gpus: [3]}\ncount: 1\n";
    private static final int[] FORWARD = {0, 1, 2, 3};
    private static final int[] BACKWARD = {0, 3, 2, 1};

    private static Topology host() throws Exception {
        return new YamlClusterReader().readCluster("t.yaml", YAML).topology();
    }

    private static boolean oneWay(Map<String, String> env, List<int[]> orders) throws Exception {
        Topology t = host();
        NcclSettings s = NcclSettings.parse(env);
        return RingShmDirections.oneWay(new HostModel(t, Set.of(0), t.gpus(), s, 30), orders, s);
    }

    /**
     * P2P over the bridges only (NCCL_P2P_LEVEL=NVL): the hops 1 -> 2 and 3 -> 0 of 0-1-2-3 are SHM (SYS), 0 -> 1 and
     * 2 -> 3 P2P over NVLink. One order on both channels: GPU 1 and 3 only store, GPU 2 and 0 only load: one way. The
     * orders 0-1-2-3 and 0-3-2-1 (Azure's graph file for this VM, NCCL 2.16-2.18's search): the second sends 2 -> 1
     * and 0 -> 3 over SHM, so GPU 1 stores (1 -> 2) and loads (2 -> 1): both ways. NCCL's default level on this host
     * of 4 GPUs from 2.23 (PXB: {@code src/graph/paths.cc ncclTopoCheckP2p}) splits the hops the same way.
     */
    @Test
    void nvlinkPairsJoinedThroughTheCpuAreOneWayOnOneOrderAndBothWaysOnOpposite() throws Exception {
        Map<String, String> nvl = Map.of("NCCL_P2P_LEVEL", "NVL");
        assertTrue(oneWay(nvl, List.of(FORWARD, FORWARD)));
        assertFalse(oneWay(nvl, List.of(FORWARD, BACKWARD)));
        assertTrue(oneWay(Map.of(), List.of(FORWARD)), "default level PXB: the same hops are SHM");
    }

    /**
     * P2P at SYS (NCCL before 2.23 on AMD): no hop is SHM, so no SHM direction at all (false). P2P off everywhere
     * (NCCL_P2P_DISABLE=1): the NVLink pairs go through the CPU too ({@code addInterStep}), every hop is SHM and
     * every GPU stores and loads: both ways, as on a ring of GPUs each on its own CPU node.
     */
    @Test
    void noShmHopOrEveryHopShmIsNotOneWay() throws Exception {
        assertFalse(oneWay(Map.of("NCCL_P2P_LEVEL", "SYS"), List.of(FORWARD)));
        assertFalse(oneWay(Map.of("NCCL_P2P_DISABLE", "1"), List.of(FORWARD)));
    }

    /**
     * The plan's share of the link: NCCL 2.30.7's search on this AMD host keeps one order on every channel
     * (SameChannelsSplitNvLinkTest: 4 x 4 GB/s, sameChannels), so a Ring/Simple AllGather moves the whole link one
     * way, share 1 (x NCCL's 24 GB/s x 0.98 = 23.52 GB/s busbw; measured 25.86 at 32 MiB,
     * validation A-allgather-1x4xA100pcie-azure-ncv4-single-size.txt line 21); LL128 reads each line twice on the
     * receiver's link, 1/2. The 2.18 entry mixes orders (0-1-2-3, 1-0-3-2, ...; SameChannelsSplitNvLinkTest): both
     * ways, the duplex share 0.666 (ShmLinkShare.DUPLEX_SHARE).
     */
    @Test
    void thePlanTakesTheShareFromItsOrders() throws Exception {
        Topology t = host();
        NcclSettings nvl = NcclSettings.parse(Map.of("NCCL_P2P_LEVEL", "NVL"));
        ChannelPlan one = ChannelSearch.search(t, t.gpus(), nvl, NcclVersion.V2_30_7);
        assertTrue(one.ringShmOneWay());
        assertEquals(1.0, ShmLinkShare.factor(one, nvl, Collective.ALL_GATHER, Algorithm.RING, Protocol.SIMPLE,
                false), 1e-12);
        assertEquals(0.5, ShmLinkShare.factor(one, nvl, Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128,
                false), 1e-12);
        ChannelPlan mixed = ChannelSearch.search(t, t.gpus(), nvl, NcclVersion.V2_18_5);
        assertFalse(mixed.ringShmOneWay());
        assertEquals(0.666, ShmLinkShare.factor(mixed, nvl, Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE,
                false), 1e-12);
    }
}
