package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.PcieEightGpu;
import dev.collsim.topology.io.yaml.YamlClusterReader;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two rules of NCCL's {@code ncclTopoCompute} (NCCL 2.28.9 and 2.30.7 {@code src/graph/search.cc}, both releases
 * alike): with an x86 AMD CPU and typeIntra SYS, sameChannels stays 1 ("Try having different channels (except when
 * going through AMD CPUs)", since 2.19.1: not in collsim's 2.18.5 entry nor the older ones), so every channel replays
 * the first one's GPU order; and with exactly 2 NVLink domains ({@code src/graph/paths.cc ncclTopoSplitNvLink}, since
 * 2.26.2: collsim's 2.27.3 entry on) the ring's minChannels is 2.
 *
 * <p>Every host here: 4 A100 PCIe (sm80) in two NVLink-bridged pairs 0-1 and 2-3 (NV12), each GPU on a Gen4 x16 link
 * (NCCL 24 GB/s). NCCL's figures: NVLink 12 x 20 = 240 GB/s ({@code SM80_NVLINK_BW} 20), so maxBw = totalBw = 240;
 * the sm80 speeds ({@code speedArrayIntra}) 40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3; a speed is tried while
 * next / best > 0.49 ({@code ncclTopoCompute}); a solution below minChannels is never kept
 * ({@code ncclTopoCompareGraphs}); no duplication below bwIntra 25 ({@code ncclTopoDupChannels}). Inter-CPU links
 * (NCCL {@code src/graph/topo.h}): AMD_BW 16, SKL_QPI_BW 10 GB/s per direction, one per CPU pair and direction.
 */
class SameChannelsSplitNvLinkTest {

    private static final double EPS = 1e-9;
    private static final String FOUR_NUMA = "      - {cpu: 0, gpus: [0]}\n      - {cpu: 1, gpus: [1]}\n"
            + "      - {cpu: 2, gpus: [2]}\n      - {cpu: 3, gpus: [3]}\n";

    /** The NC A100 v4 host (configs/azure-nc96ads-a100-v4.yaml) with the given CPUs and root ports. */
    private static ChannelPlan plan(String vendor, String model, int cpus, String ports, NcclVersion v)
            throws Exception {
        return plan(vendor, model, cpus, ports, v, "");
    }

