package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.PcieGen;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostContext;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.catalog.PcieEightGpu;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.topology.io.xml.NcclTopoXmlReader;
import dev.collsim.units.Bandwidth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The path rates of rings and pairs through the CPU, by hand: hops at NCCL's figure (PCIe Gen4 x16 24, Gen3 x16 12
 * GB/s; NCCL 2.30.7 {@code src/graph/topo.cc}: width x speed code / 80) except the link between two CPUs, at its
 * physical rate from the topology; NCCL's own graph (its inter-CPU constant, its search speeds) is unchanged.
 */
class CpuPathRatesTest {

    private static final double EPS = 1e-9;

    private static ChannelPlan plan(Topology t, List<Gpu> gpus, Map<String, String> env) {
        return ChannelSearch.search(t, gpus, NcclSettings.parse(env), NcclVersion.V2_30_7);
    }

    /**
     * DGX-1 V100, 8 GPUs, hybrid cube-mesh (DGX-1 V100 white paper WP-08437-002: every GPU has 6 NVLink2 links, 2 to
     * each of two peers and 1 to each of two others). NCCL 2.30.7 {@code src/graph/search.cc ncclTopoCompute} with
     * {@code SM70_NVLINK_BW} 20 per link ({@code topo.h}): maxBw 40 (a 2-link pair), totalBw 6 x 20 = 120; at 40
     * only the 2-link pairs fit, one 8-GPU cycle per direction (0-3-2-1-5-6-7-4), 2 x 40 = 80 &lt; 120; at 20
     * (20 / 40 &gt; 0.49) every GPU's 6 links give 6 channels x 20 = 120 = totalBw, optimal; bwIntra 20 &lt; 25, so no
     * duplication. Those 6 channels leave GPU i over its 6 links, each link one channel per direction: the ring's
     * rate at the NVLink2 datasheet's 25 GB/s per link (Tesla V100 datasheet: 300 GB/s bidirectional over 6 links)
     * is 6 x 25 = 150 GB/s per direction. The pair path keeps NCCL's figure: 2 links x 20 = 40.
     */
    @Test
    void directNvlinkRingMovesAtTheDatasheetRateWhileNcclsGraphKeepsItsFigure() {
        Topology t = Catalog.standalone(Catalog.hostType("dgx1-v100").orElseThrow(), 1);
        ChannelPlan p = plan(t, t.gpus(), Map.of());
        GraphSummary ring = p.graphs().ring();
        assertEquals(PathType.NVL, ring.typeIntra());
        assertEquals(6, ring.nChannels());
        assertEquals(20.0, ring.bwIntra(), EPS);
        assertEquals(40.0, p.gpuPathBw(), EPS);
        assertEquals(150.0, p.ringPathBw(), EPS);
        assertEquals(40.0, p.pairPathBw(), EPS);
    }

