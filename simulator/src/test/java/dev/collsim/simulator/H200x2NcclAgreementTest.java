package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.TuningConstants;
import dev.collsim.simulator.tuning.TuningInput;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * collsim's channel search and tuning table for the 2x H200 (NV18) machine of issue 8 against what NCCL 2.28.3
 * itself printed on that machine with NCCL_NVLS_ENABLE=0. The machine is built from NCCL's own topology dump
 * ({@code data/device/h200x2-2026-11-29/nccl-topo-dump.xml}); every expected value below was read by hand from
 * {@code data/device/h200x2-2026-11-29/nccl-info-allreduce.txt}: the GRAPH lines (lines 200-203 region, "Pattern 4,
 * crossNic 0, nChannels 12, bw 30.000000/30.000000, type NVL/PIX" and "Pattern 1, ... nChannels 12, bw
 * 60.000000/60.000000, type NVL/PIX"), the INIT line "24 coll channels, 24 collnet channels, 0 nvls channels, 32
 * p2p channels" and the TUNING table (lines 258-291, latency us / algBw GB/s, printed rounded to 0.1).
 */
class H200x2NcclAgreementTest {

    private static final Path DIR = Path.of("..", "data", "device", "h200x2-2026-11-29");
    private static final double ROUNDED = 0.05 + 1e-9;

    private static ChannelPlan plan() throws Exception {
        Topology topo = ClusterLoader.read("nccl-topo-dump.xml",
                Files.readString(DIR.resolve("nccl-topo-dump.xml")));
        NcclSettings s = NcclSettings.parse(Map.of("NCCL_NVLS_ENABLE", "0"));
        return ChannelSearch.search(topo, topo.gpus(), s, NcclVersion.V2_28_9);
    }

    private static CostTable table(ChannelPlan plan) {
        NcclSettings s = NcclSettings.parse(Map.of("NCCL_NVLS_ENABLE", "0"));
        TuningInput in = new TuningInput(plan.graphs(), plan.nRanks(), plan.nNodes(), plan.minSm(), plan.maxSm(),
                plan.cpu(), plan.nvlsSupport(), s.collnetEnable(), plan.hasNvSwitch(), plan.maxLocalRanks(),
                plan.graphs().tree().pattern(), plan.runtimeChannels(), s, TuningConstants.of(NcclVersion.V2_28_9));
        return NcclTuningModel.tune(in);
    }

    private static void assertGraph(GraphSummary g, int pattern, int nChannels, double bw) {
        assertEquals(pattern, g.pattern().ncclNumber(), "pattern");
        assertEquals(nChannels, g.nChannels(), "nChannels of pattern " + pattern);
        assertEquals(bw, g.bwIntra(), 1e-9, "bwIntra of pattern " + pattern);
        assertEquals(bw, g.bwInter(), 1e-9, "bwInter of pattern " + pattern);
        assertEquals(PathType.NVL, g.typeIntra(), "typeIntra of pattern " + pattern);
        assertEquals(PathType.PIX, g.typeInter(), "typeInter of pattern " + pattern);
    }

    /** GRAPH lines: ring pattern 4, 12 x 30 GB/s; tree pattern 1, 12 x 60 GB/s; both NVL/PIX. */
    @Test
    void graphsMatchNcclsSearch() throws Exception {
        ChannelPlan p = plan();
        assertGraph(p.graphs().ring(), 4, 12, 30);
        assertGraph(p.graphs().tree(), 1, 12, 60);
    }

    /** INIT: "24 coll channels, ... 0 nvls channels, 32 p2p channels". */
    @Test
    void runtimeChannelsMatchNcclsInit() throws Exception {
        ChannelPlan p = plan();
        assertEquals(24, p.runtimeChannels());
        assertEquals(32, p.p2pChannels());
        assertEquals(false, p.nvlsSupport(), "NCCL_NVLS_ENABLE=0");
    }

    private static void cell(CostTable t, Collective f, Algorithm a, Protocol p, double lat, double bw) {
        String what = f.ncclName() + " " + a.ncclName() + "/" + p.ncclName();
        assertEquals(bw, t.bandwidth(f, a, p), ROUNDED, what + " algBw");
        if (bw > 0) {
            assertEquals(lat, t.latency(f, a, p), ROUNDED, what + " latency");
        }
    }

    private static void row(CostTable t, Collective f, Algorithm a, double... latBw) {
        Protocol[] ps = {Protocol.LL, Protocol.LL128, Protocol.SIMPLE};
        for (int i = 0; i < 3; i++) {
            cell(t, f, a, ps[i], latBw[2 * i], latBw[2 * i + 1]);
        }
    }

    /** TUNING table, Tree and Ring columns, every function (log lines 260-264). */
    @Test
    void treeAndRingEntriesMatchNcclsTuningTable() throws Exception {
        CostTable t = table(plan());
        for (Collective f : new Collective[] {Collective.BROADCAST, Collective.REDUCE}) {
            row(t, f, Algorithm.TREE, 0, 0, 0, 0, 0, 0);
            row(t, f, Algorithm.RING, 7.2, 141.0, 15.9, 331.2, 11.8, 360.0);
        }
        for (Collective f : new Collective[] {Collective.ALL_GATHER, Collective.REDUCE_SCATTER}) {
            row(t, f, Algorithm.TREE, 0, 0, 0, 0, 0, 0);
            row(t, f, Algorithm.RING, 7.2, 282.0, 15.9, 662.4, 11.8, 720.0);
        }
        row(t, Collective.ALL_REDUCE, Algorithm.TREE, 8.0, 61.1, 16.5, 180.6, 16.4, 232.2);
        row(t, Collective.ALL_REDUCE, Algorithm.RING, 7.8, 141.0, 17.8, 331.2, 15.2, 360.0);
    }

    /**
     * TUNING table, CollNet, NVLS, NVLSTree and PAT columns: NCCL gives every one of them algBw 0 on this machine
     * (no CollNet plugin, NCCL_NVLS_ENABLE=0, PAT only with one rank per node). Their latencies are printed but
     * unused (an entry with bandwidth 0 is never chosen), so only the bandwidths are asserted.
     */
    @Test
    void otherAlgorithmsAreOffAsInNcclsTuningTable() throws Exception {
        CostTable t = table(plan());
        Algorithm[] off = {Algorithm.COLLNET_DIRECT, Algorithm.COLLNET_CHAIN, Algorithm.NVLS, Algorithm.NVLS_TREE,
            Algorithm.PAT};
        for (Collective f : new Collective[] {Collective.BROADCAST, Collective.REDUCE, Collective.ALL_GATHER,
            Collective.REDUCE_SCATTER, Collective.ALL_REDUCE}) {
            for (Algorithm a : off) {
                for (Protocol p : Protocol.values()) {
                    assertEquals(0, t.bandwidth(f, a, p), 0, f.ncclName() + " " + a.ncclName() + "/" + p.ncclName());
                }
            }
        }
    }
}
