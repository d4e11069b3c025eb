package dev.collsim.simulator.tuning;

import dev.collsim.topology.GraphPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.topology.PathType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL's tuning table for the fact sheet's §2.8 worked examples. Every expected value is recomputed by hand here
 * from the §2.2 constants and the §2.3/§2.4 formulas (NCCL 2.30.7 {@code src/graph/tuning.cc}).
 */
class NcclTuningModelTest {

    private static final Collective AR = Collective.ALL_REDUCE;
    private final CostTable h100 = NcclTuningModel.tune(TuningFixtures.h100(Map.of(), NcclVersion.V2_30_7));
    private final CostTable a100 = NcclTuningModel.tune(TuningFixtures.a100(Map.of()));

    private static void assertEntry(CostTable t, Algorithm a, Protocol p, double latUs, double algBw) {
        assertEquals(latUs, t.latency(AR, a, p), 1e-9, a + "/" + p + " latency");
        assertEquals(algBw, t.bandwidth(AR, a, p), 1e-9, a + "/" + p + " algBw");
    }

    /**
     * Ring, 8x H100, 12 ch x 30 GB/s, nRanks 8, 1 host: busBw = 12 x 30 = 360; ratio 8/14; nsteps 14.
     * LL: min(141, 0.5 x 360) = 141 -> 80.571; lat 6.6 + 14 x 0.6 = 15.0.
     * LL128: min(0.92 x 360 = 331.2, 12 x 36.7 = 440.4) -> 189.257; lat 14 + 14 x 1.9 = 40.6.
     * Simple: 360 -> 205.714; lat 8.4 + 14 x 3.4 = 56.0.
     */
    @Test
    void h100RingMatchesTheWorkedExample() {
        assertEntry(h100, Algorithm.RING, Protocol.LL, 6.6 + 14 * 0.6, 141.0 * 8 / 14);
        assertEntry(h100, Algorithm.RING, Protocol.LL128, 14 + 14 * 1.9, 0.92 * 360 * 8 / 14);
        assertEntry(h100, Algorithm.RING, Protocol.SIMPLE, 8.4 + 14 * 3.4, 360.0 * 8 / 14);
        assertEquals(80.6, h100.bandwidth(AR, Algorithm.RING, Protocol.LL), 0.05);
        assertEquals(189.3, h100.bandwidth(AR, Algorithm.RING, Protocol.LL128), 0.05);
        assertEquals(205.7, h100.bandwidth(AR, Algorithm.RING, Protocol.SIMPLE), 0.05);
    }

    /**
     * Tree, 12 ch x 30: AllReduce first min(0.92 x 360 = 331.2, 12 x 38.7 = 464.4) = 331.2; ratio 1/2.
     * LL: min(331.2 / 3.8 = 87.158, 141) -> 43.579; lat 6.8 + 2 x 7 x 0.6 = 15.2.
     * LL128: min(331.2 x 7/9 = 257.6, 12 x 36.7) -> 128.8; lat 14 + 2 x 7 x 1.25 = 31.5.
     * Simple: 331.2 -> 165.6; lat 8.4 + 2 x 7 x 4.0 = 64.4.
     */
    @Test
    void h100TreeMatchesTheWorkedExample() {
        assertEntry(h100, Algorithm.TREE, Protocol.LL, 15.2, 331.2 / 3.8 / 2);
        assertEntry(h100, Algorithm.TREE, Protocol.LL128, 31.5, 128.8);
        assertEntry(h100, Algorithm.TREE, Protocol.SIMPLE, 64.4, 165.6);
    }

    /**
     * NVLS, 8 ch, bwIntra 40, bwInter 60: intraBw = 40 x 0.85 x 7/8 x 2 = 59.5; min(59.5, 60) = 59.5;
     * busBw = 8 x 59.5 = 476; algBw = 476 x 8/14 = 272; latency = hwLat[NVLINK][NVLS][Simple] = 25.
     * NVLS has no LL or LL128.
     */
    @Test
    void h100NvlsMatchesTheWorkedExample() {
        assertEntry(h100, Algorithm.NVLS, Protocol.SIMPLE, 25.0, 272.0);
        assertEquals(0, h100.bandwidth(AR, Algorithm.NVLS, Protocol.LL));
        assertEquals(0, h100.bandwidth(AR, Algorithm.NVLS_TREE, Protocol.SIMPLE), "NVLSTree is off on one host");
    }

