package dev.collsim.simulator.tuning;

import dev.collsim.topology.GraphPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.PathType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The release-conditional rules of {@code ncclTopoTuneModel} before 2.28, read with {@code git show
 * v2.x.y-1:src/graph/tuning.cc} from github.com/NVIDIA/nccl (line numbers of that file at that tag). Each figure is
 * worked by hand from the cited line, not from collsim's output.
 */
class OlderReleaseRulesTest {

    private static final double EPS = 1e-9;
    private static final Collective AR = Collective.ALL_REDUCE;

    /** One host: ring and tree graphs of nCh x bw on {@code intra}, nRanks ranks of one compute capability. */
    private static TuningInput host(int nRanks, int sm, int nCh, double bw, PathType intra, NcclVersion v,
            Map<String, String> env) {
        GraphSummary ring = GraphSummary.singleHost(GraphPattern.RING, nCh, bw, intra);
        GraphSummary tree = GraphSummary.singleHost(GraphPattern.BALANCED_TREE, nCh, bw, intra);
        GraphSet g = TuningFixtures.ringAndTree(ring, tree);
        return new TuningInput(g, nRanks, 1, sm, sm, CpuKind.INTEL_X86, false, false, false, nRanks,
                GraphPattern.BALANCED_TREE, nCh, NcclSettings.parse(env), TuningConstants.of(v));
    }

    /** nNodes hosts of ppn ranks: ring and tree of nCh x bw (intra NVL, inter {@code inter}), latencyInter 0. */
    private static TuningInput hosts(int nNodes, int ppn, int sm, int nCh, double bw, PathType inter, NcclVersion v,
            Map<String, String> env) {
        PathType intra = ppn == 1 ? PathType.LOC : PathType.NVL;
        GraphSummary ring = new GraphSummary(GraphPattern.RING, nCh, bw, bw, intra, inter, 0, true);
        GraphSummary tree = new GraphSummary(GraphPattern.BALANCED_TREE, nCh, bw, bw, intra, inter, 0, true);
        GraphSet g = TuningFixtures.ringAndTree(ring, tree);
        return new TuningInput(g, nNodes * ppn, nNodes, sm, sm, CpuKind.INTEL_X86, false, false, false, ppn,
                GraphPattern.BALANCED_TREE, nCh, NcclSettings.parse(env), TuningConstants.of(v));
    }

    /**
     * Ring/LL: v2.18.5-1 line 178 {@code min(llMaxBw, busBw * ((nNodes > 1 || AllReduce || Reduce) ? 1/4 : 1/3))};
     * v2.21.5-1 line 180 {@code min(llMaxBw, busBw * .5)}. 8x A100 (sm80) on NVSwitch, 12 ch x 20 GB/s = 240 GB/s
     * (ND A100 v4's graph): 2.18.5 AllReduce min(87.7, 240/4) = 60; AllGather on one host min(87.7, 240/3) = 80,
     * algBw 80 x 8/7 = 91.43; 2.21.5 and 2.28.9 min(87.7, 120) = 87.7 (llMaxBws Ampere N1 87.7, line 88).
     */
    @Test
    void ringLlIsAQuarterUpTo220() {
        TuningInput old = host(8, 80, 12, 20, PathType.NVL, NcclVersion.V2_18_5, Map.of());
        assertEquals(60.0, NcclTuningModel.ringBusBw(old, Protocol.LL), EPS);
        assertEquals(80.0 * 8 / 7, NcclTuningModel.tune(old).bandwidth(Collective.ALL_GATHER, Algorithm.RING,
                Protocol.LL), 1e-4);
        assertEquals(60.0, NcclTuningModel.ringBusBw(host(8, 80, 12, 20, PathType.NVL, NcclVersion.V2_19_4,
                Map.of()), Protocol.LL), EPS, "2.20.5 line 181: still 1/4");
        for (NcclVersion v : new NcclVersion[] {NcclVersion.V2_21_5, NcclVersion.V2_28_9}) {
            assertEquals(87.7, NcclTuningModel.ringBusBw(host(8, 80, 12, 20, PathType.NVL, v, Map.of()),
                    Protocol.LL), EPS, v.text());
        }
    }

