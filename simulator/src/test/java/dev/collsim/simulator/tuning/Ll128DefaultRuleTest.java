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
 * NCCL's default LL128 enable rule, read at both modelled tags: {@code src/graph/tuning.cc ncclTopoTuneModel}, the
 * {@code if (pEnable == 2 && p == NCCL_PROTO_LL128)} block. NCCL 2.28.9 (lines 480-494; 2.29.2 and 2.29.7 the same,
 * line 492-493): {@code pEnable &= (minCompCap == maxCompCap)}. NCCL 2.30.7 (lines 518-536):
 * {@code pEnable &= (minCompCap == maxCompCap || minCompCap >= 90)}. Both: {@code typeIntra <= PATH_NVB},
 * {@code typeInter <= PATH_PXB} (PXN on sm90+ with NCCL_LL128_C2C), and {@code !(minCompCap < 70 || ...)}. No
 * switch over compute capabilities exists at either tag, so an sm86 NVLink pair keeps LL128 by default.
 */
class Ll128DefaultRuleTest {

    private static final Collective AR = Collective.ALL_REDUCE;

    /** One host, ring and tree 2 ch x 20 GB/s on the given intra path, sm range [minSm, maxSm]. */
    private static TuningInput pair(int minSm, int maxSm, PathType intra, NcclVersion v, Map<String, String> env) {
        GraphSummary ring = GraphSummary.singleHost(GraphPattern.RING, 2, 20, intra);
        GraphSummary tree = GraphSummary.singleHost(GraphPattern.BALANCED_TREE, 2, 20, intra);
        GraphSet g = TuningFixtures.ringAndTree(ring, tree);
        return new TuningInput(g, 2, 1, minSm, maxSm, CpuKind.INTEL_X86, false, false, false, 2,
                GraphPattern.BALANCED_TREE, 4, NcclSettings.parse(env), TuningConstants.of(v));
    }

    private static boolean ll128(int minSm, int maxSm, PathType intra, NcclVersion v) {
        return NcclTuningModel.protocolEnabled(pair(minSm, maxSm, intra, v, Map.of()), AR, Algorithm.RING,
                Protocol.LL128);
    }

    /** Hopper with Blackwell on NVLink: 2.30.7's {@code || minCompCap >= 90} enables it, 2.28.9 does not. */
    @Test
    void mixedHopperAndBlackwellDependsOnTheRelease() {
        assertTrue(ll128(90, 100, PathType.NVL, NcclVersion.V2_30_7));
        assertFalse(ll128(90, 100, PathType.NVL, NcclVersion.V2_28_9));
        assertTrue(ll128(90, 90, PathType.NVL, NcclVersion.V2_28_9), "one compute capability: on in 2.28.9 too");
        assertEquals(0.0, NcclTuningModel.tune(pair(90, 100, PathType.NVL, NcclVersion.V2_28_9, Map.of()))
                .bandwidth(AR, Algorithm.RING, Protocol.LL128), "a disabled protocol has bandwidth 0 (line 495)");
    }

    /**
     * Ampere sm80 with sm86 is mixed below sm90: off in both releases modelled in full. sm86 alone on NVLink: on in both
     * (releases before 2.27 list their compute capabilities: OlderReleaseRulesTest).
     */
    @Test
    void ampereMixedIsOffAndAnSm86NvlinkPairIsOn() {
        for (NcclVersion v : new NcclVersion[] {NcclVersion.V2_28_9, NcclVersion.V2_30_7}) {
            assertFalse(ll128(80, 86, PathType.NVL, v), v.toString());
            assertTrue(ll128(86, 86, PathType.NVL, v), v.toString());
            assertFalse(ll128(60, 60, PathType.NVL, v), "below sm70: " + v);
            assertFalse(ll128(89, 89, PathType.SYS, v), "typeIntra SYS > NVB: " + v);
        }
    }

    /** NCCL_PROTO=LL128 sets protoEnable 1: the default rule is skipped, so a SYS sm89 pair (the L40S) runs it. */
    @Test
    void forcedLl128SkipsTheRule() {
        TuningInput in = pair(89, 89, PathType.SYS, NcclVersion.V2_28_9, Map.of("NCCL_PROTO", "LL128"));
        assertTrue(NcclTuningModel.protocolEnabled(in, AR, Algorithm.RING, Protocol.LL128));
    }
}
