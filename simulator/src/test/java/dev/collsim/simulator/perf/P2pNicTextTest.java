package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The point-to-point bottleneck names the NIC bandwidth per rank and the NICs local to the node's ranks of the call,
 * whatever the ranks per node.
 */
class P2pNicTextTest {

    private static Prediction sendRecv(List<Gpu> ranks, Topology t) {
        return new NcclPredictor().predict(new PredictionRequest(t, ranks, Collective.SEND_RECV, 1L << 30,
                DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of())));
    }

    /**
     * Two DGX H100 (8 ConnectX-7 of 400 Gb/s = 50 GB/s each per host). 16 ranks: a node's 8 ranks share its 8 NICs,
     * 400 GB/s per node, 400 / 8 = 50 GB/s per rank. 2 ranks, one per host: each rank drives the NIC next to its GPU
     * (the NICs local to the ranks, ChannelPlan.nodeNicBw), 50 GB/s per node and 50 GB/s per rank. Both bind at
     * 1 GiB (a rank's S crosses the network at 50 GB/s, far below NVLink), and both say so in the same terms.
     */
    @Test
    void perRankAndPerNodeInBothCases() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x2");
        String all = sendRecv(t.gpus(), t).bottleneck();
        String two = sendRecv(List.of(t.gpus().get(0), t.gpus().get(8)), t).bottleneck();
        assertTrue(all.startsWith("NICs: 50.0 GB/s per rank of 400.0 GB/s on the 8 NICs local to the node's 8 ranks"),
                all);
        // not "of 50.0 GB/s per node": the node has 400 GB/s of NICs, the call's one rank per node uses one of them
        assertTrue(two.startsWith("NICs: 50.0 GB/s per rank of 50.0 GB/s on the 1 NIC local to the node's 1 rank"),
                two);
    }
}
