package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * AllToAll, SendRecv, Gather and Scatter follow the same network figure as the collectives and the bound column when
 * the GPU-NIC paths cross the CPU (GPU Direct RDMA off, sockets): NCCL 2.30.7 {@code src/transport/net.cc} keeps a
 * p2p connection's buffers in host memory unless {@code useGdr}, as for a collective's. DGX H100 under
 * NCCL_NET_GDR_LEVEL=LOC: 252.062 GB/s per node through the PCIe switch uplinks (GdrNoteTest), 8 ranks per node.
 */
class P2pStagedNetTest {

    private static final NcclPredictor P = new NcclPredictor(NcclVersion.DEFAULT, PerformanceParameters.DEFAULTS);
    private static final long S = 8L << 30;

    private static Prediction predict(Topology t, Collective c, Map<String, String> env) {
        return P.predict(new PredictionRequest(t, t.gpus(), c, S, DataType.FLOAT, RedOp.SUM, NcclSettings.parse(env)));
    }

    /**
     * Per rank: min(NICs 400 / max(8 ranks, 8 NICs), staged 252.062 / 8 ranks) = min(50, 31.508) = 31.508 GB/s under
     * LOC; 50 with GPU Direct RDMA.
     */
    @Test
    void rankShareOfTheStagedPaths() {
        Topology t = ClusterLoader.load("dgx-h100x2");
        assertEquals(31.508, P2pModel.rankNetGBps(ChannelSearch.search(t, t.gpus(),
                NcclSettings.parse(Map.of("NCCL_NET_GDR_LEVEL", "LOC")), NcclVersion.DEFAULT)), 1e-3);
        assertEquals(50.0, P2pModel.rankNetGBps(ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS,
                NcclVersion.DEFAULT)), 1e-9);
    }

    /**
     * Bound column, 2 DGX H100 under LOC (n = 16, q = 8, N = 252.062): AllToAll N (n-1) / (q (n-q)) = 252.062 x 15 /
     * 64 = 59.077; SendRecv N / q = 31.508. Before, the time used the NICs' 400 GB/s: AllToAll 91.85 and SendRecv
     * 48.99 GB/s busbw, above these. Now the SendRecv time is the staged share's and says so.
     */
    @Test
    void gdrOffP2pStaysUnderItsBound() {
        Topology t = ClusterLoader.load("dgx-h100x2");
        Map<String, String> loc = Map.of("NCCL_NET_GDR_LEVEL", "LOC");
        Prediction a2a = predict(t, Collective.ALL_TO_ALL, loc);
        assertEquals(59.077, a2a.physicalBoundBusBw(), 1e-3);
        Prediction sr = predict(t, Collective.SEND_RECV, loc);
        assertEquals(31.508, sr.physicalBoundBusBw(), 1e-3);
        assertTrue(sr.bottleneck().startsWith("GPU-NIC paths through the CPU: 31.5 GB/s per rank of 252.1 GB/s per"
                + " node (NICs 400.0)"), sr.bottleneck());
        // a Scatter root with PXN drives all 8 NICs alone: 400 GB/s, 252.062 staged, both above what its p2p
        // channels move (P2pModel.senderNetGBps), so GDR off leaves it as fast
        Prediction scatter = predict(t, Collective.SCATTER, loc);
        assertTrue(scatter.bottleneck().startsWith("per-channel throughput"), scatter.bottleneck());
        assertTrue(scatter.busBw() <= scatter.physicalBoundBusBw());
        for (Collective c : new Collective[] {Collective.ALL_TO_ALL, Collective.SEND_RECV, Collective.GATHER}) {
            Prediction p = predict(t, c, loc);
            assertTrue(p.busBw() <= p.physicalBoundBusBw(), c + ": " + p.busBw() + " > " + p.physicalBoundBusBw());
            assertTrue(p.busBw() < predict(t, c, Map.of()).busBw(), c + " is not slower with GDR off");
        }
    }

    /**
     * Sockets, 2 hosts of 8 L40S (4 Gen4 switches of 2 GPUs + one 200 Gb/s NIC; Gen4 x16 uplink 31.508 GB/s). Each
     * GPU's local NICs are its CPU's 2, local to that CPU's 4 GPUs: 1 NIC per GPU from dev % 4 mirrored within 2, so
     * GPUs 0 and 2 use NIC 0, GPUs 1 and 3 NIC 1. Switch 0's uplink carries per direction GPU 0's and GPU 1's own
     * traffic and NIC 0's for GPUs 0 and 2: 4 traversals, 7.877 GB/s per GPU, 2 x 7.877 = 15.754 per NIC (below its
     * 25), 63.015 per node. AllToAll bound: staged 63.015 x 15 / 64 = 14.769; streams (1 per connection, 4 p2p
     * channels, 2.225 GB/s): 8 x 4 x 2.225 = 71.2 per node, 16.6875; the bound is 14.769. With
     * NCCL_MAX_P2P_NCHANNELS=2 the streams give 8 x 2 x 2.225 = 35.6 per node, 8.34375, below the staged paths.
     * Before, the time used the NICs' 100 GB/s (16.35 GB/s busbw against a bound of 10.83).
     */
    @Test
    void socketP2pStaysUnderItsBound() {
        Topology t = Catalog.standalone(Catalog.hostType("pcie-8x-l40s").orElseThrow(), 2)
                .withNetworkClass(NetworkClass.SOCKET);
        Prediction a2a = predict(t, Collective.ALL_TO_ALL, Map.of());
        assertEquals(14.769, a2a.physicalBoundBusBw(), 1e-3);
        assertTrue(a2a.busBw() <= a2a.physicalBoundBusBw(), a2a.busBw() + "");
        Prediction two = predict(t, Collective.ALL_TO_ALL, Map.of("NCCL_MAX_P2P_NCHANNELS", "2"));
        assertEquals(8.34375, two.physicalBoundBusBw(), 1e-9);
        assertTrue(two.busBw() <= two.physicalBoundBusBw(), two.busBw() + "");
    }

    /**
     * 4 AWS p5 over sockets (n = 32, m = 4): the staged paths give 126.031 GB/s per node (StagedNetPathsTest: 8 GPUs
     * x half of a Gen4 x16 switch uplink, 31.5077 / 2, the EPYC 7R13's root ports being Gen4); Ring AllGather's node
     * sends (n-1)/n S and busbw is (n-1)/n algbw, so its bound is 126.031, and the Ring time, which
     * took the (m-1)/m rule before (79.91 GB/s busbw against a bound of 62.50), stays under it.
     */
    @Test
    void ringAllGatherOverSocketsStaysUnderItsBound() {
        Topology t = Catalog.standalone(Catalog.hostType("p5.48xlarge").orElseThrow(), 4)
                .withNetworkClass(NetworkClass.SOCKET);
        Prediction ag = predict(t, Collective.ALL_GATHER, Map.of());
        assertEquals(126.031, ag.physicalBoundBusBw(), 1e-3);
        assertTrue(ag.busBw() <= ag.physicalBoundBusBw(), ag.busBw() + "");
    }
}
