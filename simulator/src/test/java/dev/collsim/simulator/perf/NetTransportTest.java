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
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The network proxy's per-step cost and bytes in flight, with values worked by hand. */
class NetTransportTest {

    private static Prediction ring(long bytes, String buffSize) throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x2");
        Map<String, String> env = new HashMap<>(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"));
        if (buffSize != null) {
            env.put("NCCL_BUFFSIZE", buffSize);
        }
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, bytes,
                DataType.FLOAT, RedOp.SUM, NcclSettings.parse(env)));
    }

    /**
     * NVIDIA/nccl#2409: about 10-12 us fixed per network step on 400G RoCE, "a 128 KiB chunk gives 13 GB/s and
     * 1 MiB 88 GB/s". At the default 10 us: 131072 B / 10 us = 13.1072 GB/s; 1 MiB / 10 us = 104.8576 GB/s
     * (88 GB/s is 1 MiB / 11.9 us, inside the quoted 10-12 us). The default 4 MiB Simple buffer holds 4194304 B in
     * flight over 2 x 10 us (209.7 GB/s), so the step cost binds first.
     */
    @Test
    void connectionRateFollowsTheMeasuredStepCost() {
        PerformanceParameters pp = PerformanceParameters.DEFAULTS;
        assertEquals(13.1072, NetTransport.connectionGBps(131072, Protocol.SIMPLE, NcclSettings.DEFAULTS,
                pp.netStepUs()), 1e-9);
        assertEquals(104.8576, NetTransport.connectionGBps(1 << 20, Protocol.SIMPLE, NcclSettings.DEFAULTS,
                pp.netStepUs()),
                1e-9);
        double at12 = (1 << 20) / 11.9 / 1000;
        assertEquals(88.0, at12, 0.2);
    }

    /**
     * NCCL_BUFFSIZE=65536 on 2 DGX H100, Ring/Simple AllReduce of 1 GiB over 16 ranks on 16 runtime channels
     * (ChannelSearchTest.twoDgxH100Hosts): stepSize = 65536 / 8 = 8 KiB, a Ring AllReduce slice is 2 steps =
     * 16384 B (the data per ring step, 1 GiB / (16 x 16) = 4 MiB, is larger). One connection: min(16384 / 10 us,
     * 65536 / 20 us) = 1638.4 B/us = 1.6384 GB/s; 16 channels = 26.2144 GB/s per node. A ring node sends
     * 2 (n-1)/n S over it, so busBw <= 26.2144 GB/s (PhysicalBound.nicBusBw with k = n): time >= 1073741824 x 1.875
     * / 26.2144e3 = 76,800 us. With the default 4 MiB buffer the slice is 1 MiB and the limit 16 x 104.86 =
     * 1677.7 GB/s, far above the 8 NICs (400 GB/s): larger buffers are faster (NVIDIA/nccl#387). Past the point
     * where the proxy binds (1 MiB: 256 KiB slices, 16 x 26.2 = 419 GB/s) the buffer only moves the one-chunk
     * pipeline fill (512 KiB instead of 2 MiB chunks, about 70 us of 5.5 ms): within 2 %.
     */
    @Test
    void smallBuffSizeIsSlowerAndBoundByTheProxy() throws Exception {
        Prediction small = ring(1L << 30, "65536");
        Prediction dflt = ring(1L << 30, null);
        assertEquals(Algorithm.RING, small.algorithm());
        assertEquals(16, small.nChannels(), small.toString());
        assertTrue(small.busBw() <= 26.2144 && small.busBw() > 26.2144 * 0.98, small.toString());
        assertTrue(small.timeUs() >= 76_800.0, small.toString());
        assertTrue(dflt.busBw() > 4 * small.busBw(), dflt + " vs " + small);
        Prediction mid = ring(1L << 30, "1048576");
        assertTrue(mid.timeUs() < small.timeUs(), mid.toString());
        assertEquals(dflt.timeUs(), mid.timeUs(), dflt.timeUs() * 0.02, mid.toString());
    }

    /** LL and LL128 pay no proxy step cost (no GPU Direct RDMA flush), and one node never does. */
    @Test
    void onlySimpleBetweenNodesPaysTheStepCost() throws Exception {
        Topology two = ClusterLoader.load("dgx-h100x2");
        ChannelPlan plan2 = ChannelSearch.search(two, two.gpus(), NcclSettings.DEFAULTS,
                NcclVersion.DEFAULT);
        assertTrue(NetTransport.applies(Algorithm.RING, Protocol.SIMPLE, plan2));
        assertFalse(NetTransport.applies(Algorithm.RING, Protocol.LL128, plan2));
        Topology one = ClusterLoader.load("dgx-h100");
        ChannelPlan plan1 = ChannelSearch.search(one, one.gpus(), NcclSettings.DEFAULTS,
                NcclVersion.DEFAULT);
        assertFalse(NetTransport.applies(Algorithm.RING, Protocol.SIMPLE, plan1));
    }

    /**
     * SendRecv of 1 GiB on 2 DGX H100 (16 ranks, 8 per host, 8 NICs of 50 GB/s): the rank at each host's edge sends
     * S across. NCCL_P2P_NET_CHUNKSIZE=16384 makes each network send 16 KiB, 1.6384 GB/s per connection at 10 us;
     * channels per net peer = max(8 NICs / 8 ranks = 1, ceil(50 / 14) = 4) = 4, so 6.5536 GB/s and at least
     * 1073741824 / 6553.6 = 163,840 us (busbw = algbw <= 6.5536). With the default 128 KiB chunk the four
     * connections allow 52.4 GB/s, above the rank's 50 GB/s NIC share, so the NIC limits it.
     */
    @Test
    void p2pNetChunkSizeLimitsSendRecvAcrossNodes() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x2");
        Prediction small = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.SEND_RECV,
                1L << 30, DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of("NCCL_P2P_NET_CHUNKSIZE", "16384"))));
        Prediction dflt = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.SEND_RECV,
                1L << 30, DataType.FLOAT, RedOp.SUM, NcclSettings.DEFAULTS));
        assertTrue(small.timeUs() >= 163_840.0 && small.timeUs() < 163_840.0 * 1.01, small.toString());
        assertTrue(small.busBw() <= 6.5536, small.toString());
        assertTrue(dflt.busBw() <= 50.0 && dflt.busBw() > 45.0, dflt.toString());
    }

    /**
     * The proxy limit is a rate limit on the call, not part of the one-chunk pipeline fill: a Tree/Simple AllReduce
     * of 4 B on 2 DGX H100 sends one 4 B message (10 us at any size this small), so it must not take longer than
     * 8 B (found by PredictionPropertiesTest: 110.15 us at 4 B against 109.53 at 8 B when the fill used the
     * proxy-limited rate).
     */
    @Test
    void tinyTreeSimpleCallsStayMonotonic() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x2");
        Map<String, String> env = Map.of("NCCL_ALGO", "Tree", "NCCL_PROTO", "Simple");
        double prev = 0;
        for (long bytes = 4; bytes <= 1 << 20; bytes *= 2) {
            Prediction p = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE,
                    bytes, DataType.FLOAT, RedOp.SUM, NcclSettings.parse(env)));
            assertTrue(p.timeUs() >= prev, bytes + " B: " + p.timeUs() + " < " + prev);
            prev = p.timeUs();
        }
    }
}
