package dev.collsim.simulator.tuning;

import dev.collsim.topology.GraphPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.PathType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The LL and LL128 latencies the time charges a run of NCCL 2.8-2.11 on sm80, and the Tree/Simple one of 2.19-2.22
 * ({@link RemeasuredLatency}, read through
 * {@link TimeTable}), against NCCL's own, which its choice keeps. Expected figures by hand from {@code git show
 * v2.8.4-1:src/graph/tuning.cc} (baseLat line 56, hwLat lines 63-70, LL x1.8 line 141, Tree latency lines 154-156)
 * and {@code git show v2.18.5-1:src/graph/tuning.cc} (baseLat lines 56-57, hwLat lines 65-77); the measured times
 * quoted are lines of the validation data files named.
 */
class RemeasuredLatencyTest {

    private static final Collective AR = Collective.ALL_REDUCE;

    /** nNodes hosts of ppn GPUs of compute capability sm over NVLink (one host: no network), latencyInter 0. */
    private static TuningInput nodes(int nNodes, int ppn, int sm, NcclVersion v) {
        PathType inter = nNodes == 1 ? PathType.NVL : PathType.PXB;
        GraphSummary ring = nNodes == 1 ? GraphSummary.singleHost(GraphPattern.RING, 12, 20, PathType.NVL)
                : new GraphSummary(GraphPattern.RING, 12, 20, 20, PathType.NVL, inter, 0, true);
        GraphSummary tree = nNodes == 1 ? GraphSummary.singleHost(GraphPattern.BALANCED_TREE, 12, 20, PathType.NVL)
                : new GraphSummary(GraphPattern.BALANCED_TREE, 12, 20, 20, PathType.NVL, inter, 0, true);
        GraphSet g = TuningFixtures.ringAndTree(ring, tree);
        return new TuningInput(g, nNodes * ppn, nNodes, sm, sm, CpuKind.INTEL_X86, false, false, false, ppn,
                GraphPattern.BALANCED_TREE, 24, NcclSettings.parse(Map.of()), TuningConstants.of(v));
    }

    private static double choiceLatency(TuningInput in, Algorithm a, Protocol p) {
        return NcclTuningModel.tune(in).latency(AR, a, p);
    }

    private static double timeLatency(TuningInput in, Algorithm a, Protocol p) {
        return TimeTable.of(NcclTuningModel.tune(in)).latency(AR, a, p);
    }

    /**
     * One node of A100 (sm80), 2.8.4, Ring/LL AllReduce, 2 (n - 1) NVLink steps. NCCL's: 3.6 + 6 x .47 = 6.42 us on 4
     * ranks, 3.6 + 14 x .47 = 10.18 on 8. The time's: 6.6 + 6 x 0.6 = 10.2 and 6.6 + 14 x 0.6 = 15.0; with the launch
     * overhead's 1.5, 11.7 and 16.5 against 11.92 and 17.03 measured at 8 B
     * (A-allreduce-1x4-1x8xA100-40GB-abci-anode-nccl2.8.txt lines 24, 67).
     */
    @Test
    void oneAmpereNodeRingLlReadsTheRemeasuredTable() {
        TuningInput four = nodes(1, 4, 80, NcclVersion.V2_8_4);
        assertEquals(6.42, choiceLatency(four, Algorithm.RING, Protocol.LL), 1e-6);
        assertEquals(10.2, timeLatency(four, Algorithm.RING, Protocol.LL), 1e-6);
        TuningInput eight = nodes(1, 8, 80, NcclVersion.V2_8_4);
        assertEquals(10.18, choiceLatency(eight, Algorithm.RING, Protocol.LL), 1e-6);
        assertEquals(15.0, timeLatency(eight, Algorithm.RING, Protocol.LL), 1e-6);
        assertEquals(17.03, 1.5 + timeLatency(eight, Algorithm.RING, Protocol.LL), 0.04 * 17.03);
    }

