package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import org.junit.jupiter.api.Test;

/**
 * NCCL's search speed arrays by release, read from github.com/NVIDIA/nccl {@code src/graph/search.cc} at the tags
 * named, and what they do to a 2 x 8 B200 communicator's graphs and NCCL's choice.
 */
class SearchSpeedsTest {

    /**
     * sm100 between nodes: v2.24.3-1 has no sm100 array and takes sm90's (lines 993-996: {@code ccMin >= 90 ?
     * sm90SpeedArrayInter}); v2.26.2-1 line 924 starts {48.0, 45.0, 42.0}; v2.27.3-1 line 913 {47.9, 45.0, 42.0};
     * v2.28.9-1 line 987 {96.0, 48.0, 45.1}; v2.30.7-1 line 1064 {96.0, 86.0, 80.0, 48.0}. sm90 between nodes is
     * {48.0, 45.0, 42.0, 40.0, ...} at every one of them (v2.26.2-1 line 919, v2.30.7-1 line 1058).
     */
    @Test
    void sm100InterArraysByRelease() {
        assertEquals(48, SearchSpeeds.of(100, true, NcclVersion.V2_23_4)[0]);
        assertEquals(45, SearchSpeeds.of(100, true, NcclVersion.V2_23_4)[1]);
        assertEquals(60, SearchSpeeds.of(100, false, NcclVersion.V2_23_4)[0], "sm90's intra array");
        assertArrayEquals(new double[] {48, 45, 42}, head(SearchSpeeds.of(100, true, NcclVersion.V2_25_1)));
        assertArrayEquals(new double[] {47.9, 45, 42}, head(SearchSpeeds.of(100, true, NcclVersion.V2_27_3)));
        assertArrayEquals(new double[] {96, 48, 45.1}, head(SearchSpeeds.of(100, true, NcclVersion.V2_28_9)));
        assertArrayEquals(new double[] {96, 86, 80}, head(SearchSpeeds.of(100, true, NcclVersion.V2_30_7)));
        for (NcclVersion v : NcclVersion.values()) {
            assertArrayEquals(new double[] {48, 45, 42}, head(SearchSpeeds.of(90, true, v)), v.text());
        }
    }

    /**
     * sm100 on one node: {90, 80, 70, 60, 50, 40, 30, 24, 20, 19} in 2.25.1 and 2.26.2 (v2.26.2-1 line 923; 10
     * entries), 18 added in 2.27.3 (v2.27.3-1 line 912), 45 added by 2.30.7 (v2.30.7-1 line 1063).
     */
    @Test
    void sm100IntraArraysByRelease() {
        assertEquals(10, SearchSpeeds.of(100, false, NcclVersion.V2_25_1).length);
        assertEquals(11, SearchSpeeds.of(100, false, NcclVersion.V2_27_3).length);
        assertEquals(12, SearchSpeeds.of(100, false, NcclVersion.V2_30_7).length);
        assertEquals(45, SearchSpeeds.of(100, false, NcclVersion.V2_30_7)[5]);
    }

    /**
     * 2 x 8 B200 under NCCL 2.26 (entry 2.25.1): the tree search starts and ends pass 1 at the array's first entry,
     * 48, and pass 2 raises bwIntra only to a faster entry of the array, of which 2.26 has none (src/graph/search.cc
     * {@code if (time != 0 && speedIndex > 0)}), so the tree graph stays 8 x 48/48; 2.28.9's array lets it reach 96.
     * NCCL 2.26.2's entries (src/graph/tuning.cc): Tree/Simple AllReduce min(0.92 x 8 x 48, 8 x perChMaxTreeBw
     * 2 x 41.4) x 0.5 = 176.64 GB/s (lines 174, 258, 294); NVLSTree 8 x min(48, 48) x 5/6 =
     * 320 GB/s, so at 2 GiB NCCL 2.26 runs NVLSTree, where on 2.28.9's graph Tree/Simple (0.5 x min(0.92 x 768,
     * 662.4) = 331.2 GB/s) wins from 512 MiB.
     */
    @Test
    void b200TreeGraphUnder226() throws Exception {
        Topology t = ClusterLoader.load("hgx-b200x2");
        ChannelPlan p = ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_25_1);
        assertEquals(48.0, p.graphs().tree().bwIntra(), 1e-9);
        assertEquals(8, p.graphs().tree().nChannels());
        ChannelPlan p28 = ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_28_9);
        assertEquals(96.0, p28.graphs().tree().bwIntra(), 1e-9);
        Prediction at2g = new NcclPredictor(NcclVersion.V2_25_1, PerformanceParameters.DEFAULTS).predict(
                new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, 2L << 30, DataType.FLOAT, RedOp.SUM,
                        NcclSettings.DEFAULTS));
        assertEquals(Algorithm.NVLS_TREE, at2g.algorithm());
        assertEquals(25 + 2 * 14 + (2L << 30) / (1000.0 * 320), at2g.ncclEstimateUs(), 0.01,
                "NCCL 2.26.2: NVLink NVLSTree 25 us + 2 x log2(2) x NET NVLSTree 14 us (tuning.cc lines 133, 141)");
    }

    private static double[] head(double[] a) {
        return new double[] {a[0], a[1], a[2]};
    }
}
