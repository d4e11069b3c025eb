package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The NICs a Scatter or Gather root uses between nodes, worked out from NCCL's {@code ncclTopoGetNetDev} (v2.18.3-1
 * {@code src/graph/search.cc} lines 1038-1098; the receive side {@code src/transport/net.cc} line 212) on two AWS
 * p4d.24xlarge: 8 A100 and 4 EFA NICs of 100 Gb/s (12.5 GB/s) per host, each NIC local to two GPUs, 8 ranks per node.
 * <ul>
 *   <li>Scatter with PXN (the default): the root's send to remote rank 8 + k takes the NIC local to its node's GPU k
 *       (proxy GPU k over NVLink): ranks 8..15 sit on all 4 rails, so the root drives 4 x 12.5 = 50 GB/s;</li>
 *   <li>Scatter under NCCL_PXN_DISABLE=1, and Gather (a receive takes the receiver's own NIC): the root's one local
 *       NIC, 12.5 GB/s, not shared (no other rank of the node uses the network);</li>
 *   <li>AllToAll: every rank sends, the node's 4 NICs shared by 8 ranks, 50 / 8 = 6.25 GB/s (unchanged);</li>
 *   <li>SendRecv: rank r sends to r + 1 (nccl-tests {@code src/sendrecv.cu}), so only rank 7 (and 15) sends to the
 *       other node, through one NIC (with PXN NIC 0, local to GPU 0, the peer's device): 12.5 GB/s, not the 6.25 of
 *       a share.</li>
 * </ul>
 * Measured (A-scatter-2x8xA100-40GB-aws-p4d-efa-slurm-awsome-distributed-training-nccl2.18.txt, run 2 at 2 GiB):
 * 80.6 GB/s busbw, 86 % of the 4-NIC bound 93.75 = 50 x 2 x 15/16 (half of S crosses the network); one NIC would
 * allow at most 23.4.
 */
class P2pRootNicsTest {

    private static final long S = 2L << 30;

    private static ChannelPlan plan(Map<String, String> env) {
        Topology t = ClusterLoader.load("p4d.24xlargex2");
        return ChannelSearch.search(t, t.gpus(), NcclSettings.parse(env), NcclVersion.DEFAULT);
    }

    @Test
    void scatterRootUsesEveryRailWithPxn() {
        ChannelPlan p = plan(Map.of());
        assertEquals(50.0, P2pModel.senderNetGBps(p, NcclSettings.DEFAULTS, Collective.SCATTER, PathType.NVL), 1e-9);
        assertEquals(12.5, P2pModel.senderNetGBps(p, NcclSettings.DEFAULTS, Collective.GATHER, PathType.NVL), 1e-9);
        assertEquals(6.25, P2pModel.senderNetGBps(p, NcclSettings.DEFAULTS, Collective.ALL_TO_ALL, PathType.NVL),
                1e-9);
        assertEquals(12.5, P2pModel.senderNetGBps(p, NcclSettings.DEFAULTS, Collective.SEND_RECV, PathType.NVL),
                1e-9);
        NcclSettings off = NcclSettings.parse(Map.of("NCCL_PXN_DISABLE", "1"));
        assertEquals(12.5, P2pModel.senderNetGBps(plan(Map.of("NCCL_PXN_DISABLE", "1")), off, Collective.SCATTER,
                PathType.NVL), 1e-9);
        // PXN needs the proxy GPU on NVLink (paths[GPU][g1].type <= PATH_NVL)
        assertEquals(12.5, P2pModel.senderNetGBps(p, NcclSettings.DEFAULTS, Collective.SCATTER, PathType.PXB), 1e-9);
    }

    /**
     * The root's sends to the 2 remote ranks on its own rail (NIC 0, GPUs 0 and 1) leave by its NIC; the 6 others
     * cross NVLink to their rail's GPU first: 6 / 8 = 0.75 of the bytes that cross the network.
     */
    @Test
    void pxnRelaysThreeQuartersOverNvlink() {
        ChannelPlan p = plan(Map.of());
        assertEquals(0.75, P2pModel.pxnRelayShare(p, NcclSettings.DEFAULTS, Collective.SCATTER, PathType.NVL), 1e-12);
        assertEquals(0.0, P2pModel.pxnRelayShare(p, NcclSettings.DEFAULTS, Collective.GATHER, PathType.NVL), 1e-12);
        assertEquals(0.0, P2pModel.pxnRelayShare(p, NcclSettings.parse(Map.of("NCCL_PXN_DISABLE", "1")),
                Collective.SCATTER, PathType.NVL), 1e-12);
    }

    /**
     * At 2 GiB both are bound by the root's network (S / 2 crosses it): the bandwidth parts (time less latency) stand
     * 4 : 1, the NICs' 50 : 12.5; the PXN prediction stays under the 4-NIC bound and above what one NIC allows.
     * Under the NCCL 2.28.9 model, the one the file's 2.18.3 run is predicted with: 2 channels per network peer, so
     * the root's two schedule groups (node peers, remote peers) run on 4 channels, 4 x 24 GB/s for 15/16 of S, above
     * the NICs' rate ({@link P2pScheduleGroupsTest}). (NCCL 2.30.7 gives a 12.5 GB/s NIC's peer 1 channel, and the 8
     * remote peers then share one channel: the per-channel throughput binds there.)
     */
    @Test
    void pxnScatterIsFourTimesTheOneNicScatter() {
        Map<String, String> offEnv = Map.of("NCCL_PXN_DISABLE", "1");
        PerfEstimate pxn = P2pModel.estimate(plan(Map.of()), NcclSettings.DEFAULTS, NcclVersion.V2_28_9,
                PerformanceParameters.DEFAULTS, Collective.SCATTER, S, PathType.NVL);
        PerfEstimate one = P2pModel.estimate(plan(offEnv), NcclSettings.parse(offEnv), NcclVersion.V2_28_9,
                PerformanceParameters.DEFAULTS, Collective.SCATTER, S, PathType.NVL);
        assertTrue(pxn.bottleneck().startsWith("NICs"), pxn.bottleneck());
        assertTrue(one.bottleneck().startsWith("NICs"), one.bottleneck());
        assertEquals(4.0, (one.timeUs() - one.latencyUs()) / (pxn.timeUs() - pxn.latencyUs()), 1e-9);
        double busBw = S / pxn.timeUs() / 1000 * 15 / 16;
        assertTrue(busBw < 93.75 && busBw > 23.4 * 2, "busbw " + busBw);
    }
}
