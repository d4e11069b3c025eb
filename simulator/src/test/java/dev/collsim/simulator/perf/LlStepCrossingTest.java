package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import org.junit.jupiter.api.Test;

/** An LL step's crossing of each network hop at {@link LlStepCrossing#LINE_GBPS} ({@link LlStepCrossing#extraUs}). */
class LlStepCrossingTest {

    private static ChannelPlan plan(String cluster) throws Exception {
        Topology t = ClusterLoader.load(cluster);
        return ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
    }

    /**
     * 2 DGX H100, 16 ranks. Tree/LL AllReduce of 8 KiB on 2 channels: 4096 data bytes per channel in one step, 8192
     * line bytes; 2 x log2(2) = 2 hops: 2 x 8192 / (1000 x 2.81) = 5.8306 us. Ring/LL AllReduce of 64 KiB on 2
     * channels: a ring step of 65536 / (2 x 16) = 2048 data bytes, 4096 line bytes, over 2 nNodes = 4 crossings (8
     * ranks per node): 4 x 4096 / 2810 = 5.8306 us. A Tree/LL AllGather has no tree (nothing to charge here), LL128 and
     * Simple keep their FIFO in GPU memory, one node has no network.
     */
    @Test
    void eachHopCarriesOneStepsLineBytes() throws Exception {
        ChannelPlan two = plan("dgx-h100x2");
        NcclSettings s = NcclSettings.DEFAULTS;
        assertEquals(2 * 8192 / 2810.0, LlStepCrossing.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.TREE,
                Protocol.LL, 8192, 2, 2), 1e-9);
        assertEquals(5.8306, LlStepCrossing.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL,
                65536, 2, 2), 1e-4);
        assertEquals(0, LlStepCrossing.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.TREE, Protocol.LL128,
                8192, 2, 2), 0);
        assertEquals(0, LlStepCrossing.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE,
                65536, 2, 2), 0);
        assertEquals(0, LlStepCrossing.extraUs(plan("dgx-h100"), s, Collective.ALL_REDUCE, Algorithm.RING,
                Protocol.LL, 65536, 2, 2), 0);
    }

    /**
     * A rooted Ring on one channel runs ahead into the next call (RingLoopFill#rootedRunsAhead): nothing charged. A
     * Ring AllGather of 16 KiB on 16 ranks, one channel (below 512 x 8 x 16 B): a step of 16384 / 16 = 1024 data
     * bytes, 2048 line bytes, over nNodes = 2 crossings: 2 x 2048 / 2810 = 1.4577 us.
     */
    @Test
    void rootedRingsThatRunAheadPayNothing() throws Exception {
        ChannelPlan two = plan("dgx-h100x2");
        NcclSettings s = NcclSettings.DEFAULTS;
        assertEquals(0, LlStepCrossing.extraUs(two, s, Collective.BROADCAST, Algorithm.RING, Protocol.LL, 16384, 1,
                1), 0);
        assertEquals(0, LlStepCrossing.extraUs(two, s, Collective.REDUCE, Algorithm.RING, Protocol.LL, 16384, 1, 1),
                0);
        assertEquals(1.4577, LlStepCrossing.extraUs(two, s, Collective.ALL_GATHER, Algorithm.RING, Protocol.LL,
                16384, 1, 1), 1e-4);
    }
}