    /**
     * 2 and 16 nodes of 8 A100, 2.8.4, Tree/LL: {@code baseLat + 2 ((ppn - 1) intraLat x 1.8 + log2(nNodes)
     * interLat)}, interLat hwLat[NET][Tree][LL] 5.0 in both releases. NCCL's: 4.4 + 2 (7 x .52 x 1.8 + 5.0) = 27.504
     * on 2 nodes. The time's, the release's formula (x1.8 kept) on 2.18.5's figures: 6.8 + 2 (7 x 0.6 x 1.8 + 5.0) =
     * 31.92 on 2 nodes, 6.8 + 2 (7.56 + 4 x 5.0) = 61.92 on 16; with 1.5 of launch 33.42 and 63.42 against 32.62 and
     * 61.68 measured at 8 B (A-allreduce-2to16x8xA100-40GB-abci-anode-hdr-nccl2.8.txt lines 36, 365). Tree/LL128:
     * 4.4 + 2 (7 x 1.25 + 8.5) = 38.9 for NCCL, 14.0 + 34.5 = 48.5 for the time.
     */
    @Test
    void ampereNodesTreeKeepTheReleasesFormula() {
        TuningInput two = nodes(2, 8, 80, NcclVersion.V2_8_4);
        assertEquals(27.504, choiceLatency(two, Algorithm.TREE, Protocol.LL), 1e-6);
        assertEquals(31.92, timeLatency(two, Algorithm.TREE, Protocol.LL), 1e-6);
        assertEquals(38.9, choiceLatency(two, Algorithm.TREE, Protocol.LL128), 1e-6);
        assertEquals(48.5, timeLatency(two, Algorithm.TREE, Protocol.LL128), 1e-6);
        TuningInput sixteen = nodes(16, 8, 80, NcclVersion.V2_8_4);
        assertEquals(61.92, timeLatency(sixteen, Algorithm.TREE, Protocol.LL), 1e-6);
        assertEquals(61.68, 1.5 + timeLatency(sixteen, Algorithm.TREE, Protocol.LL), 0.04 * 61.68);
    }

    /**
     * V100 (sm70) keeps the release's own table, which was measured on Volta: 4 ranks Ring/LL 6.42 us in both tables;
     * with 1.5 of launch 7.92 against 8.19 measured at 8 B (A-allreduce-1x4xV100-16GB-abci-vnode-nccl2.8.txt line
     * 28), where 2.18.5's figures would give 11.7.
     */
    @Test
    void voltaKeepsTheReleasesTable() {
        TuningInput in = nodes(1, 4, 70, NcclVersion.V2_8_4);
        assertFalse(RemeasuredLatency.applies(in));
        assertEquals(6.42, timeLatency(in, Algorithm.RING, Protocol.LL), 1e-6);
        assertEquals(8.19, 1.5 + timeLatency(in, Algorithm.RING, Protocol.LL), 0.04 * 8.19);
    }

    /**
     * Ring/Simple keeps the release's figures (8.4 + 6 x 3.4 = 28.8 us on 4 A100, lines 56, 65; 2.18.5 has the same;
     * Tree/Simple, the chunk figure, is the next test's); 2.10.3 is re-measured as 2.8.4 (same LL tables, v2.10.3-1 lines 56, 65); 2.18.5 reads its own table
     * (Ring/LL 6.6 + 6 x 0.6 = 10.2 in both).
     */
    @Test
    void ringSimpleOfEarlyReleasesKeepsItsFigures() {
        TuningInput in = nodes(1, 4, 80, NcclVersion.V2_8_4);
        assertEquals(28.8, timeLatency(in, Algorithm.RING, Protocol.SIMPLE), 1e-6);
        assertEquals(choiceLatency(in, Algorithm.RING, Protocol.SIMPLE), 28.8, 1e-6);
        TuningInput v210 = nodes(1, 4, 80, NcclVersion.V2_10_3);
        assertTrue(RemeasuredLatency.applies(v210));
        assertEquals(10.2, timeLatency(v210, Algorithm.RING, Protocol.LL), 1e-6);
        TuningInput v218 = nodes(1, 4, 80, NcclVersion.V2_18_5);
        assertFalse(RemeasuredLatency.applies(v218));
        assertEquals(10.2, choiceLatency(v218, Algorithm.RING, Protocol.LL), 1e-6);
        assertEquals(10.2, timeLatency(v218, Algorithm.RING, Protocol.LL), 1e-6);
    }

