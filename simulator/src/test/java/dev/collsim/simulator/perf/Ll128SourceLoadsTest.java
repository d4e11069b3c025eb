package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.AlgoChoice;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.ReleaseRules;
import dev.collsim.simulator.tuning.TuningConstants;
import dev.collsim.simulator.tuning.TuningInput;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import org.junit.jupiter.api.Test;

/**
 * Ring LL128 of NCCL 2.9 and older waits for its input's load before it loads the peer's lines (v2.9.9-1
 * {@code prims_ll128.h GenericOp}: {@code loadSrcToShmem128}, {@code __syncwarp}, {@code recvReduceSendCopy}); from
 * v2.10.3-1 {@code loadRegsBegin} overlaps them. Expected factors counted by hand from the LL128 ring functions of
 * v2.8.4-1 ({@code src/collectives/device/all_reduce.h}, {@code reduce_scatter.h}, {@code all_gather.h},
 * {@code reduce.h}): a primitive that reads its input and receives takes two round trips up to 2.9, one after.
 */
class Ll128SourceLoadsTest {

    private static final ReleaseRules R28 = new ReleaseRules(NcclVersion.V2_18_5, 8);

    @Test
    void releaseRule() {
        assertTrue(Ll128SourceLoads.ll128StagesInputBeforeReceive(new ReleaseRules(NcclVersion.V2_18_5, 4)));
        assertTrue(Ll128SourceLoads.ll128StagesInputBeforeReceive(new ReleaseRules(NcclVersion.V2_18_5, 9)));
        assertFalse(Ll128SourceLoads.ll128StagesInputBeforeReceive(new ReleaseRules(NcclVersion.V2_18_5, 10)));
        assertFalse(Ll128SourceLoads.ll128StagesInputBeforeReceive(new ReleaseRules(NcclVersion.V2_18_5)));
        assertFalse(Ll128SourceLoads.ll128StagesInputBeforeReceive(new ReleaseRules(NcclVersion.V2_30_7)));
    }

    /**
     * AllReduce on 4 ranks: send (1 trip), recvReduceSend x2 (2 each), recvReduceCopySend (2), recvCopySend x2 (1
     * each), recv (1): 10 trips up to 2.9 over 7 primitives; 8 ranks: 1 + 6x2 + 2 + 6 + 1 = 22 over 15.
     * ReduceScatter on 4 ranks: send 1 + recvReduceSend x2 (4) + recvReduceCopy 2 = 7 over 4. Reduce: the chain's
     * slowest stage, recvReduceSend or the root's recvReduceCopy, 2 over 1. AllGather: copySend, recvCopySend, recv
     * read their input or receive, never both: 1.
     */
    @Test
    void factorsCountedFromTheRingFunctions() {
        assertEquals(10.0 / 7.0, Ll128SourceLoads.timeFactor(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128, 4,
                R28), 1e-12);
        assertEquals(22.0 / 15.0, Ll128SourceLoads.timeFactor(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128,
                8, R28), 1e-12);
        assertEquals(7.0 / 4.0, Ll128SourceLoads.timeFactor(Collective.REDUCE_SCATTER, Algorithm.RING,
                Protocol.LL128, 4, R28), 1e-12);
        assertEquals(2.0, Ll128SourceLoads.timeFactor(Collective.REDUCE, Algorithm.RING, Protocol.LL128, 8, R28));
        assertEquals(1.0, Ll128SourceLoads.timeFactor(Collective.ALL_GATHER, Algorithm.RING, Protocol.LL128, 8, R28));
        assertEquals(1.0, Ll128SourceLoads.timeFactor(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL, 8, R28));
        assertEquals(1.0, Ll128SourceLoads.timeFactor(Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE, 8,
                R28));
        assertEquals(1.0, Ll128SourceLoads.timeFactor(Collective.ALL_REDUCE, Algorithm.TREE, Protocol.LL128, 8, R28),
                "Tree: the down half (30 % of the threads, 1 trip) binds in both releases: 1/0.3 > 2/0.7");
        assertEquals(1.0, Ll128SourceLoads.timeFactor(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128, 8,
                new ReleaseRules(NcclVersion.V2_18_5, 10)));
    }

    /**
     * One node of 4 A100 (NVSwitch): a Ring/LL128 AllReduce of 4 MiB under NCCL 2.8's rules moves its bytes 10/7
     * slower than under 2.18's on the same table entry (the data term, the estimate's time less its latency and
     * fill), one node having no network bound.
     */
    @Test
    void oneNodeDataTermOfA28RunIsTenSeventhsLonger() {
        Topology t = ClusterLoader.load("dgx-a100");
        ChannelPlan plan = ChannelSearch.search(t, t.gpus().subList(0, 4), NcclSettings.DEFAULTS,
                NcclVersion.V2_18_5);
        TuningConstants c = TuningConstants.of(NcclVersion.V2_18_5);
        long bytes = 4L << 20;
        PerfEstimate at218 = ringLl128(plan, table(plan, c), bytes);
        PerfEstimate at28 = ringLl128(plan, table(plan, c.forRun(8)), bytes);
        assertEquals(10.0 / 7.0, (at28.timeUs() - at28.latencyUs()) / (at218.timeUs() - at218.latencyUs()), 1e-9);
    }

    private static PerfEstimate ringLl128(ChannelPlan plan, CostTable table, long bytes) {
        double lat = table.latency(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128);
        double bw = table.bandwidth(Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128);
        AlgoChoice choice = new AlgoChoice(Algorithm.RING, Protocol.LL128, lat + bytes / (1000.0 * bw), lat, bw);
        return PerformanceModel.estimate(plan, NcclSettings.DEFAULTS, PerformanceParameters.DEFAULTS, table,
                Collective.ALL_REDUCE, choice, bytes, 0, 1.0);
    }

    private static CostTable table(ChannelPlan p, TuningConstants c) {
        return NcclTuningModel.tune(new TuningInput(p.graphs(), p.nRanks(), p.nNodes(), p.minSm(), p.maxSm(), p.cpu(),
                p.nvlsSupport(), false, p.hasNvSwitch(), p.maxLocalRanks(), p.graphs().tree().pattern(),
                p.runtimeChannels(), NcclSettings.DEFAULTS, c));
    }
}
