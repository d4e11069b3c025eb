package dev.collsim.simulator.tuning;

import dev.collsim.topology.GraphPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

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
 * NVLS and NVLSTree bandwidth and latency of NCCL releases before 2.28, read with {@code git show
 * v2.x.y-1:src/graph/tuning.cc} from github.com/NVIDIA/nccl (line numbers at that tag). Figures worked by hand.
 */
class OlderReleaseNvlsTest {

    private static final double EPS = 1e-6;
    private static final Collective AR = Collective.ALL_REDUCE;
    private static final Protocol S = Protocol.SIMPLE;

    /**
     * nNodes hosts of 8 sm90 ranks on NVSwitch; NVLS graph 8 ch, bwIntra 40, bwInter 25 GB/s, latencyInter 5 us (ring
     * and tree 8 ch x 25 GB/s).
     */
    private static TuningInput hosts(int nNodes, NcclVersion v) {
        GraphSummary ring = new GraphSummary(GraphPattern.RING, 8, 25, 25, PathType.NVL, PathType.PXB, 5, true);
        GraphSummary tree = new GraphSummary(GraphPattern.BALANCED_TREE, 8, 25, 25, PathType.NVL, PathType.PXB, 5,
                true);
        GraphSummary nvls = new GraphSummary(GraphPattern.NVLS, 8, 40, 25, PathType.NVL, PathType.PXB, 5, true);
        GraphSet g = new GraphSet(ring, tree, nvls, GraphSummary.none(GraphPattern.COLLNET_DIRECT),
                GraphSummary.none(GraphPattern.TREE));
        return new TuningInput(g, 8 * nNodes, nNodes, 90, 90, CpuKind.INTEL_X86, true, false, true, 8,
                GraphPattern.BALANCED_TREE, 16, NcclSettings.DEFAULTS, TuningConstants.of(v));
    }

    private static CostTable h100(NcclVersion v) {
        return NcclTuningModel.tune(TuningFixtures.h100(Map.of(), v));
    }

    /**
     * NVLS AllReduce on one 8x H100 host (NVLS graph 8 ch, bwIntra 40, bwInter 60). 2.18.5: bw = bwIntra (one node,
     * line 174), 8 x 40 = 320, x 5/6 (line 197) = 266.67; latency baseLat 23 (line 59) + nothing on one node (line
     * 236). 2.19.4: min(40, 60) = 40 (line 175), same 266.67 (line 199); latency intraLat = hwLat NVLink 23 (lines 69,
     * 240). 2.21.5: hwLat 25 (line 69). 2.28.9: 8 x min(40 x 0.85 x 7/8 x 2, 60) = 476 x 8/14 = 272 (lines 290-299,
     * 348), 25 us.
     */
    @Test
    void nvlsAllReduceOnOneHost() {
        Algorithm n = Algorithm.NVLS;
        assertEquals(320.0 * 5 / 6, h100(NcclVersion.V2_18_5).bandwidth(AR, n, S), 1e-4);
        assertEquals(23.0, h100(NcclVersion.V2_18_5).latency(AR, n, S), EPS);
        assertEquals(320.0 * 5 / 6, h100(NcclVersion.V2_19_4).bandwidth(AR, n, S), 1e-4);
        assertEquals(23.0, h100(NcclVersion.V2_19_4).latency(AR, n, S), EPS);
        assertEquals(25.0, h100(NcclVersion.V2_21_5).latency(AR, n, S), EPS);
        assertEquals(272.0, h100(NcclVersion.V2_28_9).bandwidth(AR, n, S), 1e-4);
        assertEquals(25.0, h100(NcclVersion.V2_28_9).latency(AR, n, S), EPS);
    }

