package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.TestClusters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.Topology;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL's per-link NVLink figure of sm70/sm80 by release and the search it steers, each value read by hand from NCCL's
 * {@code src/graph/topo.h} and {@code src/graph/search.cc} at the tag named.
 */
class ReleaseNvlinkFigureTest {

    /**
     * topo.h: v2.8.4-1 line 17 {@code SM80_NVLINK_WIDTH 21.0} (line 16 SM70 21.0, v2.9.9-1 the same); v2.10.3-1 lines
     * 15-16 {@code SM70/SM80_NVLINK_WIDTH 22.0}; v2.17.1-1 lines 15-16 {@code SM70/SM80_NVLINK_BW 22.0}; v2.18.1-1
     * lines 15-16 20.0; sm86 12.0 and sm60 18.0 at v2.8.4-1 (lines 18, 15) and v2.17.1-1 (lines 17, 14); v2.23.4-1
     * line 17 {@code SM90_NVLINK_BW 20.6}.
     */
    @Test
    void figureByRelease() {
        assertEquals(21.0, NcclBandwidths.nvlinkPerLink(80, 8), 1e-12);
        assertEquals(21.0, NcclBandwidths.nvlinkPerLink(70, 9), 1e-12);
        assertEquals(22.0, NcclBandwidths.nvlinkPerLink(70, 10), 1e-12);
        assertEquals(22.0, NcclBandwidths.nvlinkPerLink(80, 17), 1e-12);
        assertEquals(20.0, NcclBandwidths.nvlinkPerLink(80, 18), 1e-12);
        assertEquals(20.0, NcclBandwidths.nvlinkPerLink(70, 28), 1e-12);
        assertEquals(12.0, NcclBandwidths.nvlinkPerLink(86, 8), 1e-12);
        assertEquals(12.0, NcclBandwidths.nvlinkPerLink(86, 17), 1e-12);
        assertEquals(18.0, NcclBandwidths.nvlinkPerLink(60, 10), 1e-12);
        assertEquals(20.6, NcclBandwidths.nvlinkPerLink(90, 23), 1e-12);
    }

    /**
     * search.cc speed arrays: v2.8.4-1 line 651 {42, 30, 24, 21, ...} for intra and inter; v2.10.3-1 lines 710-711
     * intra {44, 30, 22, ...}, inter {48, 30, 24, 22, ...}; v2.18.5-1 line 807 intra {40, 30, 20, ...}.
     */
    @Test
    void speedArraysFollowTheFigure() {
        assertEquals(42.0, SearchSpeeds.of(80, false, NcclVersion.V2_8_4)[0], 1e-12);
        assertEquals(21.0, SearchSpeeds.of(70, true, NcclVersion.V2_8_4)[3], 1e-12);
        assertEquals(44.0, SearchSpeeds.of(80, false, NcclVersion.V2_10_3)[0], 1e-12);
        assertEquals(22.0, SearchSpeeds.of(80, true, NcclVersion.V2_10_3)[3], 1e-12);
        assertEquals(40.0, SearchSpeeds.of(80, false, NcclVersion.V2_18_5)[0], 1e-12);
    }

    private static ChannelPlan plan(NcclVersion v) {
        Topology t = TestClusters.cluster(TestClusters.DGX_A100, 1);
        return ChannelSearch.search(t, t.gpus(), NcclSettings.parse(Map.of()), v);
    }

    /**
     * DGX A100, 12 NVLinks per GPU to the NVSwitches. 2.8: totalBw 12 x 21 = 252; the first speed 42 <= 252 fits 6
     * channels (6 x 42 = 252 = totalBw: the search stops), dup (42 >= 25) gives 12 x 21 (the 252 GB/s paths of the
     * NCCL 2.8/2.9 HGX A100 log in github.com/NVIDIA/nccl-tests issue 100, 24 runtime channels). 2.10: 12 x 22 = 264,
     * 6 x 44 = 264, dup 12 x 22. 2.18: 6 x 40 = 240, dup 12 x 20. NCCL's Ring busBw (nChannels x bwIntra) goes 252,
     * 264, 240 GB/s; the rate collsim times a GPU's NVLinks with stays 12 x 20 (the P2P path figure). A 2.16 run
     * under the 2.18.5 entry searches with 2.16's 22 and intra {44, 30, 22, ...} (v2.16.5-1 search.cc line 729): 12 x
     * 22.
     */
    @Test
    void dgxA100RingGraphByRelease() {
        ChannelPlan p28 = plan(NcclVersion.V2_8_4);
        assertEquals(12, p28.graphs().ring().nChannels());
        assertEquals(21.0, p28.graphs().ring().bwIntra(), 1e-9);
        ChannelPlan p210 = plan(NcclVersion.V2_10_3);
        assertEquals(12, p210.graphs().ring().nChannels());
        assertEquals(22.0, p210.graphs().ring().bwIntra(), 1e-9);
        ChannelPlan p218 = plan(NcclVersion.V2_18_5);
        assertEquals(12, p218.graphs().ring().nChannels());
        assertEquals(20.0, p218.graphs().ring().bwIntra(), 1e-9);
        Topology t = TestClusters.cluster(TestClusters.DGX_A100, 1);
        ChannelPlan p216 = ChannelSearch.search(t, t.gpus(), NcclSettings.parse(Map.of()), NcclVersion.V2_18_5, 16);
        assertEquals(12, p216.graphs().ring().nChannels());
        assertEquals(22.0, p216.graphs().ring().bwIntra(), 1e-9);
        assertEquals(240.0, p28.gpuPathBw(), 1e-9);
        assertEquals(240.0, p210.gpuPathBw(), 1e-9);
    }
}
