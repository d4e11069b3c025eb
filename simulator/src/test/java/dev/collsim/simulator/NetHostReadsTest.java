package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.perf.ShmHostReads;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Between nodes without GPU Direct RDMA a Ring's LL and LL128 receive FIFO is host memory (v2.8.4-1
 * {@code src/transport/net.cc} line 135), read at {@link ShmHostReads}' latency-bound rate
 * ({@link ShmHostReads#netPerChannelBusBw}). By hand: LL, 512 threads x 8 payload bytes a load = 4096 B per round trip
 * of 1.364 us ({@link ShmHostReads#READ_ROUND_TRIP_US}, measured with the hostread probe) = 3.002933 GB/s per channel.
 */
class NetHostReadsTest {

    private static ChannelPlan plan(String cluster, Map<String, String> env) throws Exception {
        Topology t = ClusterLoader.load(cluster);
        return new NcclPredictor(NcclVersion.V2_8_4, PerformanceParameters.DEFAULTS)
                .prepare(t, t.gpus(), NcclSettings.parse(env)).plan();
    }

    /**
     * ABCI Compute Node (V): each socket's EDR NIC on its root port, the GPUs behind a PCIe switch, so the GPU-NIC
     * path is PHB, beyond NCCL's default GDR level: host-memory receive. Ring/LL 3.002933 GB/s a channel; LL128,
     * 640 threads x 4 loads x 15 B / 2 round trips = 19200 B per 1.364 us = 14.076246 GB/s; Simple, the Tree and
     * NCCL_NET_GDR_LEVEL=SYS (GDR on up to SYS) no cap.
     */
    @Test
    void abciV100NodesReceiveFromHostMemory() throws Exception {
        ChannelPlan abci = plan("abci-node-vx8", Map.of());
        assertEquals(3.002933, ShmHostReads.netPerChannelBusBw(abci, NcclSettings.DEFAULTS, Algorithm.RING,
                Protocol.LL), 1e-6);
        assertEquals(14.076246, ShmHostReads.netPerChannelBusBw(abci, NcclSettings.DEFAULTS, Algorithm.RING,
                Protocol.LL128), 1e-6);
        assertTrue(Double.isInfinite(ShmHostReads.netPerChannelBusBw(abci, NcclSettings.DEFAULTS, Algorithm.RING,
                Protocol.SIMPLE)));
        assertTrue(Double.isInfinite(ShmHostReads.netPerChannelBusBw(abci, NcclSettings.DEFAULTS, Algorithm.TREE,
                Protocol.LL)));
        NcclSettings sys = NcclSettings.parse(Map.of("NCCL_NET_GDR_LEVEL", "SYS"));
        assertTrue(Double.isInfinite(ShmHostReads.netPerChannelBusBw(plan("abci-node-vx8", Map.of(
                "NCCL_NET_GDR_LEVEL", "SYS")), sys, Algorithm.RING, Protocol.LL)));
    }

    /** A DGX H100 pair: each GPU's NIC on its own PCIe switch (PIX), GPU Direct RDMA on: no cap. */
    @Test
    void gdrNodesReadTheirOwnMemory() throws Exception {
        ChannelPlan dgx = plan("dgx-h100x2", Map.of());
        assertTrue(Double.isInfinite(ShmHostReads.netPerChannelBusBw(dgx, NcclSettings.DEFAULTS, Algorithm.RING,
                Protocol.LL)));
    }

    private static Prediction oneChannelRingLl(long bytes) throws Exception {
        Topology t = ClusterLoader.load("abci-node-vx8");
        Prediction p = new NcclPredictor(NcclVersion.V2_8_4, PerformanceParameters.DEFAULTS).predict(
                new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, bytes, DataType.FLOAT, RedOp.SUM,
                        NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "LL",
                                "NCCL_MAX_NCHANNELS", "1"))));
        assertEquals(1, p.nChannels(), p.toString());
        return p;
    }

    /**
     * The cap sets the time: 8 ABCI V100 nodes (32 ranks), Ring/LL on one channel. From 512 KiB to 1 MiB the call adds
     * 524288 B at no more than 3.002933 GB/s of bus bandwidth, 3.002933 / (2 x 31 / 32) = 1.549901 GB/s of algorithm
     * bandwidth: at least 338.27 us more (every other term only grows with size). Without the cap NCCL's 6 GB/s
     * Ring/LL figure would let one channel add them in about half that.
     */
    @Test
    void oneChannelMovesAtTheReadRate() throws Exception {
        double added = oneChannelRingLl(1L << 20).timeUs() - oneChannelRingLl(512L << 10).timeUs();
        assertTrue(added >= 338.27, "added " + added);
    }
}