    /**
     * NVLSTree AllReduce on 2 hosts (16 ranks, ppn 8). 2.18.5: bw = bwIntra 40 (nNodes <= 2, line 174), 320 x .70 x
     * 2 / (2 x 1) (line 198) = 224; latency 23 + 2 x (2-1) x hwLat[NET][NVLSTree] 19 = 61, without the graph's 5 us
     * (lines 59, 77, 238). 2.19.4: min(40, bwInter 25) = 25 (line 176), 200 x 5/6 = 166.67; latency 0 + 23 + 2 x 1 x
     * (14 + 5 + 5) = 71 (lines 69, 77, 208-210, 243). 2.21.5 and 2.27.3: 25 + 48 = 73. 2.28.9: min(40 x 0.85 x 7/8 x
     * 2 = 59.5, 2 x 25 = 50, cap 57.7) = 50 (lines 290-299), 400 x 16/30 = 213.33; latency 25 + 2 x (20.9 + 10) =
     * 86.8 (line 165).
     */
    @Test
    void nvlsTreeOnTwoHosts() {
        Algorithm t = Algorithm.NVLS_TREE;
        assertEquals(224.0, NcclTuningModel.tune(hosts(2, NcclVersion.V2_18_5)).bandwidth(AR, t, S), 1e-4);
        assertEquals(61.0, NcclTuningModel.tune(hosts(2, NcclVersion.V2_18_5)).latency(AR, t, S), EPS);
        assertEquals(200.0 * 5 / 6, NcclTuningModel.tune(hosts(2, NcclVersion.V2_19_4)).bandwidth(AR, t, S), 1e-4);
        assertEquals(71.0, NcclTuningModel.tune(hosts(2, NcclVersion.V2_19_4)).latency(AR, t, S), EPS);
        assertEquals(73.0, NcclTuningModel.tune(hosts(2, NcclVersion.V2_21_5)).latency(AR, t, S), EPS);
        assertEquals(73.0, NcclTuningModel.tune(hosts(2, NcclVersion.V2_27_3)).latency(AR, t, S), EPS);
        assertEquals(200.0 * 5 / 6, NcclTuningModel.tune(hosts(2, NcclVersion.V2_27_3)).bandwidth(AR, t, S), 1e-4);
        assertEquals(400.0 * 16 / 30, NcclTuningModel.tune(hosts(2, NcclVersion.V2_28_9)).bandwidth(AR, t, S), 1e-4);
        assertEquals(86.8, NcclTuningModel.tune(hosts(2, NcclVersion.V2_28_9)).latency(AR, t, S), EPS);
    }

    /**
     * NCCL 2.26.2 on 2 hosts of 8 H100 with 8 x 400 Gb/s (ring and tree graphs 8 ch x 48/48 GB/s NVL/PXB, NVLS graph
     * 8 ch x 40/48, latencyInter 0: the graphs {@code collsim predict -c dgx-h100x2} prints), worked from v2.26.2-1
     * src/graph/tuning.cc. Tree/LL128: latency 14 + 2 x (7 x 1.25 + 1 x 8.5) = 48.5 us (baseLat, hwLat NVLINK and
     * NET, Tree AllReduce formula); bandwidth min(8 x 48 x 0.92, 8 x 41.4 perChMaxTreeBw N2) = 331.2, then min(331.2 x
     * 120/128, 8 x 36.7) = 293.6, x 0.5 = 146.8 GB/s; ncclTopoGetAlgoTime's treeCorrectionFactor LL128 at
     * log2(bytes/64) 13 (512 KiB) and 14 (1 MiB) is 0.6: 48.5 + 524288 / 88080 = 54.452 us, 48.5 + 1048576 / 88080 =
     * 60.405 us. NVLSTree/Simple: latency 0 + 25 + 2 x 1 x 14 = 53 us; bandwidth 8 x min(40, 48) x 5/6 = 266.67:
     * 54.966 us at 512 KiB, 56.932 us at 1 MiB. NCCL takes the smaller: Tree/LL128 at 512 KiB by half a microsecond,
     * NVLSTree from 1 MiB (the near tie the hopper-infiniband notes of docs/accuracy.md weigh against the measured
     * runs).
     */
    @Test
    void twoH100HostsUnder226TieAt512KiB() {
        GraphSummary ring = new GraphSummary(GraphPattern.RING, 8, 48, 48, PathType.NVL, PathType.PXB, 0, true);
        GraphSummary tree = new GraphSummary(GraphPattern.BALANCED_TREE, 8, 48, 48, PathType.NVL, PathType.PXB, 0,
                true);
        GraphSummary nvls = new GraphSummary(GraphPattern.NVLS, 8, 40, 48, PathType.NVL, PathType.PXB, 0, true);
        GraphSet g = new GraphSet(ring, tree, nvls, GraphSummary.none(GraphPattern.COLLNET_DIRECT),
                GraphSummary.none(GraphPattern.TREE));
        CostTable t = NcclTuningModel.tune(new TuningInput(g, 16, 2, 90, 90, CpuKind.INTEL_X86, true, false, true,
                8, GraphPattern.BALANCED_TREE, 16, NcclSettings.DEFAULTS, TuningConstants.of(NcclVersion.V2_25_1)));
        long k512 = 512 * 1024;
        assertEquals(48.5 + k512 / 88080.0, time(t, Algorithm.TREE, Protocol.LL128, k512), 1e-3);
        assertEquals(53 + k512 / (1000 * 320.0 * 5 / 6), time(t, Algorithm.NVLS_TREE, S, k512), 1e-3);
        assertEquals(Algorithm.TREE, t.select(AR, k512, DataType.FLOAT, RedOp.SUM).orElseThrow().algorithm());
        assertEquals(Protocol.LL128, t.select(AR, k512, DataType.FLOAT, RedOp.SUM).orElseThrow().protocol());
        assertEquals(48.5 + 2 * k512 / 88080.0, time(t, Algorithm.TREE, Protocol.LL128, 2 * k512), 1e-3);
        assertEquals(Algorithm.NVLS_TREE, t.select(AR, 2 * k512, DataType.FLOAT, RedOp.SUM).orElseThrow().algorithm());
    }

