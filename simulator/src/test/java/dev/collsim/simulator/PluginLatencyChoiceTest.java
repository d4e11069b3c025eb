package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.NetPluginLatency;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import org.junit.jupiter.api.Test;

/**
 * A run of NCCL before 2.12 chooses without the net plugin's latency: {@code ncclNetProperties_t} has no
 * {@code latency} at v2.11.4-1 ({@code src/include/nccl_net.h}), and has it at v2.12.7-1 (line 34), where
 * {@code src/graph/search.cc} line 468 first copies it into the graph. The time carries the 75 us aws-ofi-nccl reports
 * on p4d under neither: it is NCCL's estimate, not the transport's time.
 */
class PluginLatencyChoiceTest {

    @Test
    void releasesFrom212ReadIt() {
        assertFalse(NetPluginLatency.readBy(8));
        assertFalse(NetPluginLatency.readBy(11));
        assertTrue(NetPluginLatency.readBy(12));
        assertTrue(NetPluginLatency.readBy(28));
    }

    /**
     * 2 x p4d (EFA, 8 A100 per host), AllReduce, 2.18's rules. NCCL's Tree latency is {@code 2 * ((ppn-1) intraLat +
     * log2i(nNodes) interLat)} with {@code interLat += latencyInter}, once more for Simple (v2.18.5-1
     * {@code src/graph/tuning.cc}): log2i(2) = 1, so the estimate without the plugin's 75 us is 2 x 75 = 150 us
     * lower for Tree/LL (1 KiB) and 2 x 150 = 300 us lower for Tree/Simple (1 GiB). Same choice, same time.
     */
    @Test
    void olderNcclEstimatesWithoutItAndTheTimeIsTheSame() {
        Topology t = ClusterLoader.load("p4d.24xlargex2");
        NcclPredictor p = new NcclPredictor(NcclVersion.V2_18_5, PerformanceParameters.DEFAULTS);
        PreparedCommunicator reads = p.prepare(t, t.gpus(), NcclSettings.DEFAULTS, 12);
        PreparedCommunicator older = p.prepare(t, t.gpus(), NcclSettings.DEFAULTS, 11);
        long[] sizes = {1024, 1L << 30};
        Protocol[] protos = {Protocol.LL, Protocol.SIMPLE};
        double[] less = {150.0, 300.0};
        for (int i = 0; i < sizes.length; i++) {
            Prediction a = reads.call(Collective.ALL_REDUCE, sizes[i], DataType.FLOAT, RedOp.SUM)
                    .predict(PerformanceParameters.DEFAULTS);
            Prediction b = older.call(Collective.ALL_REDUCE, sizes[i], DataType.FLOAT, RedOp.SUM)
                    .predict(PerformanceParameters.DEFAULTS);
            assertEquals(Algorithm.TREE, b.algorithm());
            assertEquals(protos[i], b.protocol());
            assertEquals(a.protocol(), b.protocol());
            assertEquals(less[i], a.ncclEstimateUs() - b.ncclEstimateUs(), 1e-6);
            assertEquals(a.timeUs(), b.timeUs(), 1e-9);
        }
    }
}
