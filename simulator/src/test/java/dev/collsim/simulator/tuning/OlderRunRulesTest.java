package dev.collsim.simulator.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import org.junit.jupiter.api.Test;

/**
 * A run older than its entry (NCCL 2.12-2.17 under the 2.18.5 entry, 2.4-2.7 under 2.8.4; {@code forRun} lets any
 * entry take an older run) keeps the rules collsim knows of its own release: the ring AllReduce latency counts {@code
 * nInterSteps = 2*(nNodes-1)} network steps before 2.12 (v2.8.4-1 {@code src/graph/tuning.cc} line 112, v2.11.4-1 line
 * 115) and {@code 2*nNodes} from v2.12.7-1 (line 114) to 2.22.
 */
class OlderRunRulesTest {

    @Test
    void ringInterStepsBefore212() {
        ReleaseRules entry = new ReleaseRules(NcclVersion.V2_18_5);
        assertEquals(8, entry.ringInterSteps(true, 4));
        assertEquals(8, new ReleaseRules(NcclVersion.V2_18_5, 12).ringInterSteps(true, 4));
        assertEquals(6, new ReleaseRules(NcclVersion.V2_18_5, 11).ringInterSteps(true, 4));
        assertEquals(6, new ReleaseRules(NcclVersion.V2_18_5, 8).ringInterSteps(true, 4));
        assertEquals(3, new ReleaseRules(NcclVersion.V2_18_5, 8).ringInterSteps(false, 4), "AllGather: nNodes-1");
        assertEquals(18, new ReleaseRules(NcclVersion.V2_18_5, 30).runMinor(), "never newer than the entry");
        assertSame(TuningConstants.of(NcclVersion.V2_18_5), TuningConstants.of(NcclVersion.V2_18_5).forRun(18));
        assertEquals(8, TuningConstants.of(NcclVersion.V2_18_5).forRun(8).rules().runMinor());
    }

    /**
     * 2 x p4d on InfiniBand (no plugin latency), AllReduce Ring/LL under 2.18.5's formula
     * {@code (nsteps - nInterSteps) intraLat + nInterSteps interLat} with {@code intraLat = max(hwLat[NVLINK][RING][LL]
     * 0.6, netOverhead 1.0 on Intel)} and {@code interLat = hwLat[NET][RING][LL] 2.7} (v2.18.5-1 lines 203-224): two
     * fewer network steps (2 instead of 4) make NCCL 2.8's latency 2 x (2.7 - 1.0) = 3.4 us lower.
     */
    @Test
    void nccl28RingLatencyHasTwoFewerNetworkSteps() {
        Topology t = ClusterLoader.load("p4d.24xlargex2").withNetworkClass(NetworkClass.INFINIBAND);
        ChannelPlan p = ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_18_5);
        TuningConstants c = TuningConstants.of(NcclVersion.V2_18_5);
        double at218 = table(p, c).latency(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL);
        double at28 = table(p, c.forRun(8)).latency(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL);
        assertEquals(3.4, at218 - at28, 1e-6);
    }

    private static CostTable table(ChannelPlan p, TuningConstants c) {
        return NcclTuningModel.tune(new TuningInput(p.graphs(), p.nRanks(), p.nNodes(), p.minSm(), p.maxSm(), p.cpu(),
                p.nvlsSupport(), false, p.hasNvSwitch(), p.maxLocalRanks(), p.graphs().tree().pattern(),
                p.runtimeChannels(), NcclSettings.DEFAULTS, c));
    }
}
