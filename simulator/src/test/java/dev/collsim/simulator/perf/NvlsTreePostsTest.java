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

/**
 * The NVLSTree sends beyond NCCL's 16-channel latency figure ({@link NvlsTreePosts}), worked out by hand from NCCL's
 * source: NVLS channels from {@code src/transport/nvls.cc} (v2.26.2-1 lines 144-145, 176: 16 on sm90, 32 on sm100),
 * 3 us per Simple post on Intel hosts ({@code src/graph/tuning.cc getNetOverhead} 1 us x 3), the trees' depth from
 * {@code src/graph/trees.cc ncclGetBtree}.
 */
class NvlsTreePostsTest {

    private static ChannelPlan plan(String cluster, NcclVersion v) throws Exception {
        Topology t = ClusterLoader.load(cluster);
        return ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, v);
    }

    private static double extra(ChannelPlan plan) {
        return NvlsTreePosts.extraUs(plan, Collective.ALL_REDUCE, Algorithm.NVLS_TREE, Protocol.SIMPLE,
                plan.nvlsChannels());
    }

    /**
     * 2 x 8 B200 (2 Xeon 8570 per host) under NCCL 2.26 (entry 2.25.1): 32 NVLS channels; on 2 nodes one tree hop
     * up and one down, each rank sending on half the channels per hop: 2 x (32 - 16) / 2 x 3 us = 48 us.
     */
    @Test
    void twoB200HostsPostSixteenMoreSends() throws Exception {
        ChannelPlan p = plan("hgx-b200x2", NcclVersion.V2_25_1);
        assertEquals(32, p.nvlsChannels());
        assertEquals(48.0, extra(p), 1e-9);
    }

    /** 2 x 8 H100 (16 NVLS channels, the count NCCL's figure stands for): nothing added, on 2.26 as on 2.30.7. */
    @Test
    void sixteenChannelsAddNothing() throws Exception {
        for (NcclVersion v : new NcclVersion[] {NcclVersion.V2_25_1, NcclVersion.V2_30_7}) {
            ChannelPlan p = plan("dgx-h100x2", v);
            assertEquals(16, p.nvlsChannels());
            assertEquals(0.0, extra(p), 0.0);
        }
    }

    /**
     * 4 x 8 B200 under NCCL 2.26: 32 channels; ncclGetBtree over 4 nodes is 0 -> 2 -> {1, 3}, depth 2, so 4 hops,
     * each rank sending on 3/4 of the channels per hop on average: 4 x 3/4 x 16 x 3 us = 144 us. Only NVLSTree
     * AllReduce Simple between nodes pays.
     */
    @Test
    void fourB200HostsPayFourHops() throws Exception {
        ChannelPlan p = plan("hgx-b200x4", NcclVersion.V2_25_1);
        assertEquals(32, p.nvlsChannels());
        assertEquals(144.0, extra(p), 1e-9);
        assertEquals(0.0, NvlsTreePosts.extraUs(p, Collective.ALL_REDUCE, Algorithm.TREE, Protocol.SIMPLE, 32), 0.0);
        assertEquals(0.0, NvlsTreePosts.extraUs(plan("hgx-b200", NcclVersion.V2_25_1), Collective.ALL_REDUCE,
                Algorithm.NVLS_TREE, Protocol.SIMPLE, 32), 0.0);
    }
}