    /**
     * llMaxBws Hopper N1: {87.7, 22.5, 19.0} at v2.20.5-1 line 89, 141.0 from v2.21.5-1 line 89. 8x H100, 16 ch x 40
     * GB/s = 640: 2.19.4 min(87.7, 640/4) = 87.7; 2.21.5 min(141, 640/2) = 141. Blackwell has no row before 2.25
     * (compCapIndex stops at Hopper, v2.24.3-1), so 2.23.4 gives it Hopper's 141; 2.25.1 2 x 141 = 282.
     */
    @Test
    void hopperLlCapFrom221AndBlackwellRowFrom225() {
        assertEquals(87.7, NcclTuningModel.ringBusBw(host(8, 90, 16, 40, PathType.NVL, NcclVersion.V2_19_4,
                Map.of()), Protocol.LL), EPS);
        assertEquals(141.0, NcclTuningModel.ringBusBw(host(8, 90, 16, 40, PathType.NVL, NcclVersion.V2_21_5,
                Map.of()), Protocol.LL), EPS);
        assertEquals(141.0, TuningConstants.of(NcclVersion.V2_23_4).llMaxBw(3, 0), EPS);
        assertEquals(282.0, TuningConstants.of(NcclVersion.V2_25_1).llMaxBw(3, 0), EPS);
    }

    /**
     * One object per release: {@code of} returns the same instance on every call (made once, not per call), carrying
     * the release asked for; the older entries share 2.28.9's tables (NcclVersion's javadoc: "2.28.9's tables
     * otherwise"), so their Hopper Ring/LL128 N1 cap is 2.28.9's 36.7 (v2.28.9-1 src/graph/tuning.cc
     * perChMaxRingLL128Bws); 2.8-2.11 have no Hopper row and cap every GPU's LL128 alike: AllReduce 16.9 to 2.9
     * (v2.8.4-1 line 74, {@code ll128MaxBwPerCh}), 20.0 from 2.10 (v2.10.3-1 line 73).
     */
    @Test
    void ofMakesOneInstancePerRelease() {
        for (NcclVersion v : NcclVersion.values()) {
            TuningConstants c = TuningConstants.of(v);
            assertSame(c, TuningConstants.of(v), v.text());
            assertEquals(v, c.version());
            double hopper = v == NcclVersion.V2_8_4 ? 16.9 : v == NcclVersion.V2_10_3 ? 20.0 : 36.7;
            assertEquals(hopper, c.perChMaxRingLl128Bw(AR, GpuGeneration.HOPPER, 0), EPS, v.text());
        }
        assertSame(TuningConstants.NCCL_2_28_9, TuningConstants.of(NcclVersion.V2_28_9));
        assertSame(TuningConstants.NCCL_2_30_7, TuningConstants.of(NcclVersion.V2_30_7));
    }

    /**
     * Blackwell per-channel caps: Hopper's up to 2.24 (perChMaxTreeBws Hopper N1 38.7, v2.24.3-1), twice Hopper's
     * in 2.25-2.27 ({@code 2*38.7} = 77.4, {@code 2*36.7} = 73.4, {@code 2*29.0} = 58.0; v2.25.1-1, v2.27.3-1),
     * 2.28.9's own after ({70.0, 42.8, 24.0}, v2.28.9-1 line 191).
     */
    @Test
    void blackwellCapsPerRelease() {
        GpuGeneration b = GpuGeneration.BLACKWELL;
        assertEquals(38.7, TuningConstants.of(NcclVersion.V2_23_4).perChMaxTreeBw(b, 0), EPS);
        assertEquals(77.4, TuningConstants.of(NcclVersion.V2_27_3).perChMaxTreeBw(b, 0), EPS);
        assertEquals(73.4, TuningConstants.of(NcclVersion.V2_25_1).perChMaxRingLl128Bw(AR, b, 1), EPS);
        assertEquals(58.0, TuningConstants.of(NcclVersion.V2_25_1).perChMaxTreeLl128Bw(AR, b, 2), EPS);
        assertEquals(70.0, TuningConstants.of(NcclVersion.V2_28_9).perChMaxTreeBw(b, 0), EPS);
        assertEquals(34.6, TuningConstants.of(NcclVersion.V2_28_9).perChMaxRingLl128Bw(AR, b, 1), EPS);
    }

    /**
     * Ring/LL128 at one rank per host: v2.18.5-1 line 179 and v2.22.3-1 line 179 {@code busBw * (ppn < 2 ? 0.7 :
     * 0.92)}; 0.92 from v2.23.4-1 line 188. 2 hosts x 1 H100, 2 ch x 12 GB/s (nNodes <= 2 takes bwIntra) = 24:
     * 2.22 min(0.7 x 24, 2 x 36.7) = 16.8; 2.23.4 0.92 x 24 = 22.08. Two ranks per host keep 0.92 in 2.22.
     */
    @Test
    void ringLl128AtOneRankPerHostIsSevenTenthsUpTo222() {
        Map<String, String> on = Map.of("NCCL_PROTO", "LL128");
        assertEquals(16.8, NcclTuningModel.ringBusBw(hosts(2, 1, 90, 2, 12, PathType.PXB, NcclVersion.V2_21_5, on),
                Protocol.LL128), EPS);
        assertEquals(22.08, NcclTuningModel.ringBusBw(hosts(2, 1, 90, 2, 12, PathType.PXB, NcclVersion.V2_23_4, on),
                Protocol.LL128), EPS);
        assertEquals(22.08, NcclTuningModel.ringBusBw(hosts(2, 2, 90, 2, 12, PathType.PXB, NcclVersion.V2_21_5, on),
                Protocol.LL128), EPS);
    }