    /**
     * At 1 MiB (fact sheet §2.8): Ring/LL 15.0 + 1048576 / (1000 x 80.571) = 28.01 us; NVLS 25 + 1048576 / 272000
     * = 28.86 us; Tree/LL128 with correction .6 (logSize 14): 31.5 + 1048576 / (1000 x 128.8 x 0.6) = 45.07 us;
     * Ring/LL128 40.6 + 5.54 = 46.14 us. Ring/LL wins. At 2 MiB: Ring/LL 15.0 + 26.03 = 41.03, NVLS 25 + 7.71 =
     * 32.71, so NVLS wins.
     */
    @Test
    void h100SelectionSwitchesFromRingLlToNvlsAfterOneMebibyte() {
        AlgoChoice at1M = h100.select(AR, 1 << 20, DataType.FLOAT, RedOp.SUM).orElseThrow();
        assertEquals(Algorithm.RING, at1M.algorithm());
        assertEquals(Protocol.LL, at1M.protocol());
        assertEquals(15.0 + 1048576 / (1000 * 141.0 * 8 / 14), at1M.timeUs(), 1e-9);
        assertEquals(28.0, at1M.timeUs(), 0.05);
        double nvls1M = h100.time(AR, Algorithm.NVLS, Protocol.SIMPLE, 1 << 20, DataType.FLOAT, RedOp.SUM)
                .orElseThrow().timeUs();
        assertEquals(28.9, nvls1M, 0.05);
        double tree1M = h100.time(AR, Algorithm.TREE, Protocol.LL128, 1 << 20, DataType.FLOAT, RedOp.SUM)
                .orElseThrow().timeUs();
        assertEquals(31.5 + 1048576 / (1000 * 128.8 * 0.6), tree1M, 1e-9);
        AlgoChoice at2M = h100.select(AR, 2 << 20, DataType.FLOAT, RedOp.SUM).orElseThrow();
        assertEquals(Algorithm.NVLS, at2M.algorithm());
        assertEquals(25 + 2097152 / 272000.0, at2M.timeUs(), 1e-9);
    }

    /**
     * NVLS reduces what {@code ncclNvlsSupported} lists (NCCL 2.28.9 {@code src/include/device.h} lines 544-558):
     * not PROD, and float only with sum, so float max at 1 GiB runs Ring or Tree, while bfloat16 max may use NVLS
     * (its 25 + 2^30 / 272000 = 3972.6 us is the smallest entry there, as for float sum).
     */
    @Test
    void nvlsNeedsAReducibleOperator() {
        AlgoChoice c = h100.select(AR, 1L << 30, DataType.FLOAT, RedOp.PROD).orElseThrow();
        assertFalse(c.algorithm() == Algorithm.NVLS);
        assertTrue(h100.time(AR, Algorithm.NVLS, Protocol.SIMPLE, 1L << 30, DataType.FLOAT, RedOp.MAX).isEmpty());
        assertEquals(Algorithm.NVLS, h100.select(AR, 1L << 30, DataType.BFLOAT16, RedOp.MAX).orElseThrow()
                .algorithm());
        assertEquals(Algorithm.NVLS, h100.select(AR, 1L << 30, DataType.FLOAT, RedOp.SUM).orElseThrow().algorithm());
    }

    /**
     * 8x A100, 12 ch x 20 GB/s (§2.8): Ring Simple busBw 240; LL128 min(0.92 x 240 = 220.8, 12 x 20 = 240) = 220.8;
     * LL min(llMaxBw Ampere N1 = 87.7, 120) = 87.7. algBw = busBw x 8/14.
     */
    @Test
    void a100RingMatchesTheWorkedExample() {
        assertEquals(240.0 * 8 / 14, a100.bandwidth(AR, Algorithm.RING, Protocol.SIMPLE), 1e-9);
        assertEquals(220.8 * 8 / 14, a100.bandwidth(AR, Algorithm.RING, Protocol.LL128), 1e-9);
        assertEquals(87.7 * 8 / 14, a100.bandwidth(AR, Algorithm.RING, Protocol.LL), 1e-9);
        assertEquals(0, a100.bandwidth(AR, Algorithm.NVLS, Protocol.SIMPLE), "no NVLS below sm90");
    }

