package dev.collsim.simulator.tuning;

import static dev.collsim.simulator.SimulatorFixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import org.junit.jupiter.api.Test;

/**
 * The table collsim's time reads ({@link TimeTable}): NCCL's choice keeps its release's NVLS graph, the time reads
 * the NVLS graph of NCCL 2.30.7's search with the carried release's formula. Expected values worked out by hand from
 * NCCL's source (github.com/NVIDIA/nccl tags named on each test).
 */
class TimeTableTest {

    private static CostTable tune(ChannelPlan plan, NcclVersion v) {
        NcclSettings s = NcclSettings.DEFAULTS;
        return NcclTuningModel.tune(new TuningInput(plan.graphs(), plan.nRanks(), plan.nNodes(), plan.minSm(),
                plan.maxSm(), plan.cpu(), plan.nvlsSupport(), s.collnetEnable(), plan.hasNvSwitch(),
                plan.maxLocalRanks(), plan.graphs().tree().pattern(), plan.runtimeChannels(), s,
                TuningConstants.of(v)));
    }

    private static double nvlsTree(CostTable t) {
        return t.bandwidth(Collective.ALL_REDUCE, Algorithm.NVLS_TREE, Protocol.SIMPLE);
    }

    /**
     * 2 x 8 B200 (HGX, 8 x 400 Gb/s NICs, one NVLS head per NIC), NCCL 2.26 (entry 2.25.1). Each GPU has 18 x 40.1
     * GB/s ({@code SM100_NVLINK_BW}, v2.28.9-1 src/graph/topo.h line 21) = 721.8 GB/s to the switch, and an NVLS
     * channel of 8 heads needs 9 x bw of it (src/graph/search.cc). Between nodes the sm100 array is {96, 48, ...} in
     * 2.28.9 (v2.28.9-1 search.cc line 987; 2.26.2's starts at 48, line 924): 9 x 96 does not fit, so bwIntra 48.
     * 2.30.7's is {96, 86, 80, 48, ...} (v2.30.7-1 line 996): 9 x 86 = 774 does not fit, 9 x 80 = 720 does, so 80.
     * NCCL 2.26.2's NVLSTree entry: 8 x min(48, 48) x 5/6 = 320 GB/s (v2.26.2-1 src/graph/tuning.cc lines 252,
     * 293). The time's: 2.28.9's formula on the 80 GB/s graph, 8 x min(80 x 0.74 x 7/8 x 2 = 103.6, 2 x 48 = 96,
     * perChMaxNVLSTreeBw 96) x 16/30 = 409.6 GB/s (v2.28.9-1 tuning.cc lines 138, 197, 290-299, 348).
     */
    @Test
    void blackwellBetweenNodesTimesTheFinerSearch() throws Exception {
        ChannelPlan p = plan("hgx-b200x2", NcclVersion.V2_25_1);
        assertEquals(2, p.nNodes());
        assertEquals(8, p.graphs().nvls().nChannels());
        assertEquals(48.0, p.graphs().nvls().bwIntra(), 1e-9, "the release's graph, which NCCL's choice reads");
        assertEquals(80.0, p.nvlsTimeGraph().bwIntra(), 1e-9, "2.30.7's search on the same node");
        assertEquals(48.0, p.nvlsTimeGraph().bwInter(), 1e-9, "the NICs' speed, 48 in both arrays");
        CostTable choice = tune(p, NcclVersion.V2_25_1);
        assertEquals(8 * 48 * 5.0 / 6, nvlsTree(choice), 1e-3);
        assertEquals(8 * 96 * 16.0 / 30, nvlsTree(TimeTable.of(choice, p.nvlsTimeGraph())), 1e-3);
        assertEquals(8 * Math.min(48 * 0.74 * 7 / 8 * 2, 96) * 16.0 / 30, nvlsTree(TimeTable.of(choice)), 1e-3,
                "on the release's own graph the intra-node term binds: 265.2 GB/s");
    }

    /**
     * 2.28.9 itself: the same graphs as above (its own array finds 48), so its time also reads 2.30.7's 80 GB/s graph;
     * 2.30.7 reads its own table.
     */
    @Test
    void carriedReleasesReadTheirOwnTableOnlyOnTheirOwnGraph() throws Exception {
        ChannelPlan p28 = plan("hgx-b200x2", NcclVersion.V2_28_9);
        CostTable t28 = tune(p28, NcclVersion.V2_28_9);
        assertEquals(8 * 96 * 16.0 / 30, nvlsTree(TimeTable.of(t28, p28.nvlsTimeGraph())), 1e-3);
        ChannelPlan p30 = plan("hgx-b200x2", NcclVersion.V2_30_7);
        assertEquals(p30.graphs().nvls(), p30.nvlsTimeGraph());
        CostTable t30 = tune(p30, NcclVersion.V2_30_7);
        assertSame(t30, TimeTable.of(t30, p30.nvlsTimeGraph()));
    }

    /**
     * 2 x 8 H100: the sm90 arrays are the same in every release carried ({48, 45, 42, 40, ...} between nodes,
     * v2.26.2-1 search.cc line 919, v2.30.7-1 line 1058), so the time's graph is the release's: 18 NVLinks x 20.6
     * GB/s / 9 heads' worth = 41.2, bwIntra 40.
     */
    @Test
    void hopperGraphIsTheReleasesOwn() throws Exception {
        for (NcclVersion v : new NcclVersion[] {NcclVersion.V2_25_1, NcclVersion.V2_28_9}) {
            ChannelPlan p = plan("dgx-h100x2", v);
            assertEquals(40.0, p.graphs().nvls().bwIntra(), 1e-9);
            assertEquals(p.graphs().nvls(), p.nvlsTimeGraph(), v.text());
        }
        ChannelPlan p = plan("dgx-h100x2", NcclVersion.V2_28_9);
        CostTable t = tune(p, NcclVersion.V2_28_9);
        assertSame(t, TimeTable.of(t, p.nvlsTimeGraph()));
    }
}
