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
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.HashMap;
import java.util.List;
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
     * A connection keeps NCCL_STEPS = 8 steps in flight (NCCL 2.30.7 {@code src/transport/net.cc sendProxyProgress}:
     * {@code transmitted < done + NCCL_STEPS}), NCCL_STEPS / sliceSteps sends, and a slot comes back after two
     * network steps. Ring AllReduce Simple: sliceSteps 2 ({@code collectives.h ALLREDUCE_SLICESTEPS = NCCL_STEPS / 4})
     * so 4 sends; 1 MiB slices (2 x 4 MiB / 8): min(4 MiB, 4 x 1 MiB) / 20 us = 209.7152 GB/s. A p2p or Tree send of
     * 128 KiB: 8 in flight, 1 MiB / 20 us = 52.4288 GB/s. NVIDIA/nccl#2409 measured 13.1 GB/s for 128 KiB sends with 8
     * in flight on a degraded RoCE run: 8 x 131072 B / 13.1 GB/s = 80 us a slot cycle, i.e. stepUs about 40 there.
     */
    @Test
    void sendsOfOneConnectionOverlapUpToItsSlots() {
        assertEquals(4, NetTransport.sendsInFlight(Algorithm.RING, Protocol.SIMPLE, Collective.ALL_REDUCE));
        assertEquals(8, NetTransport.sendsInFlight(Algorithm.RING, Protocol.SIMPLE, Collective.BROADCAST));
        assertEquals(8, NetTransport.sendsInFlight(Algorithm.TREE, Protocol.SIMPLE, Collective.ALL_REDUCE));
        assertEquals(209.7152, NetTransport.connectionGBps(1 << 20, 4, Protocol.SIMPLE, NcclSettings.DEFAULTS, 10),
                1e-9);
        assertEquals(52.4288, NetTransport.connectionGBps(131072, 8, Protocol.SIMPLE, NcclSettings.DEFAULTS, 10),
                1e-9);
        // the buffer bounds it: 8 sends of 1 MiB are 8 MiB, but only 4 MiB fit in the slots
        assertEquals(209.7152, NetTransport.connectionGBps(1 << 20, 8, Protocol.SIMPLE, NcclSettings.DEFAULTS, 10),
                1e-9);
        assertEquals(13.1, 8 * 131072 / 80.0 / 1000, 0.05);
    }

    /**
     * A small Ring/Simple AllReduce on 2 DGX H100 (16 ranks, 8 per host, 16 runtime channels, Intel hosts): each ring
     * step's data d = nBytes / (16 x 16) goes in 2 slices of d / 2 (prims_simple.h, SlicePerChunk 2), so each
     * connection posts 2 x 2 x 15 = 60 sends. The slot cycle alone would allow 4 sends per 2 x 10 us, 300 us; but
     * one proxy thread per rank posts its connections' sends in turn, 3 us each (NCCL 2.30.7 tuning.cc
     * getNetOverhead: 1 us on Intel, x3 for Simple), and a rank serves 16 / 8 = 2 of the 16 connections leaving its
     * host: 2 x 60 x 3 = 360 us, whatever d, for every size where NCCL's latency plus bandwidth time is shorter
     * (NCCL's own Ring/Simple latency there is 8.4 + 28 x 3.4 + 2 x 14 = 131.6 us before its graph's inter-node
     * latency). At 1 MiB and 4 MiB that floor is the call's time.
     */
    @Test
    void smallRingSimpleAllReduceIsBoundByTheProxyPosts() throws Exception {
        assertEquals(360.0, ring(1L << 20, null).timeUs(), 1e-6);
        assertEquals(360.0, ring(4L << 20, null).timeUs(), 1e-6);
    }

    /**
     * The posting rate by hand: 16 channels of 2048-byte Simple sends, 8 ranks per host (2 connections per proxy),
     * 3 us a send: 16 x 2048 B / (3 us x 2) = 5461.33 B/us = 5.46133 GB/s per host. LL128 posts at NCCL's 1 us (no
     * x3): a 600 KiB step (the LL128 step's data, 4915200 / 8 x 15 / 16 = 576000 B) on 4 channels, 8 ranks per host
     * (one connection per proxy): 4 x 576000 / 1 us = 2304 GB/s. One host never posts to the network.
     */
    @Test
    void proxyPostRateByHand() throws Exception {
        Topology two = ClusterLoader.load("dgx-h100x2");
        ChannelPlan plan2 = ChannelSearch.search(two, two.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        assertEquals(16 * 2048 / 6.0 / 1000, NetTransport.proxyPostGBps(Algorithm.RING, Protocol.SIMPLE, plan2,
                2048, 16), 1e-9);
        assertEquals(2304.0, NetTransport.proxyPostGBps(Algorithm.RING, Protocol.LL128, plan2, 576000, 4), 1e-9);
        assertEquals(Double.POSITIVE_INFINITY, NetTransport.proxyPostGBps(Algorithm.TREE, Protocol.SIMPLE, plan2,
                2048, 16));
        Topology one = ClusterLoader.load("dgx-h100");
        ChannelPlan plan1 = ChannelSearch.search(one, one.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        assertEquals(Double.POSITIVE_INFINITY, NetTransport.proxyPostGBps(Algorithm.RING, Protocol.SIMPLE, plan1,
                2048, 16));
    }

    /**
     * Ring/Simple AllGather of 16 MiB on 2 DGX H100 (16 ranks, 16 channels): each connection posts 15 ring steps x 2
     * slices = 30 sends of 16 MiB / (16 x 16) / 2 = 32 KiB, a rank serves 2 connections at 3 us a send: 2 x 30 x 3 =
     * 180 us, longer than NCCL's latency and the links' time (NCCL's own estimate is 111 us).
     */
    @Test
    void ringSimpleAllGatherPostsEverySendOfItsConnections() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x2");
        Prediction p = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_GATHER,
                16L << 20, DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of("NCCL_ALGO", "Ring",
                        "NCCL_PROTO", "Simple"))));
        assertEquals(16, p.nChannels(), p.toString());
        assertEquals(180.0, p.timeUs(), 1e-6, p.toString());
        assertEquals("proxy posts: 3.0 us per send of 32768 B, 2.0 connections per rank", p.bottleneck());
    }

    /**
     * NCCL_BUFFSIZE=65536 on 2 DGX H100, Ring/Simple AllReduce of 1 GiB over 16 ranks on 16 runtime channels
     * (ChannelSearchTest.twoDgxH100Hosts): stepSize = 65536 / 8 = 8 KiB, a Ring AllReduce slice is 2 steps =
     * 16384 B (half the data per ring step, 1 GiB / (16 x 16) / 2 = 2 MiB, is larger). One connection's slots:
     * min(65536, 4 x 16384) B / 20 us = 3.2768 GB/s, 16 channels = 52.4288 GB/s per node; the proxies post less:
     * 2 connections per rank at 3 us a send (1 us on Intel x3 for Simple, tuning.cc getNetOverhead), 16 x 16384 B /
     * 6 us = 43.690667 GB/s per node. A ring node sends 2 (n-1)/n S over it, so busBw <= 43.690667 GB/s
     * (PhysicalBound.nicBusBw with k = n): time >= 1073741824 x 1.875 / 43690.667 = 46,080 us. With the default 4 MiB
     * buffer the limits are 16 x 209.7 = 3355 and 16 x 1 MiB / 6 us = 2796 GB/s, far above the 8 NICs
     * (400 GB/s): larger buffers are faster (NVIDIA/nccl#387). A 1 MiB buffer allows 16 x 52.4 = 839 and 699 GB/s,
     * also above the NICs; it only moves the one-chunk pipeline fill (512 KiB instead of 2 MiB chunks, about 70 us
     * of 5.5 ms): within 2 %.
     */
    @Test
    void smallBuffSizeIsSlowerAndBoundByTheProxy() throws Exception {
        Prediction small = ring(1L << 30, "65536");
        Prediction dflt = ring(1L << 30, null);
        assertEquals(Algorithm.RING, small.algorithm());
        assertEquals(16, small.nChannels(), small.toString());
        assertTrue(small.busBw() <= 43.690667 && small.busBw() > 43.690667 * 0.98, small.toString());
        assertTrue(small.timeUs() >= 46_080.0 - 1e-6, small.toString());
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
     * S across. NCCL_P2P_NET_CHUNKSIZE=16384 makes each network send 16 KiB, 8 in flight: 131072 B / 20 us =
     * 6.5536 GB/s per connection at 10 us; channels per net peer = max(8 NICs / 8 ranks = 1, ceil(50 / 14) = 4) = 4,
     * so 26.2144 GB/s and at least 1073741824 / 26214.4 = 40,960 us (busbw = algbw <= 26.2144). With the default
     * 128 KiB chunk the four connections allow 4 x 52.4 = 209.7 GB/s, above the rank's 50 GB/s NIC share, so the
     * NIC limits it.
     */
    @Test
    void p2pNetChunkSizeLimitsSendRecvAcrossNodes() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x2");
        Prediction small = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.SEND_RECV,
                1L << 30, DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of("NCCL_P2P_NET_CHUNKSIZE", "16384"))));
        Prediction dflt = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.SEND_RECV,
                1L << 30, DataType.FLOAT, RedOp.SUM, NcclSettings.DEFAULTS));
        assertTrue(small.timeUs() >= 40_960.0 && small.timeUs() < 40_960.0 * 1.01, small.toString());
        assertTrue(small.busBw() <= 26.2144, small.toString());
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

    /**
     * The proxy's turns over a rank's other connections, by hand ({@link NetTransport#proxyTurnsUs}; Intel hosts,
     * NCCL 2.30.7 tuning.cc getNetOverhead 1 us per turn, LL). 2 DGX H100, 16 ranks: a Ring channel has a send and a
     * receive connection per node, 2 x 8 channels x 2 nodes / 16 ranks = 2 per rank, so each of the 2 x 15 = 30 ring
     * steps of a connection waits 1 other turn: 30 us while one 32 KiB LL step holds a ring step's data (1 MiB / (8 x
     * 16) = 8 KiB); at 4 channels each rank holds 1 connection: nothing. 4 MiB on 8 channels is 32 KiB per ring step,
     * exactly one LL step: still 30 us. Tree, 16 channels: 4 connections per rank, a chunk crosses the network up and
     * down (2 hops), 3 x 2 = 6 us; 16 MiB / 16 channels = 1 MiB per channel is 32 LL steps of 32 KiB, the 31 later
     * ones one turn each behind the first: 3 x (2 + 31) = 99 us. LL128 and Simple, and one node, are not charged.
     */
    @Test
    void proxyTurnsByHand() {
        Topology two = ClusterLoader.load("dgx-h100x2");
        ChannelPlan plan2 = ChannelSearch.search(two, two.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        NcclSettings d = NcclSettings.DEFAULTS;
        assertEquals(30.0, NetTransport.proxyTurnsUs(plan2, d, Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL,
                1L << 20, 8), 1e-9);
        assertEquals(0.0, NetTransport.proxyTurnsUs(plan2, d, Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL,
                1L << 20, 4), 1e-9);
        assertEquals(30.0, NetTransport.proxyTurnsUs(plan2, d, Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL,
                4L << 20, 8), 1e-9);
        assertEquals(15.0, NetTransport.proxyTurnsUs(plan2, d, Collective.ALL_GATHER, Algorithm.RING, Protocol.LL,
                1L << 20, 8), 1e-9);
        assertEquals(6.0, NetTransport.proxyTurnsUs(plan2, d, Collective.ALL_REDUCE, Algorithm.TREE, Protocol.LL,
                65536, 16), 1e-9);
        assertEquals(99.0, NetTransport.proxyTurnsUs(plan2, d, Collective.ALL_REDUCE, Algorithm.TREE, Protocol.LL,
                16L << 20, 16), 1e-9);
        assertEquals(0.0, NetTransport.proxyTurnsUs(plan2, d, Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128,
                1L << 20, 8), 1e-9);
        assertEquals(0.0, NetTransport.proxyTurnsUs(plan2, d, Collective.ALL_REDUCE, Algorithm.RING,
                Protocol.SIMPLE, 1L << 20, 8), 1e-9);
        Topology one = ClusterLoader.load("dgx-h100");
        ChannelPlan plan1 = ChannelSearch.search(one, one.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        assertEquals(0.0, NetTransport.proxyTurnsUs(plan1, d, Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL,
                1L << 20, 8), 1e-9);
    }

    /**
     * One rank per node holds both connections of every channel: 2 DGX H100 hosts, GPU 0 of each, Ring/LL AllReduce
     * on 4 channels: 2 x 4 x 2 / 2 = 8 connections per rank, 2 ring steps each: 7 x 2 x 1 us = 14 us; on 1 channel
     * the rank's own receive is the one other turn: 2 us. Uneven hosts, 3 ranks on one and 1 on the other: the lone
     * rank holds both connections of each of 2 channels (4 connections, 3 others), 2 x 3 = 6 ring steps: 18 us.
     */
    @Test
    void oneRankPerNodeServesBothDirections() {
        Topology two = ClusterLoader.load("dgx-h100x2");
        List<Gpu> ranks = List.of(two.gpusOf(0).get(0), two.gpusOf(1).get(0));
        ChannelPlan plan = ChannelSearch.search(two, ranks, NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        assertEquals(14.0, NetTransport.proxyTurnsUs(plan, NcclSettings.DEFAULTS, Collective.ALL_REDUCE,
                Algorithm.RING, Protocol.LL, 32768, 4), 1e-9);
        assertEquals(2.0, NetTransport.proxyTurnsUs(plan, NcclSettings.DEFAULTS, Collective.ALL_REDUCE,
                Algorithm.RING, Protocol.LL, 1024, 1), 1e-9);
        List<Gpu> uneven = List.of(two.gpusOf(0).get(0), two.gpusOf(0).get(1), two.gpusOf(0).get(2),
                two.gpusOf(1).get(0));
        ChannelPlan plan31 = ChannelSearch.search(two, uneven, NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        assertEquals(18.0, NetTransport.proxyTurnsUs(plan31, NcclSettings.DEFAULTS, Collective.ALL_REDUCE,
                Algorithm.RING, Protocol.LL, 8192, 2), 1e-9);
    }
}