    /**
     * The Ring/LL128 to Ring/Simple switch of 8x A100 (docs/single-host-guesses.md §4, "The switch point is not the
     * miss"): LL128 14 + 14 x 1.9 = 40.6 + S / (1000 x 220.8 x 8/14), Simple 8.4 + 14 x 3.4 = 56.0 + S / (1000 x 240 x
     * 8/14). At 16 MiB 40.6 + 132.97 = 173.57 against 56.0 + 122.33 = 178.33 us: LL128; at 32 MiB 40.6 + 265.94 =
     * 306.54 against 56.0 + 244.67 = 300.67 us: Simple.
     */
    @Test
    void a100SelectionSwitchesFromRingLl128ToSimpleAt32MiB() {
        long m16 = 16L << 20;
        long m32 = 32L << 20;
        AlgoChoice at16M = a100.select(AR, m16, DataType.FLOAT, RedOp.SUM).orElseThrow();
        assertEquals(Algorithm.RING, at16M.algorithm());
        assertEquals(Protocol.LL128, at16M.protocol());
        assertEquals(173.57, at16M.timeUs(), 0.01);
        assertEquals(178.33, a100.time(AR, Algorithm.RING, Protocol.SIMPLE, m16, DataType.FLOAT, RedOp.SUM)
                .orElseThrow().timeUs(), 0.01);
        AlgoChoice at32M = a100.select(AR, m32, DataType.FLOAT, RedOp.SUM).orElseThrow();
        assertEquals(Algorithm.RING, at32M.algorithm());
        assertEquals(Protocol.SIMPLE, at32M.protocol());
        assertEquals(300.67, at32M.timeUs(), 0.01);
        assertEquals(306.54, a100.time(AR, Algorithm.RING, Protocol.LL128, m32, DataType.FLOAT, RedOp.SUM)
                .orElseThrow().timeUs(), 0.01);
    }

    /**
     * AllGather on Ring: nsteps = 7, ratio 8/7, busBw 360 -> algBw 411.43; latency 8.4 + 7 x 3.4 = 32.2.
     * NVLS AllGather is not converted: bw = min(40 x 0.85 x 7/8 x 7/8, 60) = 26.03 per channel, x 8 = 208.25.
     */
    @Test
    void allGatherUsesNRanksOverNMinusOneAndNvlsIsNotConverted() {
        Collective ag = Collective.ALL_GATHER;
        assertEquals(360.0 * 8 / 7, h100.bandwidth(ag, Algorithm.RING, Protocol.SIMPLE), 1e-9);
        assertEquals(8.4 + 7 * 3.4, h100.latency(ag, Algorithm.RING, Protocol.SIMPLE), 1e-9);
        assertEquals(8 * 40 * 0.85 * 7 / 8 * 7 / 8, h100.bandwidth(ag, Algorithm.NVLS, Protocol.SIMPLE), 1e-9);
        assertEquals(0, h100.bandwidth(ag, Algorithm.TREE, Protocol.SIMPLE), "no Tree AllGather");
    }

    /**
     * Broadcast on Ring with sameChannels: latency lat0 + hwLat[NVLINK][Ring][p] = 8.4 + 3.4 = 11.8 for Simple;
     * ratio nRanks/nRanks = 1, so algBw = busBw = 360.
     */
    @Test
    void broadcastRing() {
        assertEquals(11.8, h100.latency(Collective.BROADCAST, Algorithm.RING, Protocol.SIMPLE), 1e-9);
        assertEquals(360, h100.bandwidth(Collective.BROADCAST, Algorithm.RING, Protocol.SIMPLE), 1e-9);
    }

    /**
     * Blackwell Ring/LL128 cap differs between releases (§2.2): with 12 ch x 45 GB/s on sm100, 1 host:
     * 2.30.7 min(0.92 x 540 = 496.8, 12 x 40 = 480) = 480; 2.28.9 min(496.8, 12 x 73.4 = 880.8) = 496.8.
     */
    @Test
    void blackwellRingLl128CapDependsOnTheRelease() {
        assertEquals(480.0 * 8 / 14, blackwell(NcclVersion.V2_30_7).bandwidth(AR, Algorithm.RING, Protocol.LL128),
                1e-9);
        assertEquals(496.8 * 8 / 14, blackwell(NcclVersion.V2_28_9).bandwidth(AR, Algorithm.RING, Protocol.LL128),
                1e-9);
    }

