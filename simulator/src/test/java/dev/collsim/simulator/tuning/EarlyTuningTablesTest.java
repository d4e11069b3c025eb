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
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.PathType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL 2.8-2.11's own {@code ncclTopoTuneModel} tables and rules (the 2.8.4 and 2.10.3 entries). Every expected figure
 * is worked by hand from {@code git show v2.8.4-1:src/graph/tuning.cc} (and v2.10.3-1 where named) of
 * github.com/NVIDIA/nccl, with the line numbers of that file; none is copied from collsim's output.
 */
class EarlyTuningTablesTest {

    private static final double EPS = 1e-6;
    private static final Collective AR = Collective.ALL_REDUCE;
    private static final long MIB = 1L << 20;

    /** One host: ring and tree graphs of nCh x bw on {@code intra}, nRanks GPUs of compute capability sm. */
    private static TuningInput host(int nRanks, int sm, int nCh, double bw, PathType intra, NcclVersion v) {
        GraphSummary ring = GraphSummary.singleHost(GraphPattern.RING, nCh, bw, intra);
        GraphSummary tree = GraphSummary.singleHost(GraphPattern.BALANCED_TREE, nCh, bw, intra);
        GraphSet g = TuningFixtures.ringAndTree(ring, tree);
        return new TuningInput(g, nRanks, 1, sm, sm, CpuKind.INTEL_X86, false, false, false, nRanks,
                GraphPattern.BALANCED_TREE, 2 * nCh, NcclSettings.parse(Map.of()), TuningConstants.of(v));
    }

    /** nNodes hosts of ppn sm80 GPUs over NVLink, graphs of nCh x bw reaching the network at PXB, latencyInter 0. */
    private static TuningInput hosts(int nNodes, int ppn, int nCh, double bw, GraphPattern treePattern, NcclVersion v) {
        GraphSummary ring = new GraphSummary(GraphPattern.RING, nCh, bw, bw, PathType.NVL, PathType.PXB, 0, true);
        GraphSummary tree = new GraphSummary(treePattern, nCh, bw, bw, PathType.NVL, PathType.PXB, 0, true);
        GraphSet g = TuningFixtures.ringAndTree(ring, tree);
        return new TuningInput(g, nNodes * ppn, nNodes, 80, 80, CpuKind.INTEL_X86, false, false, false, ppn,
                treePattern, 2 * nCh, NcclSettings.parse(Map.of()), TuningConstants.of(v));
    }

    private static AlgoChoice time(TuningInput in, Algorithm a, Protocol p, long bytes) {
        return NcclTuningModel.tune(in).time(AR, a, p, bytes, DataType.FLOAT, RedOp.SUM).orElseThrow();
    }

    /**
     * 4 A100 of one node under 2.8.4: the search's 12 channels of 21 GB/s (docs/nccl-releases.md: SM80 NVLink 12 x
     * 21), busBw 252 capped at 235 (line 124). 1 MiB AllReduce, nsteps 6, ratio 4/6:
     * Ring/LL min(87.7, 235/4) = 58.75 -> 39.17 GB/s, latency 3.6 + 6 x .47 = 6.42 us (lines 56, 65), time 33.19;
     * Ring/LL128 min(235 x .92, 12 x 16.9) = 202.8 -> 135.2, latency 10.0 + 6 x 1.9 = 21.4, time 29.16 (line 74);
     * Tree/LL128 min(235 x .92, 12 x 24.0) = 216.2, x7/9 = 168.16 (under 12 x 16.9), x.5 = 84.08, x.6 (LL128 row,
     * log2(1 MiB / 64) = 14, line 267) = 50.45, latency 4.4 + 2 x 3 x 1.25 = 11.9, time 32.68. NCCL picks Ring/LL128.
     */
    @Test
    void fourA100OfOneNodeChooseRingLl128AtOneMiB() {
        TuningInput in = host(4, 80, 12, 21, PathType.NVL, NcclVersion.V2_8_4);
        AlgoChoice ll = time(in, Algorithm.RING, Protocol.LL, MIB);
        assertEquals(6.42, ll.latencyUs(), EPS);
        assertEquals(6.42 + MIB / (1000 * 58.75 * 4 / 6), ll.timeUs(), 1e-4);
        AlgoChoice ll128 = time(in, Algorithm.RING, Protocol.LL128, MIB);
        assertEquals(21.4, ll128.latencyUs(), EPS);
        assertEquals(21.4 + MIB / (1000 * 202.8 * 4 / 6), ll128.timeUs(), 1e-4);
        AlgoChoice tree = time(in, Algorithm.TREE, Protocol.LL128, MIB);
        assertEquals(11.9, tree.latencyUs(), EPS);
        assertEquals(11.9 + MIB / (1000 * 235 * .92 * 7 / 9 * .5 * .6), tree.timeUs(), 1e-3);
        AlgoChoice best = NcclTuningModel.tune(in).select(AR, MIB, DataType.FLOAT, RedOp.SUM).orElseThrow();
        assertEquals(Algorithm.RING, best.algorithm());
        assertEquals(Protocol.LL128, best.protocol());
    }

