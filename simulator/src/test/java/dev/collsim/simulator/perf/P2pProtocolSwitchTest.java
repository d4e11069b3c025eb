package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * AllToAll leaves LL where NCCL 2.30.7 {@code src/enqueue.cc} {@code addP2pToPlan} does: a send of B bytes to one
 * peer runs LL when B &lt;= its own channels x 16384 and its connection has LL buffers (line 891), which a network
 * p2p connection has not by default.
 */
class P2pProtocolSwitchTest {

    private static Protocol allToAll(String cluster, long bytes) throws Exception {
        Topology t = ClusterLoader.load(cluster);
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_TO_ALL, bytes,
                DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of()))).protocol();
    }

    /**
     * 4 DGX H100, 32 ranks, one 400 Gb/s NIC (50 GB/s) per GPU. Channels per peer (paths.cc): a network peer gets
     * max(1 NIC, ceil(50 / 14)) = 4, fewer than an NVLink peer's 2 x 18; pow2Up 4; 4 x ceil(32 / 8) = 16 is within
     * the p2p channels. nChannelsMin (enqueue.cc) = 4 halved while it x 32 exceeds the p2p channels (at most 32):
     * 1. The p2p chunk across nodes is 128 KiB, so minPart = 64 KiB: a send of B &lt;= 64 KiB takes
     * min(1, ceil(B / 64 KiB)) = 1 channel, and a node peer's send runs LL up to 1 x 16384 B. Per peer S / 32:
     * S = 512 KiB gives 16 KiB (LL), S = 1 MiB gives 32 KiB (Simple). A send to another node has no LL buffer
     * (NCCL 2.30.7 {@code src/transport/net.cc} lines 302-304 and 930-934: shared p2p buffers, LL only under
     * NCCL_ALLOC_P2P_NET_LL_BUFFERS=1), so it is Simple at 16 KiB too, and so is the call.
     */
    @Test
    void fourDgxH100NodePeersLeaveLlAbove16KiBRemotePeersNeverUseIt() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x4");
        ChannelPlan plan = ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_30_7);
        PathType type = plan.graphs().ring().typeIntra();
        assertEquals(Protocol.LL, P2pPeerChannels.protocol(plan, NcclSettings.DEFAULTS, type, 16L << 10,
                NcclVersion.V2_30_7));
        assertEquals(Protocol.SIMPLE, P2pPeerChannels.protocol(plan, NcclSettings.DEFAULTS, type, 32L << 10,
                NcclVersion.V2_30_7));
        assertEquals(Protocol.SIMPLE, allToAll("dgx-h100x4", 512L << 10));
        assertEquals(Protocol.SIMPLE, allToAll("dgx-h100x4", 1L << 10));
    }

    /**
     * One DGX H100, 8 ranks on NVLink: the p2p chunk is NCCL_P2P_NVL_CHUNKSIZE 512 KiB, minPart = 64 KiB, so a send
     * of B &lt;= 64 KiB takes one channel and runs LL up to 16384 B. Per peer S / 8: S = 128 KiB gives 16 KiB (LL),
     * S = 256 KiB gives 32 KiB (Simple).
     */
    @Test
    void oneDgxH100LeavesLlAbove16KiBPerPeer() throws Exception {
        assertEquals(Protocol.LL, allToAll("dgx-h100", 128L << 10));
        assertEquals(Protocol.SIMPLE, allToAll("dgx-h100", 256L << 10));
    }
}
