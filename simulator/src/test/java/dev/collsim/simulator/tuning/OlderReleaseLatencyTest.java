package dev.collsim.simulator.tuning;

import dev.collsim.topology.GraphPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.PathType;
import org.junit.jupiter.api.Test;

/**
 * The latency rules of {@code ncclTopoTuneModel} that differ before 2.23, read with {@code git show
 * v2.x.y-1:src/graph/tuning.cc} from github.com/NVIDIA/nccl; every figure is worked by hand from the cited lines.
 */
class OlderReleaseLatencyTest {

    private static final double EPS = 1e-9;
    private static final Collective AR = Collective.ALL_REDUCE;

    private static CostTable table(int nNodes, int ppn, PathType intra, NcclVersion v) {
        PathType inter = nNodes == 1 ? PathType.PIX : PathType.PXB;
        GraphSummary ring = new GraphSummary(GraphPattern.RING, 2, 20, 20, intra, inter, 0, true);
        GraphSummary tree = new GraphSummary(GraphPattern.BALANCED_TREE, 2, 20, 20, intra, inter, 0, true);
        GraphSet g = TuningFixtures.ringAndTree(ring, tree);
        return NcclTuningModel.tune(new TuningInput(g, nNodes * ppn, nNodes, 80, 80, CpuKind.INTEL_X86, false, false,
                false, ppn, GraphPattern.BALANCED_TREE, 2, NcclSettings.DEFAULTS, TuningConstants.of(v)));
    }

    /**
     * Ring AllReduce, 2 hosts x 8 ranks, LL, Intel (netOverhead 1 us), latencyInter 0: nsteps 30. Up to 2.22
     * {@code nInterSteps = 2*nNodes} = 4 (v2.18.5-1 line 161, v2.22.3-1 line 159): 6.6 + 26 x max(0.6, 1) + 4 x 2.7 =
     * 43.4 us. From 2.23 {@code 2*(nNodes-1)} = 2 (v2.23.4-1 line 258, v2.28.9-1 line 378): 6.6 + 28 + 2 x 2.7 = 40.0.
     */
    @Test
    void ringAllReduceCountsTwoInterHostStepsPerHostUpTo222() {
        assertEquals(43.4, table(2, 8, PathType.NVL, NcclVersion.V2_21_5).latency(AR, Algorithm.RING, Protocol.LL),
                EPS);
        assertEquals(40.0, table(2, 8, PathType.NVL, NcclVersion.V2_23_4).latency(AR, Algorithm.RING, Protocol.LL),
                EPS);
    }

    /**
     * One rank per host, Ring AllReduce LL on 2 hosts (intra LOC, so hwLat PCI Ring LL 1.0 us; netOverhead 1 us).
     * From 2.23 the network latency is Tree's when ppn == 1 (v2.23.4-1 line 236): 6.6 + (2 - 2) x 1 + 2 x 5.0 =
     * 16.6 us. Up to 2.22 Ring's own 2.7 (v2.22.3-1) with 4 inter steps: 6.6 + (2 - 4) x 1 + 4 x 2.7 = 15.4 us.
     */
    @Test
    void oneRankPerHostTakesTreesNetworkLatencyFrom223() {
        assertEquals(16.6, table(2, 1, PathType.LOC, NcclVersion.V2_28_9).latency(AR, Algorithm.RING, Protocol.LL),
                EPS);
        assertEquals(15.4, table(2, 1, PathType.LOC, NcclVersion.V2_21_5).latency(AR, Algorithm.RING, Protocol.LL),
                EPS);
    }

    /**
     * Tree AllReduce Simple on one host of 8: {@code baseLat + 2 (ppn-1) intraLat}. 2.18.5: baseLat[Tree][Simple] 0
     * (line 57), hwLat NVLink 4 (line 67), PCI 6 (line 71): 56 and 84 us. 2.19.4-2.22.3: 28 on each (lines 67, 71):
     * 392 us. 2.23.4 on: 8.4 + 2 x 7 x 4.0 = 64.4 us (v2.23.4-1 lines 57, 67).
     */
    @Test
    void treeSimpleLatencyPerRelease() {
        Algorithm t = Algorithm.TREE;
        Protocol s = Protocol.SIMPLE;
        assertEquals(56.0, table(1, 8, PathType.NVL, NcclVersion.V2_18_5).latency(AR, t, s), EPS);
        assertEquals(84.0, table(1, 8, PathType.PXB, NcclVersion.V2_18_5).latency(AR, t, s), EPS);
        assertEquals(392.0, table(1, 8, PathType.NVL, NcclVersion.V2_19_4).latency(AR, t, s), EPS);
        assertEquals(392.0, table(1, 8, PathType.NVL, NcclVersion.V2_21_5).latency(AR, t, s), EPS);
        assertEquals(64.4, table(1, 8, PathType.NVL, NcclVersion.V2_23_4).latency(AR, t, s), EPS);
    }

    /** 2 hosts x 8 sm90 ranks on NVSwitch, a CollNet and NCCL_COLLNET_ENABLE=1; graphs 8 ch, 20 / 12.5 GB/s. */
    private static CostTable collNet(NcclVersion v) {
        return TuningFixtures.collNet(v, 8, 90, 16);
    }

    /**
     * CollNet AllReduce latency on 2 hosts x 8 (NVLink inside, latencyInter 0; baseLat 0). 2.18.5: CollNetDirect
     * 2 x (min(1, 7) x 8.0 + 7 x 0.5) + 10.7 = 33.7 us, CollNetChain 2 x 7 x 4.75 + 14 = 80.5 (v2.18.5-1 lines 68, 76,
     * 232, 234). 2.19.4 on: 2 x (3.7 + 7 x 0.4) + 31 = 44.0 and 2 x 7 x 2.8 + 30 = 69.2 (v2.19.4-1 lines 68, 76, 236).
     * CollNetDirect AllGather, ppn 8 so w = 1: 2.21.5 8 x 20 x 0.85 = 136 (v2.20.5-1 lines 190-203, not converted,
     * line 214); 2.28.9 8 x min(20, 0.9 x 12.5) = 90 (v2.28.9-1 line 315).
     */
    @Test
    void collNetPerRelease() {
        Protocol s = Protocol.SIMPLE;
        assertEquals(33.7, collNet(NcclVersion.V2_18_5).latency(AR, Algorithm.COLLNET_DIRECT, s), 1e-6);
        assertEquals(80.5, collNet(NcclVersion.V2_18_5).latency(AR, Algorithm.COLLNET_CHAIN, s), 1e-6);
        assertEquals(44.0, collNet(NcclVersion.V2_19_4).latency(AR, Algorithm.COLLNET_DIRECT, s), 1e-6);
        assertEquals(69.2, collNet(NcclVersion.V2_28_9).latency(AR, Algorithm.COLLNET_CHAIN, s), 1e-6);
        Collective ag = Collective.ALL_GATHER;
        assertEquals(136.0, collNet(NcclVersion.V2_21_5).bandwidth(ag, Algorithm.COLLNET_DIRECT, s), 1e-6);
        assertEquals(90.0, collNet(NcclVersion.V2_28_9).bandwidth(ag, Algorithm.COLLNET_DIRECT, s), 1e-6);
    }
}