    /**
     * {@code if (compCap80) busBw = std::min(busBw, 235.0f)} (line 124): 8 A100 on NVSwitch, 12 x 20 = 240 GB/s, is
     * 235 under 2.8.4 and 2.10.3 and 240 under 2.18.5 (no cap); compCap80 needs every GPU at sm80 (line 93), so sm86
     * keeps 240.
     */
    @Test
    void sm80BusBandwidthCap() {
        assertEquals(235.0, NcclTuningModel.ringBusBw(host(8, 80, 12, 20, PathType.NVL, NcclVersion.V2_8_4),
                Protocol.SIMPLE), EPS);
        assertEquals(235.0, NcclTuningModel.ringBusBw(host(8, 80, 12, 20, PathType.NVL, NcclVersion.V2_10_3),
                Protocol.SIMPLE), EPS);
        assertEquals(240.0, NcclTuningModel.ringBusBw(host(8, 80, 12, 20, PathType.NVL, NcclVersion.V2_18_5),
                Protocol.SIMPLE), EPS);
        assertEquals(240.0, NcclTuningModel.ringBusBw(host(8, 86, 12, 20, PathType.NVL, NcclVersion.V2_8_4),
                Protocol.SIMPLE), EPS);
    }

    /**
     * LL128 by default only when every GPU is sm70 or every one sm80, inside NVLink ({@code typeIntra <= PATH_NVL},
     * PATH_NVB being 2 in v2.8.4-1 src/graph/topo.h line 55) and up to PXB between nodes (line 194-195): 8 H100 get no
     * LL128 under 2.8.4 (2.18.5 enables sm90, v2.18.5-1 lines 288-293), nor A100 through an NVLink bridge (NVB).
     * Hopper reads the first (Volta) llMaxBws row, 39.0 (lines 75, 98): Ring/LL of 16 x 40 GB/s is min(39, 640/4).
     */
    @Test
    void ll128OffOnHopperAndThroughNvb() {
        TuningInput hopper = host(8, 90, 16, 40, PathType.NVL, NcclVersion.V2_8_4);
        CostTable t = NcclTuningModel.tune(hopper);
        assertEquals(0.0, t.bandwidth(AR, Algorithm.RING, Protocol.LL128), EPS);
        assertEquals(0.0, t.bandwidth(AR, Algorithm.TREE, Protocol.LL128), EPS);
        assertTrue(NcclTuningModel.tune(host(8, 90, 16, 40, PathType.NVL, NcclVersion.V2_18_5))
                .bandwidth(AR, Algorithm.RING, Protocol.LL128) > 0);
        assertEquals(39.0, NcclTuningModel.ringBusBw(hopper, Protocol.LL), EPS);
        assertFalse(NcclTuningModel.tune(host(4, 80, 4, 20, PathType.NVB, NcclVersion.V2_8_4))
                .bandwidth(AR, Algorithm.RING, Protocol.LL128) > 0);
        assertTrue(NcclTuningModel.tune(host(4, 80, 4, 20, PathType.NVB, NcclVersion.V2_18_5))
                .bandwidth(AR, Algorithm.RING, Protocol.LL128) > 0);
    }

    /**
     * NCCL 2.4 has no LL128 (no LL128 anywhere in v2.4.8-1's sources; v2.5.6-1 src/graph/tuning.cc line 56 lists
     * it): a 2.4 run, modelled with the oldest entry, 2.8.4, gets none even on 4 V100 of one NVLink node, where 2.8's
     * rule (sm70, NVLink) enables it; LL stays.
     */
    @Test
    void noLl128BeforeTwoFive() {
        TuningInput v100 = host(4, 70, 6, 20, PathType.NVL, NcclVersion.V2_8_4);
        assertTrue(NcclTuningModel.tune(v100).bandwidth(AR, Algorithm.RING, Protocol.LL128) > 0);
        TuningInput run24 = v100.withConstants(TuningConstants.of(NcclVersion.V2_8_4).forRun(4));
        assertEquals(0.0, NcclTuningModel.tune(run24).bandwidth(AR, Algorithm.RING, Protocol.LL128), EPS);
        assertTrue(NcclTuningModel.tune(run24).bandwidth(AR, Algorithm.RING, Protocol.LL) > 0);
    }