    private static double time(CostTable t, Algorithm a, Protocol p, long bytes) {
        return t.time(AR, a, p, bytes, DataType.FLOAT, RedOp.SUM).orElseThrow().timeUs();
    }

    /**
     * NVLSTree on 3 hosts: 2.19.4 min(40, 25/2) = 12.5 (line 176), 100 x 5/6 = 83.33; latency 23 + 2 x log2i(3) = 1 x
     * 24 = 71. 2.18.5: bwInter 25 (more than 2 nodes, line 174), 200 x .70 x 3 / 4 = 105; latency 23 + 2 x 2 x 19 =
     * 99.
     */
    @Test
    void nvlsTreeOnThreeHosts() {
        Algorithm t = Algorithm.NVLS_TREE;
        assertEquals(100.0 * 5 / 6, NcclTuningModel.tune(hosts(3, NcclVersion.V2_19_4)).bandwidth(AR, t, S), 1e-4);
        assertEquals(71.0, NcclTuningModel.tune(hosts(3, NcclVersion.V2_19_4)).latency(AR, t, S), EPS);
        assertEquals(105.0, NcclTuningModel.tune(hosts(3, NcclVersion.V2_18_5)).bandwidth(AR, t, S), 1e-4);
        assertEquals(99.0, NcclTuningModel.tune(hosts(3, NcclVersion.V2_18_5)).latency(AR, t, S), EPS);
    }

    /**
     * collsim's time reads 2.28.9's NVLS figures for an older release ({@link TimeTable}): on one 8x
     * H100 host 272 GB/s and 25 us (worked in {@link #nvlsAllReduceOnOneHost}), not 2.18.5's 266.67 and 23; on 2
     * hosts NVLSTree 213.33 GB/s and 86.8 us, not 224 and 61. Other entries stay the release's: Ring/LL AllReduce on
     * the one host is 2.18.5's min(87.7, 12 x 30 / 4 = 90) = 87.7 (v2.18.5-1 line 178; llMaxBws Hopper N1 87.7, line
     * 89), x 8/14 = 50.11, where 2.28.9 gives min(141, 180) x 8/14 = 80.57. The 2.28.9 table is its own time table.
     */
    @Test
    void timeTableReadsTheCarriedReleasesNvlsFigures() {
        CostTable one = TimeTable.of(h100(NcclVersion.V2_18_5));
        assertEquals(272.0, one.bandwidth(AR, Algorithm.NVLS, S), 1e-4);
        assertEquals(25.0, one.latency(AR, Algorithm.NVLS, S), EPS);
        assertEquals(87.7 * 8 / 14, one.bandwidth(AR, Algorithm.RING, Protocol.LL), 1e-4);
        CostTable two = TimeTable.of(NcclTuningModel.tune(hosts(2, NcclVersion.V2_18_5)));
        assertEquals(400.0 * 16 / 30, two.bandwidth(AR, Algorithm.NVLS_TREE, S), 1e-4);
        assertEquals(86.8, two.latency(AR, Algorithm.NVLS_TREE, S), EPS);
        CostTable newer = h100(NcclVersion.V2_28_9);
        assertSame(newer, TimeTable.of(newer));
    }
}
