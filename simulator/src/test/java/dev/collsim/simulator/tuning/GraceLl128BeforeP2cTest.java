package dev.collsim.simulator.tuning;

import dev.collsim.topology.GraphPattern;
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
 * LL128 between Grace superchip hosts by NCCL release, each expectation read in NCCL's source. A GH200's GPU reaches
 * its NIC through its Grace (NVLink-C2C, then PCIe): NCCL 2.27 and later type that path P2C (v2.27.3-1
 * {@code src/graph/topo.h} PATH_P2C), which the LL128 rule admits on sm90 (v2.30.7-1 {@code src/graph/tuning.cc}
 * lines 520-522, {@code typeInter <= PATH_PXN}, P2C 6 before PXN 7 since 2.28); NCCL 2.25 and 2.26 have no P2C
 * (v2.25.1-1 and v2.26.6-1 {@code topo.h} path lists) and type it PHB, which their rule refuses
 * ({@code typeInter <= PATH_PXB || (minCompCap >= 90 && typeInter <= PATH_PXN)}, v2.25.1-1 line 428, v2.26.6-1
 * line 429), and they build no PXN path to such a NIC (the relay must reach it at PXB or better, v2.26.6-1
 * {@code src/graph/paths.cc} line 677). A DGX-like host (PIX NICs, PXN over NVLink) keeps LL128 in 2.25.
 */
class GraceLl128BeforeP2cTest {

    private static final Collective AR = Collective.ALL_REDUCE;

    /** 2 hosts x 4 sm90 GPUs; ring at {@code ringInter}, tree at {@code treeInter}. */
    private static TuningInput twoHosts(PathType ringInter, PathType treeInter, int runMinor) {
        GraphSummary ring = new GraphSummary(GraphPattern.RING, 4, 40, 25, PathType.NVL, ringInter, 0, true);
        GraphSummary tree = new GraphSummary(GraphPattern.TREE, 4, 40, 25, PathType.NVL, treeInter, 0, true);
        GraphSet g = TuningFixtures.ringAndTree(ring, tree);
        return new TuningInput(g, 8, 2, 90, 90, CpuKind.INTEL_X86, false, false, false, 4, GraphPattern.TREE, 4,
                NcclSettings.parse(Map.of()), TuningConstants.of(NcclVersion.V2_28_9).forRun(runMinor));
    }

    private static boolean ll128(TuningInput in, Algorithm a) {
        return NcclTuningModel.protocolEnabled(in, AR, a, Protocol.LL128);
    }

    @Test
    void graceNicsRunLl128From227Only() {
        for (int minor : new int[] {25, 26}) {
            TuningInput in = twoHosts(PathType.PXN, PathType.P2C, minor);
            assertFalse(ll128(in, Algorithm.TREE), "2." + minor + ": P2C is PHB");
            assertFalse(ll128(in, Algorithm.RING), "2." + minor + ": no PXN to a NIC behind a Grace");
        }
        TuningInput in = twoHosts(PathType.PXN, PathType.P2C, 28);
        assertTrue(ll128(in, Algorithm.TREE));
        assertTrue(ll128(in, Algorithm.RING));
    }

    @Test
    void pixHostsKeepTheirPxnBefore227() {
        TuningInput in = twoHosts(PathType.PXN, PathType.PIX, 25);
        assertTrue(ll128(in, Algorithm.TREE));
        assertTrue(ll128(in, Algorithm.RING), "PXN over a PIX relay exists in 2.25 (paths.cc: relay at PXB or better)");
    }
}