    /**
     * 2 x 8 A100 Ring AllReduce latencies (nsteps 30, nInterSteps 2*(2-1) = 2, line 112): LL 3.6 + 28 x (.47 x 1.8,
     * line 141) + 2 x 2.7 = 32.688 us; Simple 8.4 + 28 x 3.4 + 2 x 9.6 (line 69) = 122.8 us, no network overhead
     * (2.18's {@code getNetOverhead} is not in 2.8). Tree/Simple 2 x (7 x 28 + 1 x 28) = 448 us (baseLat 0, hwLat 28
     * on every link, lines 56, 65-69). Ring/Simple's plateau x1.9 from nRanks/16 x 65536 = 64 KiB (line 281).
     */
    @Test
    void twoNodeLatencies() {
        TuningInput in = hosts(2, 8, 12, 20, GraphPattern.BALANCED_TREE, NcclVersion.V2_8_4);
        CostTable t = NcclTuningModel.tune(in);
        assertEquals(32.688, t.latency(AR, Algorithm.RING, Protocol.LL), 1e-4);
        assertEquals(122.8, t.latency(AR, Algorithm.RING, Protocol.SIMPLE), 1e-4);
        assertEquals(448.0, t.latency(AR, Algorithm.TREE, Protocol.SIMPLE), 1e-4);
        assertEquals(122.8, time(in, Algorithm.RING, Protocol.SIMPLE, 32 * 1024).latencyUs(), 1e-4);
        assertEquals(122.8 * 1.9, time(in, Algorithm.RING, Protocol.SIMPLE, 64 * 1024).latencyUs(), 1e-4);
    }

    /**
     * Ring/LL128 against Ring/Simple on 2 hosts of 8 A100 (the ABCI A-node HDR runs of NCCL 2.8.4: 4 ring channels of
     * 24 GB/s, one per HDR NIC; a tree graph of 2 nodes is pattern TREE, v2.8.4-1 src/init.cc line 652). busBw 4 x 24
     * = 96 (under the 235 cap, line 124), ratio 16/30. Ring/Simple 96 x 16/30 = 51.2 GB/s, latency (8.4 + 28 x 3.4 +
     * 2 x 9.6) x 1.9 = 233.32 us (plateau from 64 KiB, line 281); Ring/LL128 min(96 x .92, 4 x 16.9) = 67.6 x 16/30 =
     * 36.0533 GB/s, latency 10.0 + 28 x 1.9 + 2 x 4.0 = 71.2 (lines 56, 65, 69, 74). Tree: min(96 x .92, 4 x 22.5) =
     * 88.32; Tree/LL128 min(88.32 x .915, 67.6) x .5 = 33.8 x .8 / .9 (LL128 correction at 16 / 32 MiB, line 267),
     * latency 4.4 + 2 x (7 x 1.25 + 8.5) = 38.9: 659.4 / 1141.9 us; Tree/Simple 44.16 x .7, 448 us: 990.7 / 1533.5.
     * 16 MiB: LL128 536.54 against Simple 561.0; 32 MiB: LL128 1001.88 against Simple 888.68. NCCL 2.8 switches at
     * 162.12 us / (1/36.0533 - 1/51.2) = 19.76 MB, so the measured 16 -> 32 MiB rate (30.7 -> 33.3 GB/s busbw, no
     * step) is not a protocol NCCL 2.8 chose differently from collsim.
     */
    @Test
    void twoA100HostsSwitchRingLl128ToSimpleAtTwentyMegabytes() {
        TuningInput in = hosts(2, 8, 4, 24, GraphPattern.TREE, NcclVersion.V2_8_4);
        AlgoChoice ll128 = time(in, Algorithm.RING, Protocol.LL128, 16 * MIB);
        assertEquals(71.2 + 16 * MIB / (1000 * 67.6 * 16 / 30), ll128.timeUs(), 1e-3);
        AlgoChoice simple = time(in, Algorithm.RING, Protocol.SIMPLE, 16 * MIB);
        assertEquals(233.32 + 16 * MIB / 51200.0, simple.timeUs(), 1e-3);
        assertEquals(38.9 + 16 * MIB / (1000 * 33.8 * .8), time(in, Algorithm.TREE, Protocol.LL128, 16 * MIB).timeUs(),
                1e-3);
        AlgoChoice at16 = NcclTuningModel.tune(in).select(AR, 16 * MIB, DataType.FLOAT, RedOp.SUM).orElseThrow();
        assertEquals(Algorithm.RING, at16.algorithm());
        assertEquals(Protocol.LL128, at16.protocol());
        AlgoChoice at32 = NcclTuningModel.tune(in).select(AR, 32 * MIB, DataType.FLOAT, RedOp.SUM).orElseThrow();
        assertEquals(Algorithm.RING, at32.algorithm());
        assertEquals(Protocol.SIMPLE, at32.protocol());
        assertEquals(233.32 + 32 * MIB / 51200.0, at32.timeUs(), 1e-3);
    }

