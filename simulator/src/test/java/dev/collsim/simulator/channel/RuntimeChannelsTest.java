package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.TestClusters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** NCCL's runtime and per-call channel rules, each value worked from NCCL 2.30.7 source. */
class RuntimeChannelsTest {

    private static final TestClusters.Shape B200 = new TestClusters.Shape("B200", 100, 18, 2, 5, 8, 400, true);

    private static ChannelPlan plan(Topology t, Map<String, String> env) {
        return ChannelSearch.search(t, t.gpus(), NcclSettings.parse(env), NcclVersion.V2_30_7);
    }

    /**
     * NVLS channels are clamped by NCCL_MIN/MAX_CTAS (src/transport/nvls.cc: max(minCTAs, min(maxCTAs,
     * nvlsChannels))), not by NCCL_MAX_NCHANNELS: on one DGX H100 (sm90 default 16), NCCL_MAX_NCHANNELS=8 leaves 16
     * NVLS channels while it caps the ring/tree runtime channels at 8; NCCL_MAX_CTAS=8 caps both; NCCL_MIN_CTAS=20
     * raises the NVLS channels to 20.
     */
    @Test
    void nvlsChannelsFollowTheCtaLimitsOnly() {
        Topology t = TestClusters.cluster(TestClusters.DGX_H100, 1);
        ChannelPlan maxCh = plan(t, Map.of("NCCL_MAX_NCHANNELS", "8"));
        assertEquals(16, maxCh.nvlsChannels());
        assertEquals(8, maxCh.runtimeChannels());
        assertEquals(8, plan(t, Map.of("NCCL_MAX_CTAS", "8")).nvlsChannels());
        assertEquals(20, plan(t, Map.of("NCCL_MIN_CTAS", "20")).nvlsChannels());
    }

    /**
     * PAT's maxThreads is never set in NCCL 2.30.7 (src/graph/tuning.cc), so topoGetAlgoInfo's reduction loop
     * (while nBytes < nc x nt x threshold, src/enqueue.cc) never runs for it: a 1 KiB PAT call keeps comm.nChannels
     * (16 on two DGX H100, see ChannelSearchTest), where Ring/Simple at 1 KiB drops to 1 channel
     * (1024 < 2 x 512 threads x 64 B).
     */
    @Test
    void patIsNeverReducedPerCall() {
        ChannelPlan p = plan(TestClusters.cluster(TestClusters.DGX_H100, 2), Map.of());
        assertEquals(16, RuntimeChannels.perCall(Algorithm.PAT, Protocol.SIMPLE, 1024, p, NcclSettings.DEFAULTS));
        assertEquals(1, RuntimeChannels.perCall(Algorithm.RING, Protocol.SIMPLE, 1024, p, NcclSettings.DEFAULTS));
    }

    /**
     * sm100 NVLS channels default to 32 on several nodes; on 3 or more sm100 nodes whose GPUs reach their NICs at 48
     * to 96 GB/s (DGX B200: 400 Gb/s ports behind PCIe Gen5 x16, NCCL's 48 GB/s) NCCL 2.30.7 tunes them to 24
     * (ncclNvlsTreeSm100Tuning, src/transport/nvls.cc), and ncclNvlsTuning stores that as comm.nvlsChannels, which
     * NVLS uses too; an explicit NCCL_NVLS_NCHANNELS is kept as set.
     */
    @Test
    void sm100NvlsTreeOnThreeNodesUses24Channels() {
        ChannelPlan three = plan(TestClusters.cluster(B200, 3), Map.of());
        assertEquals(24, three.nvlsChannels());
        assertEquals(24, RuntimeChannels.perCall(Algorithm.NVLS_TREE, Protocol.SIMPLE, 1L << 30, three,
                NcclSettings.DEFAULTS));
        ChannelPlan two = plan(TestClusters.cluster(B200, 2), Map.of());
        assertEquals(32, RuntimeChannels.perCall(Algorithm.NVLS_TREE, Protocol.SIMPLE, 1L << 30, two,
                NcclSettings.DEFAULTS));
        NcclSettings set = NcclSettings.parse(Map.of("NCCL_NVLS_NCHANNELS", "32"));
        assertEquals(32, RuntimeChannels.perCall(Algorithm.NVLS_TREE, Protocol.SIMPLE, 1L << 30,
                plan(TestClusters.cluster(B200, 3), Map.of("NCCL_NVLS_NCHANNELS", "32")), set));
    }
}