    /**
     * The base the time reads ({@link TimeTable#baseLatency}, which {@code perf.PcieLl128Base} lowers on PCIe paths):
     * Ring/LL128 14.0 and Tree/LL128 14.0 us on sm80 (v2.18.5-1 line 57), the release's 10.0 and 4.4 on sm70
     * (v2.8.4-1 line 56); Ring/Simple 8.4 in both.
     */
    @Test
    void baseLatencyTheTimeReads() {
        TuningInput a100 = nodes(1, 4, 80, NcclVersion.V2_8_4);
        TuningInput v100 = nodes(1, 4, 70, NcclVersion.V2_8_4);
        assertEquals(14.0, TimeTable.baseLatency(a100, Algorithm.RING, Protocol.LL128), 1e-6);
        assertEquals(14.0, TimeTable.baseLatency(a100, Algorithm.TREE, Protocol.LL128), 1e-6);
        assertEquals(10.0, TimeTable.baseLatency(v100, Algorithm.RING, Protocol.LL128), 1e-6);
        assertEquals(4.4, TimeTable.baseLatency(v100, Algorithm.TREE, Protocol.LL128), 1e-6);
        assertEquals(8.4, TimeTable.baseLatency(a100, Algorithm.RING, Protocol.SIMPLE), 1e-6);
    }

    /** A rooted ring on one channel pays one hop of the time's table: 6.6 + 0.6 = 7.2 us on A100 (2.8.4's 4.07). */
    @Test
    void rootedRingOneHopReadsTheTimesTable() {
        assertEquals(7.2, RootedRingLatency.rootedRingOneHopLatency(nodes(1, 4, 80, NcclVersion.V2_8_4), Protocol.LL),
                1e-6);
        assertEquals(4.07, RootedRingLatency.rootedRingOneHopLatency(nodes(1, 4, 70, NcclVersion.V2_8_4), Protocol.LL),
                1e-6);
    }

    /**
     * NCCL 2.19-2.22 set Tree/Simple hwLat to 28 us on every link (v2.19.4-1 {@code src/graph/tuning.cc} lines 67,
     * 71, 75, base 0 line 57), as 2.8.4 did (v2.8.4-1 lines 65-69, base 0 line 56, "the latency a 256kB chunk" line
     * 61); 2.18.5 has NVLink 4, NET 14, base 0 (v2.18.5-1 lines 57, 67, 75). Tree latency (v2.19.4-1 line 233,
     * v2.8.4-1 lines 153-155; the x1.8 of 2.8 is LL's only): 2 x ((nRanks/nNodes - 1) x intraLat + log2i(nNodes) x
     * interLat). On 2 x 8 GPUs NCCL's choice reads 2 x (7 x 28 + 1 x 28) = 448 us; the time reads 2.18.5's 2 x (7 x
     * 4 + 1 x 14) = 84 us, on A100 and V100 alike (the 28 is a chunk's trip on any GPU; the p4de EFA hosts run 8 B in
     * 174.2 us under 2.17.1 and 164.3 under 2.20.3: lines 34 and 13 of the two p4de files). The release's other
     * entries stay (Ring/LL: 6.6 + 0.6 per NVLink step in both tables); 2.8.4's LL on Volta stays its own (0.47 a
     * step), the re-measured LL table being Ampere's.
     */
    @Test
    void treeSimpleOfChunkFigureReleasesReadsTheHopFigures() {
        TuningInput a100 = nodes(2, 8, 80, NcclVersion.V2_19_4);
        assertFalse(RemeasuredLatency.applies(a100));
        assertEquals(448.0, choiceLatency(a100, Algorithm.TREE, Protocol.SIMPLE), 1e-6);
        assertEquals(84.0, timeLatency(a100, Algorithm.TREE, Protocol.SIMPLE), 1e-6);
        assertTrue(RemeasuredLatency.replaces(a100, Algorithm.TREE, Protocol.SIMPLE));
        assertEquals(choiceLatency(a100, Algorithm.RING, Protocol.LL), timeLatency(a100, Algorithm.RING, Protocol.LL),
                1e-9);
        TuningInput v100 = nodes(2, 8, 70, NcclVersion.V2_19_4);
        assertEquals(448.0, choiceLatency(v100, Algorithm.TREE, Protocol.SIMPLE), 1e-6);
        assertEquals(84.0, timeLatency(v100, Algorithm.TREE, Protocol.SIMPLE), 1e-6);
        assertTrue(RemeasuredLatency.replaces(v100, Algorithm.TREE, Protocol.SIMPLE));
        for (int sm : new int[] {70, 80}) {
            TuningInput v284 = nodes(2, 8, sm, NcclVersion.V2_8_4);
            assertEquals(448.0, choiceLatency(v284, Algorithm.TREE, Protocol.SIMPLE), 1e-6);
            assertEquals(84.0, timeLatency(v284, Algorithm.TREE, Protocol.SIMPLE), 1e-6);
            assertTrue(RemeasuredLatency.replaces(v284, Algorithm.TREE, Protocol.SIMPLE));
        }
        TuningInput volta = nodes(2, 8, 70, NcclVersion.V2_8_4);
        assertEquals(4.4 + 2 * (7 * 0.52 * 1.8 + 5.0), timeLatency(volta, Algorithm.TREE, Protocol.LL), 1e-6);
        assertFalse(RemeasuredLatency.replaces(nodes(2, 8, 80, NcclVersion.V2_18_5), Algorithm.TREE, Protocol.SIMPLE));
    }