    /**
     * 8 A100 of one node under 2.8.4 (12 channels of 21 GB/s): NCCL's own estimate puts 16 MiB on Ring/Simple by less
     * than half a microsecond. Simple 235 x 8/14 = 134.286 GB/s, latency 8.4 + 14 x 3.4 = 56.0 (no plateau on one
     * node, line 280): 180.937 us; LL128 202.8 x 8/14 = 115.886, latency 10.0 + 14 x 1.9 = 36.6: 181.374 us. At 8 MiB
     * LL128 wins (108.99 against 118.47 us). The ABCI 8 A100 run (measured 202.8 / 236.6 us at 8 / 16 MiB) is thus
     * timed on the protocols NCCL 2.8 picked; its 16 MiB miss is not a choice.
     */
    @Test
    void eightA100OfOneNodeTakeSimpleAtSixteenMiBByAHair() {
        TuningInput in = host(8, 80, 12, 21, PathType.NVL, NcclVersion.V2_8_4);
        double simple = 56.0 + 16 * MIB / (1000 * 235.0 * 8 / 14);
        double ll128 = 36.6 + 16 * MIB / (1000 * 202.8 * 8 / 14);
        assertEquals(simple, time(in, Algorithm.RING, Protocol.SIMPLE, 16 * MIB).timeUs(), 1e-3);
        assertEquals(ll128, time(in, Algorithm.RING, Protocol.LL128, 16 * MIB).timeUs(), 1e-3);
        assertEquals(0.437, ll128 - simple, 1e-3);
        CostTable t = NcclTuningModel.tune(in);
        assertEquals(Protocol.SIMPLE, t.select(AR, 16 * MIB, DataType.FLOAT, RedOp.SUM).orElseThrow().protocol());
        assertEquals(Protocol.LL128, t.select(AR, 8 * MIB, DataType.FLOAT, RedOp.SUM).orElseThrow().protocol());
    }

    /**
     * Tree on 4 nodes of sm80, 2 channels of 20 GB/s: busBw 40, Tree min(40 x .92, 2 x cap) with Ampere N4 cap 16.0
     * to 2.9 (line 76), 17.8 from 2.10 (v2.10.3-1 line 75): Tree/Simple algBw 32/2 = 16 and 35.6/2 = 17.8. Tree/LL128
     * on several nodes x.915 to 2.9 (line 129), x120/128 from 2.10 (v2.10.3-1 line 132), capped at 2 x 16.9 (2.8,
     * line 74) and 2 x 20 (2.10): min(32 x .915, 33.8) / 2 = 14.64, min(35.6 x .9375, 40) / 2 = 16.6875. 2.28.9's
     * Tree pattern x0.85 is not in 2.8-2.11: a TREE-pattern graph gets the same figures.
     */
    @Test
    void treeCapsAndLl128FactorBySplit() {
        for (GraphPattern pattern : new GraphPattern[] {GraphPattern.BALANCED_TREE, GraphPattern.TREE}) {
            CostTable t28 = NcclTuningModel.tune(hosts(4, 8, 2, 20, pattern, NcclVersion.V2_8_4));
            CostTable t210 = NcclTuningModel.tune(hosts(4, 8, 2, 20, pattern, NcclVersion.V2_10_3));
            assertEquals(16.0, t28.bandwidth(AR, Algorithm.TREE, Protocol.SIMPLE), 1e-5, pattern.name());
            assertEquals(17.8, t210.bandwidth(AR, Algorithm.TREE, Protocol.SIMPLE), 1e-5, pattern.name());
            assertEquals(32 * .915 / 2, t28.bandwidth(AR, Algorithm.TREE, Protocol.LL128), 1e-5, pattern.name());
            assertEquals(35.6 * 120 / 128 / 2, t210.bandwidth(AR, Algorithm.TREE, Protocol.LL128), 1e-5);
        }
    }