    private static CostTable blackwell(NcclVersion v) {
        TuningInput h = TuningFixtures.h100(Map.of(), v);
        GraphSummary ring = GraphSummary.singleHost(GraphPattern.RING, 12, 45, PathType.NVL);
        GraphSet g = new GraphSet(ring, h.graphs().tree(), h.graphs().nvls(), h.graphs().collnetDirect(),
                h.graphs().collnetChain());
        return NcclTuningModel.tune(new TuningInput(g, 8, 1, 100, 100, CpuKind.INTEL_X86, true, false, true, 8,
                GraphPattern.BALANCED_TREE, 24, h.settings(), TuningConstants.of(v)));
    }

    /** NCCL_ALGO=Ring leaves only Ring; NCCL_PROTO=^LL,LL128 leaves only Simple. */
    @Test
    void envFiltersRemoveCombinations() {
        CostTable t = NcclTuningModel.tune(TuningFixtures.h100(Map.of("NCCL_ALGO", "ring", "NCCL_PROTO", "^LL,LL128"),
                NcclVersion.V2_30_7));
        for (AlgoChoice c : t.candidates(AR, 1 << 20, DataType.FLOAT, RedOp.SUM)) {
            assertEquals(Algorithm.RING, c.algorithm());
            assertEquals(Protocol.SIMPLE, c.protocol());
        }
        assertTrue(t.select(AR, 1 << 20, DataType.FLOAT, RedOp.SUM).isPresent());
    }

    /**
     * Per-function syntax: "^LL128;allreduce:LL128" removes LL128 for every function except AllReduce, where
     * only LL128 is enabled.
     */
    @Test
    void perFunctionProtocolList() {
        CostTable t = NcclTuningModel.tune(TuningFixtures.h100(Map.of("NCCL_PROTO", "^LL128;allreduce:LL128"),
                NcclVersion.V2_30_7));
        assertEquals(0, t.bandwidth(Collective.ALL_GATHER, Algorithm.RING, Protocol.LL128));
        assertTrue(t.bandwidth(Collective.ALL_GATHER, Algorithm.RING, Protocol.LL) > 0);
        assertTrue(t.bandwidth(AR, Algorithm.RING, Protocol.LL128) > 0);
        assertEquals(0, t.bandwidth(AR, Algorithm.RING, Protocol.SIMPLE));
    }

    /** One rank: Ring/Simple costs 0 and nothing else is eligible (NCCL 2.30.7 enqueue.cc updateCollCostTable). */
    @Test
    void oneRankIsFree() {
        TuningInput h = TuningFixtures.h100(Map.of(), NcclVersion.V2_30_7);
        TuningInput one = new TuningInput(h.graphs(), 1, 1, 90, 90, CpuKind.INTEL_X86, true, false, true, 1,
                GraphPattern.BALANCED_TREE, 24, h.settings(), h.constants());
        AlgoChoice c = NcclTuningModel.tune(one).select(AR, 1 << 20, DataType.FLOAT, RedOp.SUM).orElseThrow();
        assertEquals(Algorithm.RING, c.algorithm());
        assertEquals(0.0, c.timeUs());
    }

    /**
     * NCCL's step tree correction makes its own Tree time drop at a power-of-two boundary: Tree/LL AllReduce on 8x
     * H100 has algBw 43.579 GB/s; at 1 MiB - 64 B, floor(log2(16383)) = 13 gives factor .4: 15.2 + 1048512 /
     * (1000 x 43.579 x 0.4) = 75.35 us; at 1 MiB, index 14 gives .5: 15.2 + 1048576 / (1000 x 43.579 x 0.5) =
     * 63.32 us. (collsim's prediction interpolates the factor instead; see CostTable#smoothCorrection.)
     */
    @Test
    void ncclTreeTimeDropsAtACorrectionStep() {
        double bw = 331.2 / 3.8 / 2;
        double below = h100.time(AR, Algorithm.TREE, Protocol.LL, (1 << 20) - 64, DataType.FLOAT, RedOp.SUM)
                .orElseThrow().timeUs();
        double at = h100.time(AR, Algorithm.TREE, Protocol.LL, 1 << 20, DataType.FLOAT, RedOp.SUM)
                .orElseThrow().timeUs();
        assertEquals(15.2 + 1048512 / (1000 * bw * 0.4), below, 1e-9);
        assertEquals(15.2 + 1048576 / (1000 * bw * 0.5), at, 1e-9);
        assertTrue(at < below);
        assertEquals(0.45, h100.smoothCorrection(AR, Algorithm.TREE, Protocol.LL, (long) (64 * Math.pow(2, 13.5))),
                1e-6, "halfway between index 13 (.4) and 14 (.5) in log2");
    }
}
