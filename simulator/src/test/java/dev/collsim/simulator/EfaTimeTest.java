package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * On EFA NCCL's estimate carries the latency aws-ofi-nccl reports and the time does not: the time charges the EFA
 * class's hop latency per network crossing instead. 2 x p4de (8 A100 per host), NCCL 2.17 modelled by the 2.18.5
 * entry, NCCL_PROTO=simple, AllReduce of 8 B on Tree/Simple. NCCL 2.18.5 {@code src/graph/tuning.cc}: baseLat
 * Tree/Simple 0 (line 57), hwLat NVLINK Tree/Simple 4 (line 67), NET Tree/Simple 14 (line 75); Tree latency
 * {@code 2 x ((ppn - 1) intraLat + log2i(nNodes) interLat)} with {@code interLat += latencyInter}, once more for
 * Simple: NCCL's estimate 2 x (7 x 4 + 14 + 2 x 75) = 384 us. The time: 2 x (7 x 4 + 14) = 84 us, plus
 * launchOverheadUs 1.5 and 2 crossings (up and down the 2-node tree) of 20 us each, each paid twice on A100 for
 * Simple (NCCL's GDR flush, {@code ncclTopoNeedFlush}: "Flush is required on Ampere and earlier"): 165.5 us, where
 * the p4de run
 * measures 157.9-174.2 us at 8 B-1 KiB (A-allreduce-2x8xA100-80GB-aws-p4de-efa-parallelcluster-nccl2.17-excerpt.txt
 * lines 35-42). The bytes' own time at 8 B is below 0.1 us.
 */
class EfaTimeTest {

    @Test
    void theTimeChargesEfasCrossingsNotThePluginsEstimate() {
        Topology t = ClusterLoader.load("p4de.24xlargex2");
        NcclPredictor p = new NcclPredictor(NcclVersion.V2_18_5, PerformanceParameters.DEFAULTS);
        PreparedCommunicator c = p.prepare(t, t.gpus(), NcclSettings.parse(Map.of("NCCL_PROTO", "simple")), 17);
        Prediction r = c.call(Collective.ALL_REDUCE, 8, DataType.FLOAT, RedOp.SUM).predict(PerformanceParameters.DEFAULTS);
        assertEquals(Algorithm.TREE, r.algorithm());
        assertEquals(Protocol.SIMPLE, r.protocol());
        assertEquals(384.0, r.ncclEstimateUs(), 0.1);
        assertEquals(1.5 + 84.0 + 2 * 2 * 20.0, r.timeUs(), 0.1);
    }

    /**
     * The same hosts and size with LL allowed (NCCL 2.18.5, no NCCL_PROTO; the plugin's NCCL_PROTO=simple is taken to
     * start at 2.18's plugins, so a 2.17 run keeps LL): Tree/LL, no flush, each crossing's 20 us once. NCCL 2.18.5
     * {@code src/graph/tuning.cc}: baseLat Tree/LL 6.8 (line 57), hwLat NVLINK Tree/LL 0.6 (line 67), NET Tree/LL 5.0
     * (line 75): 6.8 + 2 x (7 x 0.6 + 5.0) = 25.2 us, plus 1.5 and 2 x 20: 66.7 us (the LL send FIFO of an 8-byte
     * step adds well under 0.1 us).
     */
    @Test
    void llPaysEachCrossingOnce() {
        Topology t = ClusterLoader.load("p4de.24xlargex2");
        NcclPredictor p = new NcclPredictor(NcclVersion.V2_18_5, PerformanceParameters.DEFAULTS);
        PreparedCommunicator c = p.prepare(t, t.gpus(), NcclSettings.DEFAULTS, 17);
        Prediction r = c.call(Collective.ALL_REDUCE, 8, DataType.FLOAT, RedOp.SUM).predict(PerformanceParameters.DEFAULTS);
        assertEquals(Algorithm.TREE, r.algorithm());
        assertEquals(Protocol.LL, r.protocol());
        assertEquals(1.5 + 25.2 + 2 * 20.0, r.timeUs(), 0.1);
    }
}
