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
 * Which algorithms a function may use per NCCL release, and {@code ncclPatEnable}, read with {@code git show
 * v2.x.y-1:FILE} from github.com/NVIDIA/nccl (line numbers of that file at that tag). Figures worked by hand.
 */
class OlderReleaseAlgorithmsTest {

    private static final double EPS = 1e-9;
    private static final Collective AG = Collective.ALL_GATHER;
    private static final Collective RS = Collective.REDUCE_SCATTER;

    private static CostTable h100(NcclVersion v) {
        return NcclTuningModel.tune(TuningFixtures.h100(Map.of(), v));
    }

    /** nNodes hosts of one sm90 rank each: tree (PAT's graph) and ring of 2 ch x 20 GB/s, network PXB. */
    private static CostTable onePerHost(int nNodes, NcclVersion v) {
        GraphSummary ring = new GraphSummary(GraphPattern.RING, 2, 20, 20, PathType.LOC, PathType.PXB, 0, true);
        GraphSummary tree = new GraphSummary(GraphPattern.BALANCED_TREE, 2, 20, 20, PathType.LOC, PathType.PXB, 0,
                true);
        GraphSet g = TuningFixtures.ringAndTree(ring, tree);
        return NcclTuningModel.tune(new TuningInput(g, nNodes, nNodes, 90, 90, CpuKind.INTEL_X86, false, false,
                false, 1, GraphPattern.BALANCED_TREE, 2, NcclSettings.DEFAULTS, TuningConstants.of(v)));
    }

    /**
     * NVLS AllGather on 8x H100 (NVLS graph 8 ch, bwIntra 40, bwInter 60). 2.18.5: AllGather is Ring only (v2.18.5-1
     * line 169), so 0. 2.19.4: {@code min(bwIntra, bwInter)} = 40 (line 175), 8 x 40 = 320, converted x 5/6 (line
     * 199; 2.19 converts every algorithm) = 266.67. 2.23.4: not converted for a non-Ring AllGather (v2.23.4-1 line
     * 221): 320. 2.27.3: {@code min(bwIntra (ppn-1)/ppn, 0.9 bwInter)} = min(35, 54) = 35 (v2.27.3-1 line 272), 280.
     * 2.28.9: 40 x 0.85 x 7/8 x 7/8 = 26.03125 (lines 290-295), x 8 = 208.25.
     */
    @Test
    void nvlsAllGatherFrom219() {
        Algorithm n = Algorithm.NVLS;
        Protocol s = Protocol.SIMPLE;
        assertEquals(0.0, h100(NcclVersion.V2_18_5).bandwidth(AG, n, s), EPS);
        assertEquals(0.0, h100(NcclVersion.V2_18_5).bandwidth(RS, n, s), EPS);
        assertEquals(320.0 * 5 / 6, h100(NcclVersion.V2_19_4).bandwidth(AG, n, s), 1e-4);
        assertEquals(320.0, h100(NcclVersion.V2_23_4).bandwidth(RS, n, s), 1e-4);
        assertEquals(280.0, h100(NcclVersion.V2_27_3).bandwidth(AG, n, s), 1e-4);
        assertEquals(208.25, h100(NcclVersion.V2_28_9).bandwidth(AG, n, s), 1e-4);
    }

    /**
     * AllGather/ReduceScatter algorithms per release ({@code ncclTopoTuneModel}'s loop): Ring in 2.18.5 (lines
     * 168-169); + NVLS in 2.19.4 (lines 168-169); + CollNetDirect in 2.20.5 (lines 169-170); + PAT in 2.23.4 (lines
     * 171-174). Broadcast is Ring only and AllReduce never PAT at every tag read.
     */
    @Test
    void allGatherAlgorithmsPerRelease() {
        assertFalse(new ReleaseRules(NcclVersion.V2_18_5).offers(RS, Algorithm.NVLS));
        assertTrue(new ReleaseRules(NcclVersion.V2_19_4).offers(RS, Algorithm.NVLS));
        assertFalse(new ReleaseRules(NcclVersion.V2_19_4).offers(AG, Algorithm.COLLNET_DIRECT),
                "2.20.5 is the first tag with CollNetDirect AllGather; 2.19 takes 2.19.4's rules");
        assertTrue(new ReleaseRules(NcclVersion.V2_21_5).offers(AG, Algorithm.COLLNET_DIRECT));
        assertFalse(new ReleaseRules(NcclVersion.V2_21_5).offers(AG, Algorithm.PAT));
        assertTrue(new ReleaseRules(NcclVersion.V2_23_4).offers(AG, Algorithm.PAT));
        assertTrue(new ReleaseRules(NcclVersion.V2_18_5).offers(Collective.ALL_REDUCE, Algorithm.NVLS_TREE));
        assertFalse(new ReleaseRules(NcclVersion.V2_30_7).offers(Collective.ALL_REDUCE, Algorithm.PAT));
        assertFalse(new ReleaseRules(NcclVersion.V2_30_7).offers(Collective.BROADCAST, Algorithm.NVLS));
    }

