package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.TuningConstants;
import dev.collsim.simulator.tuning.TuningInput;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The latency a net plugin reports to NCCL: aws-ofi-nccl's 75 us on p5 (v1.7.3-aws {@code src/platform-aws.c},
 * p5.48xlarge row) enters every multi-node graph and NCCL's inter-node latency, twice for Simple (NCCL 2.30.7
 * {@code src/graph/tuning.cc}: {@code interLat += latencyInter}, once more for Simple).
 */
class NetPluginLatencyTest {

    @Test
    void onlyAwsOfiNcclOnEfaReportsALatency() {
        assertEquals(75.0, NetPluginLatency.reportedUs(NetworkClass.EFA), 0);
        for (NetworkClass c : List.of(NetworkClass.INFINIBAND, NetworkClass.ROCE, NetworkClass.TCPX, NetworkClass.TCPXO,
                NetworkClass.SOCKET)) {
            assertEquals(0.0, NetPluginLatency.reportedUs(c), 0, c.toString());
        }
    }

    private static ChannelPlan plan(Topology t, int hosts) {
        List<Gpu> ranks = t.gpus().stream().filter(g -> g.host() < hosts).toList();
        return ChannelSearch.search(t, ranks, NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
    }

    private static CostTable table(ChannelPlan p) {
        return NcclTuningModel.tune(new TuningInput(p.graphs(), p.nRanks(), p.nNodes(), p.minSm(), p.maxSm(), p.cpu(),
                p.nvlsSupport(), false, p.hasNvSwitch(), p.maxLocalRanks(), p.graphs().tree().pattern(),
                p.runtimeChannels(), NcclSettings.DEFAULTS, TuningConstants.of(NcclVersion.DEFAULT)));
    }

    @Test
    void multiNodeGraphsCarryIt() {
        Topology efa = ClusterLoader.load("p5.48xlargex2");
        assertEquals(NetworkClass.EFA, efa.networkClass());
        assertEquals(75.0, plan(efa, 2).graphs().ring().latencyInter(), 0);
        assertEquals(75.0, plan(efa, 2).graphs().tree().latencyInter(), 0);
        assertEquals(0.0, plan(efa, 1).graphs().ring().latencyInter(), 0, "one node: no network");
        assertEquals(0.0, plan(efa.withNetworkClass(NetworkClass.INFINIBAND), 2).graphs().ring().latencyInter(), 0);
    }

    /**
     * 2 x 8 H100, AllReduce. Ring: 2 (nNodes - 1) = 2 inter-node steps, each + 75 us (+ 75 more for Simple): +150 us
     * LL, +300 us Simple. Tree: 2 x log2(2) = 2 inter-node steps: the same. NVLSTree: 2 x log2(2) x interLat: +300 us.
     */
    @Test
    void ncclsLatencyGrowsPerInterNodeStep() {
        Topology efa = ClusterLoader.load("p5.48xlargex2");
        CostTable e = table(plan(efa, 2));
        CostTable ib = table(plan(efa.withNetworkClass(NetworkClass.INFINIBAND), 2));
        Collective ar = Collective.ALL_REDUCE;
        assertEquals(150.0, e.latency(ar, Algorithm.RING, Protocol.LL) - ib.latency(ar, Algorithm.RING, Protocol.LL),
                1e-6);
        assertEquals(300.0, e.latency(ar, Algorithm.RING, Protocol.SIMPLE)
                - ib.latency(ar, Algorithm.RING, Protocol.SIMPLE), 1e-6);
        assertEquals(150.0, e.latency(ar, Algorithm.TREE, Protocol.LL128)
                - ib.latency(ar, Algorithm.TREE, Protocol.LL128), 1e-6);
        assertEquals(300.0, e.latency(ar, Algorithm.TREE, Protocol.SIMPLE)
                - ib.latency(ar, Algorithm.TREE, Protocol.SIMPLE), 1e-6);
        assertEquals(300.0, e.latency(ar, Algorithm.NVLS_TREE, Protocol.SIMPLE)
                - ib.latency(ar, Algorithm.NVLS_TREE, Protocol.SIMPLE), 1e-6);
    }
}