    /**
     * PAT AllGather, 4 hosts x 1 rank (PAT's default needs nNodes == nRanks), tree graph 2 ch x 12 GB/s, 3+ hosts take
     * bwInter: busBw 24, not converted for a non-Ring AllGather. v2.23.4-1 line 193 {@code busBw *= .85}: 20.4 GB/s;
     * v2.24.3-1 line 256 and v2.28.9-1 line 310 {@code busBw *= .75}: 18.0 GB/s.
     */
    @Test
    void patIsEightyFivePercentIn223() {
        Collective ag = Collective.ALL_GATHER;
        assertEquals(20.4, NcclTuningModel.tune(hosts(4, 1, 90, 2, 12, PathType.PXB, NcclVersion.V2_23_4, Map.of()))
                .bandwidth(ag, Algorithm.PAT, Protocol.SIMPLE), 1e-6);
        assertEquals(18.0, NcclTuningModel.tune(hosts(4, 1, 90, 2, 12, PathType.PXB, NcclVersion.V2_25_1, Map.of()))
                .bandwidth(ag, Algorithm.PAT, Protocol.SIMPLE), 1e-6);
    }

    private static boolean ll128(TuningInput in) {
        return NcclTuningModel.protocolEnabled(in, AR, Algorithm.RING, Protocol.LL128);
    }

    /**
     * LL128 default by compute capability: v2.18.5-1 lines 288-293 and v2.24.3-1 line 427 on {@code switch
     * (minCompCap) case 70, 80, 90} else 0; v2.25.1-1 lines 432-436 add {@code case 100, case 120}; v2.27.3-1 line
     * 463 {@code !(minCompCap < 70 || ...)}. An sm86 NVLink pair: off to 2.26, on from 2.27; sm100 on from 2.25;
     * sm103 off in 2.25 (no case), on in 2.28.9.
     */
    @Test
    void ll128DefaultFollowsEachReleasesComputeCapabilityList() {
        Map<String, String> none = Map.of();
        assertFalse(ll128(host(2, 86, 2, 20, PathType.NVL, NcclVersion.V2_25_1, none)));
        assertTrue(ll128(host(2, 86, 2, 20, PathType.NVL, NcclVersion.V2_27_3, none)));
        assertTrue(ll128(host(2, 80, 2, 20, PathType.NVL, NcclVersion.V2_18_5, none)));
        assertFalse(ll128(host(2, 100, 2, 20, PathType.NVL, NcclVersion.V2_23_4, none)));
        assertTrue(ll128(host(2, 100, 2, 20, PathType.NVL, NcclVersion.V2_25_1, none)));
        assertFalse(ll128(host(2, 103, 2, 20, PathType.NVL, NcclVersion.V2_25_1, none)));
        assertTrue(ll128(host(2, 103, 2, 20, PathType.NVL, NcclVersion.V2_28_9, none)));
        assertTrue(ll128(host(2, 86, 2, 20, PathType.NVL, NcclVersion.V2_21_5, Map.of("NCCL_PROTO", "LL128"))),
                "NCCL_PROTO naming LL128 skips the rule (protoEnable 1)");
    }

    /**
     * sm90 between hosts over PXN: v2.18.5-1 line 285 {@code typeInter <= PATH_PXB || (minCompCap >= 90 &&
     * typeInter <= PATH_PXN)}, no NCCL_LL128_C2C (same at v2.26.2-1); v2.28.9-1 lines 482-487 allow PXN only with
     * NCCL_LL128_C2C (default 1). With NCCL_LL128_C2C=0: on in 2.25.1, off in 2.28.9.
     */
    @Test
    void sm90ReachesPxnWithoutTheC2cSwitchBefore227() {
        Map<String, String> c2cOff = Map.of("NCCL_LL128_C2C", "0");
        assertTrue(ll128(hosts(2, 8, 90, 2, 20, PathType.PXN, NcclVersion.V2_25_1, c2cOff)));
        assertFalse(ll128(hosts(2, 8, 90, 2, 20, PathType.PXN, NcclVersion.V2_28_9, c2cOff)));
        assertFalse(ll128(hosts(2, 8, 80, 2, 20, PathType.PXN, NcclVersion.V2_25_1, Map.of())), "sm80: PXB at most");
    }
}