    /**
     * PAT AllGather on 4 hosts x 1 rank (tree graph 2 ch x 20 GB/s; more than 2 nodes, so bwInter): 2.21.5 has no PAT
     * (0); 2.23.4 2 x 20 x 0.85 = 34 (v2.23.4-1 line 193), not converted (line 221); from 2.24.3 x 0.75 (v2.24.3-1
     * line 256), so 30 under 2.25's entry. With 2 ranks per host the default NCCL_PAT_ENABLE=2 turns it off
     * ({@code nNodes != nRanks}, v2.23.4-1 line 112).
     */
    @Test
    void patFrom223() {
        assertEquals(0.0, onePerHost(4, NcclVersion.V2_21_5).bandwidth(AG, Algorithm.PAT, Protocol.SIMPLE), EPS);
        assertEquals(34.0, onePerHost(4, NcclVersion.V2_23_4).bandwidth(AG, Algorithm.PAT, Protocol.SIMPLE), 1e-6);
        assertEquals(30.0, onePerHost(4, NcclVersion.V2_25_1).bandwidth(AG, Algorithm.PAT, Protocol.SIMPLE), 1e-6);
        assertFalse(new ReleaseRules(NcclVersion.V2_23_4).ncclPatEnable(2, 2, 4, 90));
    }

    /**
     * {@code ncclPatEnable}: from 2.26.2 {@code if (comm->minCompCap < 60) return 0;} comes before the setting is read
     * (v2.26.2-1 line 180, v2.28.9-1 line 204), so sm52 has no PAT even with NCCL_PAT_ENABLE=1; 2.23-2.25 return the
     * setting as it is (v2.25.1-1 lines 178-184: no compute capability test), and with the default 2 enable PAT at
     * one rank per node on any compute capability. NCCL_PAT_ENABLE=0 turns it off everywhere.
     */
    @Test
    void patNeedsSm60From226() {
        assertTrue(new ReleaseRules(NcclVersion.V2_25_1).ncclPatEnable(1, 4, 4, 52));
        assertTrue(new ReleaseRules(NcclVersion.V2_25_1).ncclPatEnable(2, 4, 4, 52));
        assertFalse(new ReleaseRules(NcclVersion.V2_27_3).ncclPatEnable(1, 4, 4, 52));
        assertFalse(new ReleaseRules(NcclVersion.V2_28_9).ncclPatEnable(2, 4, 4, 52));
        assertTrue(new ReleaseRules(NcclVersion.V2_28_9).ncclPatEnable(2, 4, 4, 60));
        assertTrue(new ReleaseRules(NcclVersion.V2_28_9).ncclPatEnable(1, 2, 4, 60), "1 ignores the ranks per node");
        assertFalse(new ReleaseRules(NcclVersion.V2_23_4).ncclPatEnable(0, 4, 4, 90));
    }

    /**
     * NCCL_ALGO=Tree on 8x H100 (ring 12 ch x 30 GB/s): 2.18.5 keeps Ring for AllGather ({@code if (a ==
     * NCCL_ALGO_RING && c != ncclFuncAllReduce) continue;}, v2.18.5-1 line 297), 12 x 30 = 360 GB/s busBw x 8/7 =
     * 411.43 algBw; AllReduce Ring is off. From 2.19.4 the filter takes Ring off AllGather too (v2.19.4-1 line 301).
     */
    @Test
    void ncclAlgoTreeKeepsRingForAllGatherIn218() {
        Map<String, String> tree = Map.of("NCCL_ALGO", "Tree");
        CostTable old = NcclTuningModel.tune(TuningFixtures.h100(tree, NcclVersion.V2_18_5));
        assertEquals(360.0 * 8 / 7, old.bandwidth(AG, Algorithm.RING, Protocol.SIMPLE), 1e-4);
        assertEquals(0.0, old.bandwidth(Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE), EPS);
        CostTable newer = NcclTuningModel.tune(TuningFixtures.h100(tree, NcclVersion.V2_19_4));
        assertEquals(0.0, newer.bandwidth(AG, Algorithm.RING, Protocol.SIMPLE), EPS);
    }

    /**
     * NVLS AllGather at the call ({@code topoGetAlgoInfo}): one node only up to 2.26 (v2.24.3-1 line 1600), and in
     * 2.25-2.26 at most 32 ranks (v2.25.1-1 line 1610): a 64-rank NVLink domain of one node may run it in 2.24,
     * not in 2.25; from 2.27 at most 32 local ranks, several nodes allowed (through CollNet; v2.27.3-1 line 1771).
     */
    @Test
    void nvlsAllGatherAtTheCall() {
        assertTrue(new ReleaseRules(NcclVersion.V2_23_4).nvlsAllGatherReduceScatter(1, 64, 64));
        assertFalse(new ReleaseRules(NcclVersion.V2_25_1).nvlsAllGatherReduceScatter(1, 64, 64));
        assertFalse(new ReleaseRules(NcclVersion.V2_25_1).nvlsAllGatherReduceScatter(2, 16, 8));
        assertTrue(new ReleaseRules(NcclVersion.V2_27_3).nvlsAllGatherReduceScatter(2, 16, 8));
        assertFalse(new ReleaseRules(NcclVersion.V2_28_9).nvlsAllGatherReduceScatter(1, 64, 64));
    }
}