    /**
     * Tree correction's LL128 row: 2.8-2.9 .5 at 512 KiB (log2(512 KiB / 64) = 13) and .7 at 4 MiB (16) (line 267);
     * from 2.10 .6 and .8 (v2.10.3-1 line 269, 2.28.9's). Per-function LL128 caps to 2.9 (line 74): Broadcast 18.8,
     * Reduce 12.0, AllGather 18.3, ReduceScatter 15.2, AllReduce 16.9; 20.0 for each from 2.10 (v2.10.3-1 line 73).
     * 2.8-2.11 have no NVLS (three algorithms, {@code NCCL_NUM_ALGORITHMS} 3 in v2.8.4-1 src/include/devcomm.h).
     */
    @Test
    void correctionRowLl128CapsAndAlgorithms() {
        TuningConstants c28 = TuningConstants.of(NcclVersion.V2_8_4);
        TuningConstants c210 = TuningConstants.of(NcclVersion.V2_10_3);
        assertEquals(.5, c28.treeCorrection(Protocol.LL128, 13), EPS);
        assertEquals(.7, c28.treeCorrection(Protocol.LL128, 16), EPS);
        assertEquals(.6, c210.treeCorrection(Protocol.LL128, 13), EPS);
        assertEquals(.8, c210.treeCorrection(Protocol.LL128, 16), EPS);
        Collective[] f = {Collective.BROADCAST, Collective.REDUCE, Collective.ALL_GATHER, Collective.REDUCE_SCATTER,
            AR};
        double[] cap = {18.8, 12.0, 18.3, 15.2, 16.9};
        for (int i = 0; i < f.length; i++) {
            assertEquals(cap[i], c28.perChMaxRingLl128Bw(f[i], GpuGeneration.AMPERE, 0), EPS, f[i].name());
            assertEquals(20.0, c210.perChMaxRingLl128Bw(f[i], GpuGeneration.HOPPER, 2), EPS, f[i].name());
        }
        assertFalse(c28.rules().offers(AR, Algorithm.NVLS));
        assertFalse(c210.rules().offers(AR, Algorithm.NVLS_TREE));
        assertTrue(TuningConstants.of(NcclVersion.V2_18_5).rules().offers(AR, Algorithm.NVLS));
    }

    /** 2 hosts x 8 sm80 ranks, a CollNet and NCCL_COLLNET_ENABLE=1; every graph 4 channels of 20 / 12.5 GB/s. */
    private static CostTable collNet(NcclVersion v) {
        return TuningFixtures.collNet(v, 4, 80, 8);
    }

    /**
     * CollNet AllReduce/Simple, 2 x 8 A100, 4 channels of bwIntra 20 (CollNet reads bwIntra, line 120): busBw 80.
     * 2.8.4: x0.9 (line 130), ratio .5: 36 GB/s, for the chain and (2.9's) the direct alike, latency 2 x (8 - 1) x
     * 4.0 + 10.7 = 66.7 us (baseLat 0, hwLat CollNet/Simple NVLink 4.0, NET 10.7, lines 56, 65, 69; the chain form,
     * line 159, which v2.9.6-1 keeps). 2.10.3: no factor, 40 GB/s, latency 2 x (min(1, 7) x 8.0 + 7 x 0.5) + 10.7 =
     * 33.7 (v2.10.3-1 lines 65, 160); LL and LL128 off ("Oneshot CollNet only supports Simple", line 133). 2.18.5 divides
     * CollNetDirect by the GPU/NIC ratio, 8/4 -> 2 - (2 - 1)/2 = 1.5 (v2.18.5-1 lines 186-191): 80 / 1.5 x .5 = 26.67.
     */
    @Test
    void collNetFigures() {
        Protocol s = Protocol.SIMPLE;
        for (Algorithm a : new Algorithm[] {Algorithm.COLLNET_CHAIN, Algorithm.COLLNET_DIRECT}) {
            assertEquals(36.0, collNet(NcclVersion.V2_8_4).bandwidth(AR, a, s), 1e-6, a.name());
            assertEquals(66.7, collNet(NcclVersion.V2_8_4).latency(AR, a, s), 1e-6, a.name());
            assertEquals(40.0, collNet(NcclVersion.V2_10_3).bandwidth(AR, a, s), 1e-6, a.name());
            assertEquals(0.0, collNet(NcclVersion.V2_10_3).bandwidth(AR, a, Protocol.LL), 1e-6, a.name());
        }
        assertEquals(33.7, collNet(NcclVersion.V2_10_3).latency(AR, Algorithm.COLLNET_DIRECT, s), 1e-6);
        assertEquals(80.0 / 1.5 * .5, collNet(NcclVersion.V2_18_5).bandwidth(AR, Algorithm.COLLNET_DIRECT, s), 1e-6);
    }
}
