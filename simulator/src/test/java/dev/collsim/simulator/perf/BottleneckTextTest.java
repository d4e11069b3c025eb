package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.SimulatorFixtures;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.NcclVersion;
import org.junit.jupiter.api.Test;

/**
 * Which term the bottleneck text names, on terms made up by hand so that each branch binds: latency above half the
 * time (the fill named when it is above half the latency), then the lowest bandwidth bound.
 */
class BottleneckTextTest {

    private static final double INF = Double.POSITIVE_INFINITY;
    private static final long BYTES = 1L << 30;

    private static ChannelPlan plan(String cluster) {
        return SimulatorFixtures.plan(cluster, NcclVersion.V2_30_7);
    }

    private static String text(ChannelPlan plan, BottleneckText.Terms t) {
        return BottleneckText.of(t, plan, NcclSettings.DEFAULTS, PerformanceParameters.DEFAULTS,
                Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE, BYTES);
    }

    /** Latency 40 of 50 us is above half; a fill of 30 us is above half of it (20), one of 10 is not. */
    @Test
    void latencyAboveHalfTheTimeNamesTheFillWhenItIsMostOfIt() throws Exception {
        ChannelPlan p = plan("dgx-h100");
        assertEquals("pipeline fill: 30.0 us (of 40.0 us latency) of 50.0 us", text(p, new BottleneckText.Terms(50,
                40, 30, 0, 0, 10, 0, INF, 100, 200, 16, 16, 20, 1.75, false, 30)));
        assertEquals("latency: 40.0 us of 50.0 us", text(p, new BottleneckText.Terms(50, 40, 10, 0, 0, 10, 0, INF,
                100, 200, 16, 16, 20, 1.75, false, 30)));
    }

    /**
     * Latency 10 of 100 us: the lowest bandwidth bound is named. Cap 80 below links 100: 16 channels x 20.0 GB/s;
     * cap 200 above: the links, 100 GB/s algBw / ratio 1.75 = 57.14 GB/s busBw, the ring graph's or the chain's.
     */
    @Test
    void lowestBandwidthBoundIsNamed() throws Exception {
        ChannelPlan p = plan("dgx-h100");
        assertEquals("per-channel throughput: 16 channels x 20.0 GB/s", text(p, new BottleneckText.Terms(100, 10, 1,
                0, 0, 90, 0, INF, 100, 80, 16, 16, 20, 1.75, false, 30)));
        assertEquals("links: Ring graph 57.1 GB/s busBw", text(p, new BottleneckText.Terms(100, 10, 1, 0, 0, 90, 0, INF,
                100, 200, 16, 16, 20, 1.75, false, 30)));
        assertEquals("links: Tree chain on ring links 57.1 GB/s busBw", text(p, new BottleneckText.Terms(100, 10, 1,
                0, 0, 90, 0, INF, 100, 200, 16, 16, 20, 1.75, true, 30)));
    }

    /**
     * The links' text names the CPU hop of the graph that binds: 8 L40S with 4 GPUs under each of the two CPUs
     * (configs/pcie-8x-l40s.yaml) have no ring over all 8 that stays on one socket, so the ring graph's path type is
     * SYS (NCCL 2.30.7 src/graph/search.cc takes the worst path of the ring); a DGX H100's ring runs on NVLink and
     * names none (lowestBandwidthBoundIsNamed).
     */
    @Test
    void linksNameTheSocketHopTheGraphCrosses() throws Exception {
        assertEquals("links: Ring graph 57.1 GB/s busBw (its paths cross the CPU socket link, SYS)",
                text(plan("pcie-8x-l40s"), new BottleneckText.Terms(100, 10, 1, 0, 0, 90, 0, INF, 100, 200, 16, 16,
                        20, 1.75, false, 30)));
    }

    /**
     * Network 10 GB/s below links and cap on 2 DGX H100 over InfiniBand (no socket streams' cap, GPU-NIC paths at
     * the NICs' rate): the NICs, 8 x ConnectX-7 400 Gb/s = 8 x 50 = 400 GB/s per node (DGX H100 User Guide, as
     * configs/dgx-h100.yaml cites it).
     */
    @Test
    void networkBelowLinksNamesTheNics() throws Exception {
        assertEquals("NICs: 400 GB/s per node", text(plan("dgx-h100x2"), new BottleneckText.Terms(100, 10, 1, 0, 0,
                90, 0, 10, 100, 200, 16, 16, 20, 1.875, false, 30)));
    }

    /**
     * Latency 10 of 100 us, data 20 us, turns 90 us on 2 DGX H100 (16 ranks) on 8 channels: each rank serves
     * 2 x 8 x 2 / 16 = 2 connections, so a step waits for 1 other: the turns are named.
     */
    @Test
    void proxyTurnsOutlastingTheDataAreNamed() throws Exception {
        assertEquals("proxy turns: 90.0 us of LL steps waiting for 1.0 other network connections per rank",
                text(plan("dgx-h100x2"), new BottleneckText.Terms(100, 10, 1, 0, 0, 20, 90, INF, 100, 200, 8, 8, 20,
                        1.875, false, 30)));
    }

    /**
     * Network below links and cap on 2 AWS p4d.24xlarge (A100, 4 x 100 Gb/s EFA, an RDMA-read device: NCCL 2.23's
     * Tree/Simple sends each pay the read rendezvous): the text names it and the share of the line rate, worked out
     * from the rule's figures: 1 GiB on 8 channels in 512 KiB sends (NCCL 2.20 and later keep the whole chunk) is 256
     * sends per connection; a connection's share of the node's 4 x 12.5 = 50 GB/s is 50 / max(8, 4) = 6.25 GB/s; the
     * 255 later rendezvous of 16 us hold 255 x 16 x 6250 = 25,500,000 B of line time against 256 x 524,288 =
     * 134,217,728 B of data: 134217728 / 159717728 = 84.0 %.
     */
    @Test
    void efaReadRendezvousIsNamedWhereItHoldsTheNics() throws Exception {
        String s = BottleneckText.of(new BottleneckText.Terms(100, 10, 1, 0, 0, 90, 0, 10, 100, 200, 8, 8, 20, 1.875,
                false, 23), plan("p4d.24xlarge:2"), NcclSettings.DEFAULTS, PerformanceParameters.DEFAULTS,
                Collective.ALL_REDUCE, Algorithm.TREE, Protocol.SIMPLE, BYTES);
        assertEquals("EFA read rendezvous: each later Tree/Simple network send of a connection waits 16 us, so the NICs"
                + " (50 GB/s per node) move at 84.0 % of their line rate", s);
        // the same call on p5 (H100, the RDMA-write protocol): no rendezvous, the NICs
        String p5 = BottleneckText.of(new BottleneckText.Terms(100, 10, 1, 0, 0, 90, 0, 10, 100, 200, 8, 8, 20, 1.875,
                false, 23), plan("p5.48xlarge:2"), NcclSettings.DEFAULTS, PerformanceParameters.DEFAULTS,
                Collective.ALL_REDUCE, Algorithm.TREE, Protocol.SIMPLE, BYTES);
        assertEquals(true, p5.startsWith("NICs: "), p5);
    }
}