    /** The same, {@code pcieExtra} added to the pcie section (e.g. {@code linkSpeedUnset: true}). */
    private static ChannelPlan plan(String vendor, String model, int cpus, String ports, NcclVersion v,
            String pcieExtra) throws Exception {
        String yaml = "schema: collsim/v1\nname: t\nhosts:\n  name: h\n"
                + "  gpus: {count: 4, model: A100-PCIE-80GB, sm: 80, memory: 80 GB}\n"
                + "  cpus: {count: " + cpus + ", vendor: " + vendor + ", model: " + model
                + ", interconnect: 64 GB/s}\n"
                + "  nvlink:\n    generation: NVLink3\n    bandwidthPerLink: 25 GB/s\n    pairs:\n"
                + "      - {gpus: [0, 1], links: 12}\n      - {gpus: [2, 3], links: 12}\n"
                + "  pcie:\n    gen: 4\n" + pcieExtra + "    rootPorts:\n" + ports + "count: 1\n";
        Topology t = new YamlClusterReader().readCluster("t.yaml", yaml).topology();
        return ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, v);
    }

    private static void ring(ChannelPlan p, int nCh, double bw, boolean same) {
        GraphSummary r = p.graphs().ring();
        assertEquals(PathType.SYS, r.typeIntra());
        assertEquals(nCh, r.nChannels(), "ring channels");
        assertEquals(bw, r.bwIntra(), EPS, "ring GB/s per channel");
        assertEquals(same, r.sameChannels(), "every channel on one GPU order");
    }

    /**
     * Azure NC96ads A100 v4 (EPYC 7V13, each GPU on its own NUMA node): every ring crosses two SYS hops (e.g. 0-1-2-3:
     * 1 -> 2 and 3 -> 0), each over one 16 GB/s CPU-CPU link, and on AMD every channel takes the first one's order,
     * so c channels of one order need c x speed <= 16 there. Two NVLink domains: minChannels 2. By hand: 40 to 18
     * exceed 16; 15, 12, 10, 9 give 1 channel (below minChannels); 7: 2 x 7 = 14 kept; 6: 2 x 6 = 12; 5: 3 x 5 = 15
     * kept; 4: 4 x 4 = 16 kept; 3: 5 x 3 = 15; end of the array. Ring 4 x 4 GB/s (NCCL's busBw 16), no duplication;
     * pass 2 at 5 GB/s cannot hold 4 channels (20 > 16). Tree: the ring's 4 channels; at run time 2 x 4 = 8
     * ({@code ncclTopoPostset}). The links' rate of that one order: each SYS hop's GPU PCIe link (24) carries all the
     * ring's data once per direction, the CPU link (64 physical) too: 24 GB/s.
     */
    @ParameterizedTest
    @EnumSource(value = NcclVersion.class, names = {"V2_27_3", "V2_28_9", "V2_30_7"})
    void ncA100v4TakesOneOrderAndTwoChannelsAtLeast(NcclVersion v) throws Exception {
        ChannelPlan p = plan("AuthenticAMD", "EPYC 7V13", 4, FOUR_NUMA, v);
        ring(p, 4, 4.0, true);
        assertEquals(4, p.graphs().tree().nChannels());
        assertEquals(8, p.runtimeChannels());
        assertEquals(24.0, p.ringPathBw(), EPS);
    }

    /**
     * The same host with NCCL 2.19 to 2.26.1 (entries 2.19.4 to 2.25.1): the AMD rule but no split-NVLink rule (NCCL
     * v2.25.1-1 {@code src/graph/search.cc} has no {@code ncclTopoSplitNvLink}; v2.26.2-1 line 986 has it), so
     * minChannels stays 1. By hand: 40 to 18 exceed the SYS hop's 16; 15: one channel, 15 <= 16 (a second would put
     * 30 on the CPU link), kept; 12, 10, 9: one channel each, not better; 7 / 15 < 0.49 stops. Ring 1 x 15, no
     * duplication (below 25), pass 2 at 18 exceeds 16. Tree: the ring's 1 channel; at run time 2 x 1 = 2. The one
     * order's links: 24 GB/s, as above.
     */
    @ParameterizedTest
    @EnumSource(value = NcclVersion.class, names = {"V2_19_4", "V2_21_5", "V2_23_4", "V2_25_1"})
    void ncA100v4BeforeNccl2262KeepsOneChannel(NcclVersion v) throws Exception {
        ChannelPlan p = plan("AuthenticAMD", "EPYC 7V13", 4, FOUR_NUMA, v);
        ring(p, 1, 15.0, true);
        assertEquals(1, p.graphs().tree().nChannels());
        assertEquals(2, p.runtimeChannels());
        assertEquals(24.0, p.ringPathBw(), EPS);
    }

    /**
     * NCCL 2.18 (and the older entries) has no AMD rule (NCCL v2.18.5-1 {@code src/graph/search.cc} line 904 tries
     * different channels on every CPU; v2.19.3-1 line 939 adds the exception), so the NC A100 v4 host mixes orders.
     * By hand: 40 to 18 exceed the SYS path's 16; 15: 0-1-2-3 (GPU 1 and 3 send over SYS) and 1-0-3-2 (GPU 0 and 2),
     * one channel per CPU direction and per GPU link, 2 x 15 = 30, no third (each GPU link has 9 left); 12 / 15 > 0.49:
     * the 4 orders 0-1-2-3, 0-1-3-2, 1-0-2-3, 1-0-3-2 cross 8 distinct CPU directions (one 12 GB/s channel each) and
     * put 2 x 12 = 24 on each GPU link: 4 x 12 = 48 kept; 10 and 9: 2 per GPU link, 4 channels, 40 and 36; 7: 3 per
     * GPU link, 6 x 7 = 42; 6: 8 x 6 = 48, not better; 5 / 12 < 0.49 stops; pass 2 at 15 cannot hold 4. Links' rate:
     * each GPU link carries 2 of the 4 orders' hops per direction, so 24 / 0.5 = 48 (the CPU links 64 / 0.25).
     */
    @Test
    void ncA100v4MixesOrdersBeforeNccl219() throws Exception {
        ChannelPlan p = plan("AuthenticAMD", "EPYC 7V13", 4, FOUR_NUMA, NcclVersion.V2_18_5);
        ring(p, 4, 12.0, false);
        assertEquals(48.0, p.ringPathBw(), EPS);
    }

    /**
     * The NC A100 v4 host as NCCL sees it on Azure's HPC image: its NCCL_TOPO_FILE leaves the GPUs' link_speed empty,
     * so each GPU link is NCCL's 8 GT/s x16 fallback, 12 GB/s ({@code linkSpeedUnset}). With NCCL 2.18: 15 exceeds
     * the 12 GB/s path; 12: 0-1-2-3 and 1-0-3-2 each fill two GPU links one way, 2 x 12 = 24, no third; 10, 9, 7: one
     * channel per GPU link, 2 channels; 6: 4 x 6 = 24, not better; 5 / 12 < 0.49 stops. Azure's own graph file for
     * this VM (github.com/Azure/azhpc-images topology/ncv4-graph.xml, saved in the shared data) has the same ring: 2
     * channels, speedintra 12, orders 0 1 2 3 and 0 3 2 1 (the cycle 1-0-3-2). collsim times the GPU link at its real
     * Gen4 x16, 24 GB/s, each carrying one of the two channels per direction: 24 / 0.5 = 48.
     */
    @Test
    void ncA100v4OnAzureImageMatchesAzureGraphFile() throws Exception {
        ChannelPlan p = plan("AuthenticAMD", "EPYC 7V13", 4, FOUR_NUMA, NcclVersion.V2_18_5,
                "    linkSpeedUnset: true\n");
        ring(p, 2, 12.0, false);
        assertEquals(48.0, p.ringPathBw(), EPS);
    }

    /**
     * The catalog's 8x RTX 4090 host (sm89; 2 EPYC 7542 in NPS4, one GPU per NUMA node, every pair SYS, no NVLink):
     * every hop crosses a 16 GB/s CPU pair link and, with one order, c channels put c x speed on it. sm89 uses the
     * sm80 speeds: 15 gives 1 channel (2 x 15 > 16), 12, 10, 9 one each, 7 two (14, not better than 15), 6 two (12);
     * 5 / 15 < 0.49 stops: ring 1 x 15 on 4 or 8 GPUs, 2 channels at run time. Mixing orders (Intel's way) would give
     * 2 x 12, the GPU's 24 GB/s PCIe link shared by two orders.
     */
    @ParameterizedTest
    @EnumSource(value = NcclVersion.class, mode = EnumSource.Mode.EXCLUDE, names = {"V2_8_4", "V2_10_3", "V2_18_5"})
    void amdHostWithoutNvLinkKeepsOneOrder(NcclVersion v) {
        Topology t = Catalog.standalone(PcieEightGpu.rtx4090(), 1);
        for (int n : new int[] {4, 8}) {
            ChannelPlan p = ChannelSearch.search(t, t.gpus().subList(0, n), NcclSettings.DEFAULTS, v);
            ring(p, 1, 15.0, true);
            assertEquals(2, p.runtimeChannels());
        }
    }

    /**
     * The same host with Intel Skylake CPUs (SKL_QPI_BW 10): the AMD rule is off, so channels may take different
     * orders. The 4 orders 0-1-2-3, 0-1-3-2 and their reverses 0-3-2-1, 0-2-3-1 cross 8 distinct CPU-CPU directions
     * (1 -> 2 and 3 -> 0; 1 -> 3 and 2 -> 0; 0 -> 3 and 2 -> 1; 0 -> 2 and 3 -> 1), one channel each at 10 GB/s (40 to
     * 12 exceed 10); each GPU's PCIe link carries 2 of them per direction (GPU 1 out: 1 -> 2, 1 -> 3), 20 <= 24. Ring
     * 4 x 10 = 40 (9 gives 4 x 9; 5 gives 8 x 5 = 40, not better: more hops; 4 / 10 < 0.49 stops). With the AMD rule
     * it would be 2 x 5 (one order: 10 / 5). Links' rate: every GPU link carries 2 of the 4 orders' hops per
     * direction, each with a quarter of the data: 24 / 0.5 = 48.
     */
    @ParameterizedTest
    @EnumSource(NcclVersion.class)
    void intelHostKeepsDifferentOrders(NcclVersion v) throws Exception {
        ChannelPlan p = plan("GenuineIntel", "Xeon Gold 6148", 4, FOUR_NUMA, v);
        ring(p, 4, 10.0, false);
        assertEquals(48.0, p.ringPathBw(), EPS);
    }

    /**
     * Two Skylake sockets, GPUs 0-1 on CPU 0 and 2-3 on CPU 1: two NVLink domains. Every ring crosses the one CPU 0 ->
     * CPU 1 direction once and the way back once, 10 GB/s each. Without the split rule NCCL keeps 1 x 10 (10 is the
     * first speed that fits; 5 gives 2 x 5 = 10, not better; 4 / 10 < 0.49 stops). With minChannels 2: 10, 9, 7 and 6
     * give 1 channel (6 x 2 > 10), not kept; 5: 2 x 5 = 10 kept; 4: 2 x 4 = 8; 3: 3 x 3 = 9. Ring 2 x 5, and the tree
     * takes the ring's 2 channels. The rule is NCCL 2.26.2's (entries 2.27.3 on); the older entries keep 1 x 10 and a
     * tree of 1 channel.
     */
    @ParameterizedTest
    @EnumSource(NcclVersion.class)
    void twoNvLinkDomainsForceTwoRingChannels(NcclVersion v) throws Exception {
        ChannelPlan p = plan("GenuineIntel", "Xeon Gold 6148", 2,
                "      - {cpu: 0, gpus: [0, 1]}\n      - {cpu: 1, gpus: [2, 3]}\n", v);
        int ch = v.minor() >= NcclVersion.V2_27_3.minor() ? 2 : 1;
        ring(p, ch, ch == 2 ? 5.0 : 10.0, true);
        assertEquals(ch, p.graphs().tree().nChannels());
    }

    /**
     * NCCL's domain pass ({@code ncclTopoSplitNvLink}) on 4 GPUs of one AMD socket: pairs 0-1 and 2-3 bridged give two
     * domains of 2, split; only 0-1 bridged gives one domain of 2 (GPUs 2 and 3 alone), not split; all six pairs
     * bridged give one domain of 4, not split.
     */
    @Test
    void splitNvLinkCountsDomainsOfTwoOrMore() throws Exception {
        assertTrue(oneSocket("[0, 1]", "[2, 3]").splitNvLink());
        assertFalse(oneSocket("[0, 1]").splitNvLink());
        assertFalse(oneSocket("[0, 1]", "[0, 2]", "[0, 3]", "[1, 2]", "[1, 3]", "[2, 3]").splitNvLink());
    }

    private static HostModel oneSocket(String... pairs) throws Exception {
        StringBuilder nvl = new StringBuilder();
        for (String pair : pairs) {
            nvl.append("      - {gpus: ").append(pair).append(", links: 4}\n");
        }
        Topology t = new YamlClusterReader().readCluster("t.yaml", "schema: collsim/v1\nname: t\nhosts:\n  name: h\n"
                + "  gpus: {count: 4, model: A100-PCIE-80GB, sm: 80, memory: 80 GB}\n"
                + "  cpus: {count: 1, vendor: AuthenticAMD, model: EPYC 7V13}\n"
                + "  nvlink:\n    generation: NVLink3\n    bandwidthPerLink: 25 GB/s\n    pairs:\n" + nvl
                + "  pcie:\n    gen: 4\n    rootPorts:\n      - {cpu: 0, gpus: [0, 1, 2, 3]}\ncount: 1\n").topology();
        return new HostModel(t, Set.of(0), t.gpus(), NcclSettings.DEFAULTS, 30);
    }
}