    /**
     * 2x A100 80GB PCIe over NVLink bridges (12 NVLink3 links between the pair): NCCL's ring graph 12 channels x 20
     * GB/s (12 x SM80_NVLINK_BW 20, NCCL 2.30.7 {@code src/graph/topo.h} line 21). The links' datasheet figure is 12
     * x 25 = 300 GB/s per direction (NVIDIA A100 datasheet: 600 GB/s bidirectional over the bridges), but from sm80 a
     * direct NVLink counts at NCCL's figure, as the same links through NVSwitches do: the ring 0 -> 1 -> 0 loads each
     * direction once, 12 x 20 = 240.
     */
    @Test
    void bridgedA100PairRingMovesAtNcclsFigureNotTheDatasheet() {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("A100-PCIE-80GB").orElseThrow(), 2,
                Bandwidth.ofGbits(100)), 1);
        ChannelPlan p = plan(t, t.gpus(), Map.of());
        GraphSummary ring = p.graphs().ring();
        assertEquals(PathType.NVL, ring.typeIntra());
        assertEquals(240.0, ring.totalIntra(), EPS);
        assertEquals(240.0, p.ringPathBw(), EPS);
        HostModel h = new HostModel(t, Set.of(0), t.gpus(), NcclSettings.parse(Map.of()), 30);
        int[] hop = h.gpuToGpu[0][1].links();
        assertEquals(1, hop.length);
        assertEquals(300.0, h.physicalBw(hop[0]), EPS, "the datasheet figure the ring no longer counts");
        assertEquals(240.0, CpuPathRates.ring(h, List.<int[]>of(new int[] {0, 1})), EPS);
    }

    /**
     * 2x RTX 3090 (sm86) over their NVLink bridge (4 links): NCCL counts 4 x SM86_NVLINK_BW 12 = 48 GB/s (NCCL 2.30.7
     * {@code src/graph/topo.h} line 23); sm86's bridge keeps the datasheet rate in the ring, 4 x 14.0625 = 56.25 GB/s
     * (GA102 whitepaper: 56.25 GB/s per direction over four x4 links), as before the sm80 rule.
     */
    @Test
    void ga10xBridgeKeepsTheDatasheetRate() {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("GeForce RTX 3090").orElseThrow(), 2,
                Bandwidth.ofGbits(100)), 1);
        HostModel h = new HostModel(t, Set.of(0), t.gpus(), NcclSettings.parse(Map.of()), 30);
        assertEquals(56.25, CpuPathRates.ring(h, List.<int[]>of(new int[] {0, 1})), EPS);
        assertEquals(48.0, h.gpuToGpu[0][1].bandwidth(), EPS, "NCCL's path");
    }

    /**
     * GPU0 and GPU4 of the 8x L40S host: GPU0 - switch 0 - CPU0 - UPI - CPU1 - switch 2 - GPU4, four Gen4 x16 hops
     * (24) and the UPI (NCCL's Sapphire Rapids figure 22; physical 3 links x 16 GT/s, 96). NCCL's pair path is 22 and
     * its ring graph the first sm89 speed at most 22: 1 x 20 (40, 30, 20, ...). The ring 0 -> 4 -> 0 loads every hop
     * once per direction: min(24, 96) = 24; the pair alone 24.
     */
    @Test
    void sysPairMovesAtItsPcieLinksNotNcclsInterCpuFigure() {
        Topology t = Catalog.standalone(PcieEightGpu.l40s(), 1);
        ChannelPlan p = plan(t, List.of(t.gpus().get(0), t.gpus().get(4)), Map.of());
        GraphSummary ring = p.graphs().ring();
        assertEquals(PathType.SYS, ring.typeIntra());
        assertEquals(1, ring.nChannels(), "NCCL's decision keeps NCCL's figures");
        assertEquals(20.0, ring.bwIntra(), EPS);
        assertEquals(22.0, p.gpuPathBw(), EPS);
        assertEquals(24.0, p.ringPathBw(), EPS);
        assertEquals(24.0, p.pairPathBw(), EPS);
    }

    /**
     * All 8 L40S: NCCL's ring 1 x 20 (HostModelTest#pcieOnlyHostSearch). Ring 0..7: within a switch the hop is PIX
     * (each GPU link once per direction); 1 -> 2 and 5 -> 6 cross CPU0 / CPU1 (each switch uplink once per direction);
     * 3 -> 4 and 7 -> 0 cross the UPI once per direction. Busiest hop: any GPU link, 24.
     */
    @Test
    void eightGpuRingAcrossSocketsMovesAtTheGpuLink() {
        Topology t = Catalog.standalone(PcieEightGpu.l40s(), 1);
        ChannelPlan p = plan(t, t.gpus(), Map.of());
        assertEquals(20.0, p.graphs().ring().totalIntra(), EPS);
        assertEquals(24.0, p.ringPathBw(), EPS);
    }

    /**
     * 2x RTX 2080 Ti behind one Gen3 x16 switch with P2P off: both hops (0 -> 1, 1 -> 0) go up and down the one 12
     * GB/s uplink, so each direction carries 2 traversals: ring 12 / 2 = 6 (NCCL's graph says the same, 1 x 6); the
     * pair alone 12.
     */
    @Test
    void sharedSwitchUplinkHalvesTheRingNotThePair() {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("GeForce RTX 2080 Ti").orElseThrow(), 2,
                Bandwidth.ofGbits(100), 2), 1);
        ChannelPlan p = plan(t, t.gpus(), Map.of("NCCL_P2P_DISABLE", "1"));
        assertEquals(6.0, p.graphs().ring().totalIntra(), EPS);
        assertEquals(6.0, p.ringPathBw(), EPS);
        assertEquals(12.0, p.pairPathBw(), EPS);
    }

    /**
     * A what-if host whose inter-CPU link is slower than a GPU's PCIe link: 2 Skylake sockets (NCCL SKL_QPI_BW 10)
     * joined by 16 GB/s, 2 L40S on root ports of each. Any ring of the 4 crosses the link once per direction, so its
     * rate is min(24, 16 / 1) = 16: the physical link binds, at its own figure, not NCCL's 10. GPU0 and GPU2 (one per
     * socket): NCCL's pair path 10, the ring 0 -> 2 -> 0 and the pair alone min(24, 16) = 16.
     */
    @Test
    void aSlowInterCpuLinkStillBinds() {
        Topology t = Catalog.standalone(new SlowLinkHost(), 1);
        ChannelPlan all = plan(t, t.gpus(), Map.of());
        assertEquals(PathType.SYS, all.graphs().ring().typeIntra());
        assertEquals(16.0, all.ringPathBw(), EPS);
        ChannelPlan pair = plan(t, List.of(t.gpus().get(0), t.gpus().get(2)), Map.of());
        assertEquals(10.0, pair.gpuPathBw(), EPS, "NCCL's Skylake figure");
        assertEquals(16.0, pair.ringPathBw(), EPS);
        assertEquals(16.0, pair.pairPathBw(), EPS);
    }

    /**
     * Azure NC A100 v4 from Azure's own NCCL XML (topology-model test resource {@code
     * C-topo-azure-ncv4-4xA100pcie-2023-nvlink-pairs.xml}): GPUs 0-1 and 2-3 joined by 12 NVLink3 (NCCL sm80 20 GB/s
     * each, 240), each GPU alone on its AMD CPU node, every GPU link hidden ({@code link_speed=""}, {@code
     * link_width="0"}). Path GPU1 -> GPU2: GPU1-CPU1, CPU1-CPU2, CPU2-GPU2. The GPU link: NCCL's fallback 16 x 60 / 80
     * = 12 GB/s for the search (NCCL 2.30.7 {@code src/graph/topo.cc ncclTopoAddPci}, {@code kvDictPciGen} NULL 60),
     * NCCL's formula on the real Gen4 x16 link (A100 datasheet) 16 x 120 / 80 = 24 for the time, physical 16 x 128/130
     * x 16 / 8 = 31.5. CPU1-CPU2: NCCL's AMD_BW 16, which the XML also gives as the physical figure. The ring 0 -> 1
     * -> 2 -> 3 -> 0 loads each hop once: min(240, 24, 16) = 16, the inter-CPU link binds (the fallback bound it at 12
     * before). collsim's search keeps one GPU order for its 2 channels (2 x 6 GB/s, each GPU link's 12 shared), so the
     * plan's ring rate is the same 16.
     */
    @Test
    void aVmGpuLinkHiddenFromNcclKeepsNcclsFallbackForTheSearchAndItsRealRateForTheTime() throws Exception {
        Path f = Path.of("../topology-model/src/test/resources/dev/collsim/topology/io",
                "C-topo-azure-ncv4-4xA100pcie-2023-nvlink-pairs.xml");
        Topology t = new NcclTopoXmlReader().read(f.getFileName().toString(), Files.readString(f));
        HostModel h = new HostModel(t, Set.of(0), t.gpus(), NcclSettings.parse(Map.of()), 30);
        int[] path = h.gpuToGpu[1][2].links();
        assertEquals(3, path.length);
        assertEquals(12.0, h.capacity[path[0]], EPS);
        assertEquals(24.0, h.asBuiltBw(path[0]), EPS);
        assertEquals(16.0 * 128 / 130 * 16 / 8, h.physicalBw(path[0]), EPS);
        assertTrue(h.interCpu(path[1]));
        assertEquals(16.0, h.physicalBw(path[1]), EPS);
        assertEquals(12.0, h.gpuToGpu[1][2].bandwidth(), EPS, "NCCL's path: min(12, 16, 12)");
        assertEquals(16.0, CpuPathRates.ring(h, List.<int[]>of(new int[] {0, 1, 2, 3})), EPS);
        assertEquals(16.0, plan(t, t.gpus(), Map.of()).ringPathBw(), EPS);
    }

    /** 2 Skylake CPUs joined by a 16 GB/s link (hypothetical), 2 L40S on Gen4 x16 root ports of each. */
    private record SlowLinkHost() implements HostType {
        @Override
        public String name() {
            return "what-if-slow-smp";
        }

        @Override
        public String description() {
            return "what-if: 2 Skylake sockets joined by 16 GB/s, 4 L40S on root ports";
        }

        @Override
        public int gpusPerHost() {
            return 4;
        }

        @Override
        public void addHost(HostContext ctx) {
            Cpu[] cpus = {ctx.cpu(0, "x86_64", "GenuineIntel", "Xeon Gold 6148"),
                ctx.cpu(1, "x86_64", "GenuineIntel", "Xeon Gold 6148")};
            ctx.smp(cpus[0], cpus[1], Bandwidth.ofGBps(16), "what-if");
            for (int i = 0; i < 4; i++) {
                ctx.pcie(cpus[i / 2], ctx.gpu(i, GpuModels.sku("L40S").orElseThrow()), PcieGen.GEN4, 16);
            }
        }
    }
}