    /**
     * No modelled release is timed on NCCL's 28 us Tree/Simple chunk figure: the releases whose NVLink Tree/Simple
     * hwLat is 28 (v2.8.4-1 {@code src/graph/tuning.cc} lines 61-69, the 2.8.4 entry, v2.10.3-1 the same lines;
     * v2.19.4-1 and v2.22.3-1 lines 67, 71, 75, the 2.19.4 and 2.21.5 entries) all read 2.18.5's hop figures, so
     * perf.TreeSimpleFill charges the chunk's trip on every release and never on top of the 28. A hop's own latency, 4
     * us on NVLink: v2.18.5-1 line 67, v2.23.4-1 line 67, v2.28.9-1 line 151. A new release entry with the 28 that
     * this rule missed fails here.
     */
    @Test
    void everyReleaseWithTheChunkFigureIsTimedOnTheHopFigures() {
        for (NcclVersion v : new NcclVersion[] {NcclVersion.V2_8_4, NcclVersion.V2_10_3, NcclVersion.V2_19_4,
            NcclVersion.V2_21_5}) {
            assertEquals(28.0, TuningConstants.of(v).hwLatency(HardwareClass.NVLINK, Algorithm.TREE, Protocol.SIMPLE),
                    0, v.toString());
        }
        for (NcclVersion v : new NcclVersion[] {NcclVersion.V2_18_5, NcclVersion.V2_23_4, NcclVersion.V2_28_9,
            NcclVersion.V2_30_7}) {
            assertEquals(4.0, TuningConstants.of(v).hwLatency(HardwareClass.NVLINK, Algorithm.TREE, Protocol.SIMPLE),
                    0, v.toString());
        }
        for (NcclVersion v : NcclVersion.values()) {
            TuningConstants c = TuningConstants.of(v);
            boolean chunkFigure = c.hwLatency(HardwareClass.NVLINK, Algorithm.TREE, Protocol.SIMPLE) == 28.0;
            assertEquals(chunkFigure, RemeasuredLatency.chunkHopTreeSimple(c), v.toString());
            assertEquals(chunkFigure ? 4.0 : c.hwLatency(HardwareClass.NVLINK, Algorithm.TREE, Protocol.SIMPLE),
                    RemeasuredLatency.forTime(nodes(2, 8, 80, v)).hwLatency(HardwareClass.NVLINK, Algorithm.TREE,
                            Protocol.SIMPLE), 0, v.toString());
        }
    }
}
