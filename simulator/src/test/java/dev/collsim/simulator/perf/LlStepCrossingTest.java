package dev.collsim.simulator.perf;

import static dev.collsim.simulator.SimulatorFixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.CpuKind;
import dev.collsim.topology.GraphPattern;
import dev.collsim.simulator.tuning.GraphSet;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.simulator.tuning.TuningConstants;
import dev.collsim.simulator.tuning.TuningInput;
import dev.collsim.topology.PathType;
import org.junit.jupiter.api.Test;

/** An LL step's crossing of each network hop at {@link LlStepCrossing#LINE_GBPS} ({@link LlStepCrossing#extraUs}). */
class LlStepCrossingTest {

    /**
     * 2 DGX H100, 16 ranks. Tree/LL AllReduce of 8 KiB on 2 channels: 4096 data bytes per channel in one step, 8192
     * line bytes; 2 x log2(2) = 2 hops: 2 x 8192 / (1000 x 2.81) = 5.8306 us. Ring/LL AllReduce of 64 KiB on 2
     * channels: a ring step of 65536 / (2 x 16) = 2048 data bytes, 4096 line bytes, over 2 nNodes = 4 crossings (8
     * ranks per node): 4 x 4096 / 2810 = 5.8306 us. A Tree/LL AllGather has no tree (nothing to charge here), LL128 and
     * Simple keep their FIFO in GPU memory, one node has no network.
     */
    @Test
    void eachHopCarriesOneStepsLineBytes() throws Exception {
        ChannelPlan two = plan("dgx-h100x2");
        NcclSettings s = NcclSettings.DEFAULTS;
        assertEquals(2 * 8192 / 2810.0, LlStepCrossing.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.TREE,
                Protocol.LL, 8192, 2, 2), 1e-9);
        assertEquals(5.8306, LlStepCrossing.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL,
                65536, 2, 2), 1e-4);
        assertEquals(0, LlStepCrossing.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.TREE, Protocol.LL128,
                8192, 2, 2), 0);
        assertEquals(0, LlStepCrossing.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE,
                65536, 2, 2), 0);
        assertEquals(0, LlStepCrossing.extraUs(plan("dgx-h100"), s, Collective.ALL_REDUCE, Algorithm.RING,
                Protocol.LL, 65536, 2, 2), 0);
    }

    /**
     * A rooted Ring on one channel runs ahead into the next call (RingLoopFill#rootedRunsAhead): nothing charged. A
     * Ring AllGather of 16 KiB on 16 ranks, one channel (below 512 x 8 x 16 B): a step of 16384 / 16 = 1024 data
     * bytes, 2048 line bytes, over nNodes = 2 crossings: 2 x 2048 / 2810 = 1.4577 us.
     */
    @Test
    void rootedRingsThatRunAheadPayNothing() throws Exception {
        ChannelPlan two = plan("dgx-h100x2");
        NcclSettings s = NcclSettings.DEFAULTS;
        assertEquals(0, LlStepCrossing.extraUs(two, s, Collective.BROADCAST, Algorithm.RING, Protocol.LL, 16384, 1,
                1), 0);
        assertEquals(0, LlStepCrossing.extraUs(two, s, Collective.REDUCE, Algorithm.RING, Protocol.LL, 16384, 1, 1),
                0);
        assertEquals(1.4577, LlStepCrossing.extraUs(two, s, Collective.ALL_GATHER, Algorithm.RING, Protocol.LL,
                16384, 1, 1), 1e-4);
    }

    /**
     * A Tree step is charged up to NCCL's per-channel threshold step, 512 threads x 8 B = 4096 data bytes: 2 DGX
     * H100 (16 runtime channels), Tree/LL AllReduce of 128 KiB on 16 channels, 8192 data bytes per channel, is
     * charged as the 64 KiB call's 4096: 2 hops x 8192 line bytes / 2810 = 5.8306 us (uncapped it would be twice
     * that). A Ring step is not capped: Ring/LL AllReduce of 256 KiB on 2 channels, 262144 / (2 x 16) = 8192 data
     * bytes, 16384 line bytes, 4 crossings: 4 x 16384 / 2810 = 23.3225 us.
     */
    @Test
    void aTreeStepIsChargedUpToTheThresholdStep() throws Exception {
        ChannelPlan two = plan("dgx-h100x2");
        NcclSettings s = NcclSettings.DEFAULTS;
        assertEquals(5.8306, LlStepCrossing.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.TREE, Protocol.LL,
                131072, 16, 16), 1e-4);
        assertEquals(5.8306, LlStepCrossing.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.TREE, Protocol.LL,
                65536, 16, 16), 1e-4);
        assertEquals(23.3225, LlStepCrossing.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL,
                262144, 2, 2), 1e-4);
    }

    /**
     * NCCL 2.30.7's LL tree correction row ({@code src/graph/tuning.cc treeCorrectionFactor}, index log2(nBytes /
     * 64)): .7 at 32 KiB (index 9), .6 at 64 KiB (10), .5 at 128 KiB (11), .4 at 256 KiB (12). On 2 DGX H100 (16
     * runtime channels, so every channel carries 4096 B from 16 x 4096 = 64 KiB) a Tree/LL call keeps .6 past 64 KiB;
     * one host and Tree/LL128 (row 2: index 11 .6, index 12 .6) follow NCCL's row.
     */
    @Test
    void theTreeCorrectionIsHeldPastTheFullChannelStep() throws Exception {
        ChannelPlan two = plan("dgx-h100x2");
        NcclSettings s = NcclSettings.DEFAULTS;
        CostTable table = NcclTuningModel.tune(twoNodes());
        Collective ar = Collective.ALL_REDUCE;
        assertEquals(0.7, LlStepCrossing.treeCorrection(table, two, s, ar, Algorithm.TREE, Protocol.LL, 32768), 1e-9);
        assertEquals(0.6, LlStepCrossing.treeCorrection(table, two, s, ar, Algorithm.TREE, Protocol.LL, 65536), 1e-9);
        assertEquals(0.6, LlStepCrossing.treeCorrection(table, two, s, ar, Algorithm.TREE, Protocol.LL, 131072),
                1e-9);
        assertEquals(0.6, LlStepCrossing.treeCorrection(table, two, s, ar, Algorithm.TREE, Protocol.LL, 262144),
                1e-9);
        assertEquals(0.5, LlStepCrossing.treeCorrection(table, plan("dgx-h100"), s, ar, Algorithm.TREE, Protocol.LL,
                131072), 1e-9);
    }

    /** @return a two-node tuning input (16 ranks, sm90, 8 tree channels); only its release's correction row is read */
    private static TuningInput twoNodes() {
        GraphSummary ring = new GraphSummary(GraphPattern.RING, 8, 48, 48, PathType.NVL, PathType.PIX, 0, true);
        GraphSummary tree = new GraphSummary(GraphPattern.BALANCED_TREE, 8, 48, 48, PathType.NVL, PathType.PIX, 0,
                true);
        GraphSet g = new GraphSet(ring, tree, GraphSummary.none(GraphPattern.NVLS),
                GraphSummary.none(GraphPattern.COLLNET_DIRECT), GraphSummary.none(GraphPattern.TREE));
        return new TuningInput(g, 16, 2, 90, 90, CpuKind.INTEL_X86, false, false, true, 8,
                GraphPattern.BALANCED_TREE, 16, NcclSettings.DEFAULTS, TuningConstants.NCCL_2_30_7);
    }
}
