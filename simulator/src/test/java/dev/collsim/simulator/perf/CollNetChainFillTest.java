package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.TreeChunk;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Hand-worked chunks and fill of {@link CollNetChainFill}. NCCL 2.8.4: {@code src/enqueue.cc} line 305 (CollNet
 * divides by {@code comm->nChannels / 2}), lines 393-395 (the halving against {@code collTree.depth} x 16, x 4, x 1,
 * floors 131072, 65536, 32768), {@code src/graph/connect.cc} line 172 (depth = nRanks / nNodes); NCCL 2.28.9
 * {@code src/enqueue.cc} lines 2037-2040 (from min(256 KiB, step), x 64, x 8, x 1). Step = 4 MiB / 8 = 524288 B.
 */
class CollNetChainFillTest {

    /**
     * 2 x 8 ABCI A100 under 2.8: 8 runtime channels, so 4 logical ones; depth 8. 1 MiB: 1048576 / (4 x 524288) = 0
     * &lt; 128 -&gt; 262144 (1) -&gt; 131072 (floor); 2 &lt; 32 -&gt; 65536 (floor); 4 &lt; 8 -&gt; 32768. 2 MiB: 131072,
     * then 4 &lt; 32 -&gt; 65536; 8 &lt; 8 is false: 65536. 16 MiB: 8 &lt; 128 -&gt; 262144 (16) -&gt; 131072; 32 &lt; 32 is
     * false: 131072. 256 MiB: 128 &lt; 128 is false: 524288.
     */
    @Test
    void ncclTwoEightHalvesOverHalfTheChannels() {
        Topology a = ClusterLoader.load("abci-node-ax2");
        ChannelPlan plan = ChannelSearch.search(a, a.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_8_4);
        assertEquals(8, plan.runtimeChannels());
        NcclSettings s = NcclSettings.DEFAULTS;
        assertEquals(32768, CollNetChainFill.chunk(plan, s, 1L << 20, 3, 8));
        assertEquals(65536, CollNetChainFill.chunk(plan, s, 2L << 20, 8, 8));
        assertEquals(131072, CollNetChainFill.chunk(plan, s, 16L << 20, 8, 8));
        assertEquals(524288, CollNetChainFill.chunk(plan, s, 256L << 20, 8, 8));
    }

    /**
     * The 2.14-2.28 rule, 8 channels, depth 8, from 262144: 4 MiB: 4194304 / (8 x 262144) = 2 &lt; 512 -&gt; 131072
     * (floor); 4 &lt; 64 -&gt; 65536 (floor); 8 &lt; 8 is false: 65536. 64 MiB: 32 &lt; 512 -&gt; 131072; 64 &lt; 64 is
     * false: 131072. 1 GiB: 512 &lt; 512 is false: 262144.
     */
    @Test
    void laterReleasesStartFromAQuarterMebibyte() {
        assertEquals(65536, TreeChunk.collNetChain(28, 524288, 4L << 20, 8, 8));
        assertEquals(131072, TreeChunk.collNetChain(28, 524288, 64L << 20, 8, 8));
        assertEquals(262144, TreeChunk.collNetChain(28, 524288, 1L << 30, 8, 8));
    }

    @Test
    void appliesToTheChainBetweenNodesOnly() {
        Topology two = ClusterLoader.load("abci-node-ax2");
        ChannelPlan p2 = ChannelSearch.search(two, two.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_8_4);
        assertTrue(CollNetChainFill.applies(Collective.ALL_REDUCE, Algorithm.COLLNET_CHAIN, Protocol.SIMPLE, p2));
        assertFalse(CollNetChainFill.applies(Collective.ALL_REDUCE, Algorithm.COLLNET_DIRECT, Protocol.SIMPLE, p2));
        assertFalse(CollNetChainFill.applies(Collective.ALL_REDUCE, Algorithm.TREE, Protocol.SIMPLE, p2));
        Topology one = ClusterLoader.load("abci-node-a");
        ChannelPlan p1 = ChannelSearch.search(one, one.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_8_4);
        assertFalse(CollNetChainFill.applies(Collective.ALL_REDUCE, Algorithm.COLLNET_CHAIN, Protocol.SIMPLE, p1));
    }

    /**
     * 2 x 8 ABCI A100, NCCL 2.8 CollNet (the chain) at 32 and 64 MiB: both 131072-byte chunks (32 MiB / (4 x 131072)
     * = 64, 64 MiB: 128, above depth x 4 = 32) and every channel busy, so 2 t(32 MiB) - t(64 MiB) is what does not
     * grow with size: the launch (1.5 us), NCCL's latency and the fill. The fill's intra-node part alone is 2 x 7
     * NVLink hops of a whole chunk at no more than the per-channel cap of Simple on Ampere (24 GB/s, NCCL 2.30.7
     * {@code tuning.cc} Tree cap; on several nodes raised only to NCCL's busBw over 8 channels, 2.8's CollNet entry
     * 4 x 48 x 0.9 = 172.8 / 8 = 21.6, below it): 14 x 131072 / 24000 = 76.46 us.
     */
    @Test
    void theChainsHopsAreCharged() throws Exception {
        double intercept = 2 * collNet(32L << 20).timeUs() - collNet(64L << 20).timeUs();
        assertTrue(intercept >= 1.5 + 14 * 131072 / 24000.0, "intercept " + intercept);
    }

    private static Prediction collNet(long bytes) throws Exception {
        Topology t = ClusterLoader.load("abci-node-ax2");
        Prediction p = new NcclPredictor(NcclVersion.V2_8_4, PerformanceParameters.DEFAULTS).predict(
                new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, bytes, DataType.FLOAT, RedOp.SUM,
                        NcclSettings.parse(Map.of("NCCL_COLLNET_ENABLE", "1", "NCCL_ALGO", "CollNetChain"))));
        assertEquals(Algorithm.COLLNET_CHAIN, p.algorithm(), p.toString());
        return p;
    }
}
