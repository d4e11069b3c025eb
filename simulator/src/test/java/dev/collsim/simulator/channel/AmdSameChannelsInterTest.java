package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL's AMD rule on several nodes: with an x86 AMD CPU and typeIntra SYS, {@code ncclTopoCompute} skips "Try having
 * different channels" (NCCL 2.30.7 {@code src/graph/search.cc} lines 1203-1206, no node-count condition; since
 * v2.19.3-1 lines 939-944), so every channel after the first replays its GPU order ({@code ncclTopoSearchRecNet}
 * lines 775-780). Worked out by hand on the host of NVIDIA/nccl#2441 (test resource
 * {@code issue2441-epyc9534-2xh100nvl-layout.xml}: GPU 0 on CPU node 1, the 200 Gb/s NIC on node 0, GPU 1 on node 7,
 * no NVLink), two of them, with NCCL 2.30.7's figures ({@code src/graph/topo.h}: AMD_BW 16 GB/s per direction between
 * every two CPU nodes; PCIe Gen5 x16 240 x 16 / 80 = 48, Gen4 x16 24; NIC 200 Gb/s = 25 GB/s; sm90 inter speeds
 * ..., 17.5, 15, 12, 6, ...):
 * <ul>
 *   <li>A ring channel NIC -> GPU a -> GPU b -> NIC crosses three CPU-CPU links once each, one per direction pair
 *       (order 0,1: 0->1, 1->7, 7->0); its reverse order crosses the other three. The search starts at 15 (the first
 *       speed at most the 16 of the SYS paths).</li>
 *   <li>NCCL 2.30.7: a replay of order 0,1 needs 2 x 15 = 30 on each of its links (16): 1 channel; at 12, 2 x 12 =
 *       24 &gt; 16 again: 1 x 12, not better; 6 / 15 = 0.4 &lt; 0.49 ends pass 1. No duplication (15 &lt; 25); pass 2
 *       cannot reach 17.5 (&gt; 16). Ring 1 x 15.</li>
 *   <li>NCCL 2.18.5 (no AMD rule): at 15 the reverse order fits on the other three links but the NIC would carry
 *       2 x 15 = 30 &gt; 25; at 12 two orders carry 2 x 12 = 24 &lt;= 25 on the NIC and 24 on its Gen4 x16 link:
 *       2 x 12 = 24 beats 1 x 15; at 6, 4 x 6 = 24 is not better. Ring 2 x 12.</li>
 * </ul>
 */
class AmdSameChannelsInterTest {

    private static final double EPS = 1e-9;

    private static GraphSummary ring(NcclVersion v) throws Exception {
        Path xml = Path.of("src/test/resources/dev/collsim/simulator/channel/issue2441-epyc9534-2xh100nvl-layout.xml");
        Topology t = ClusterLoader.load(xml + ":2");
        return ChannelSearch.search(t, t.gpus(), NcclSettings.parse(Map.of()), v).graphs().ring();
    }

    @Test
    void nccl230KeepsOneGpuOrderThroughTheCpuLinks() throws Exception {
        GraphSummary r = ring(NcclVersion.V2_30_7);
        assertEquals(1, r.nChannels());
        assertEquals(15.0, r.bwIntra(), EPS);
        assertEquals(15.0, r.bwInter(), EPS);
    }

    @Test
    void nccl218MixesTheTwoOrders() throws Exception {
        GraphSummary r = ring(NcclVersion.V2_18_5);
        assertEquals(2, r.nChannels());
        assertEquals(12.0, r.bwIntra(), EPS);
    }
}
