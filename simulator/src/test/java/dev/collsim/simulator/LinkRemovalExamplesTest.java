package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.perf.LlSendFifo;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.Topology;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Cases where a pair of H100 hosts with fewer NVLinks per GPU or fewer NICs is predicted faster than with more
 * (the first two were found by the earlier form of
 * {@link PredictionPropertiesTest#removingLinksNeverSpeedsUpAFixedAlgorithmWhileNcclsStructureHolds}), with
 * the reason asserted. The first two are no longer: since collsim holds NCCL's tree correction for Tree/LL between
 * nodes past the size at which every channel carries a 4 KiB step ({@code LlStepCrossing.treeCorrection}), the
 * Tree/LL that NCCL picks with more links is collsim's fastest there, ahead of the Ring/LL it moves to with fewer.
 *
 * <p>NCCL's times are worked out by hand from the fact sheet (NCCL 2.30.7 {@code src/graph/tuning.cc}, sections
 * 2.2 to 2.7), using the search graphs each test asserts as its premise. The common inputs are 2 hosts x 8 H100
 * (Hopper rows), Intel CPUs, nRanks 16, nNodes 2 and ppn 8. Two nodes means bw = graph bwIntra (§2.3),
 * llMaxBw = 39.0 GB/s (row 0, N2), perChMaxTreeBw = 41.4 GB/s, and a net overhead of 1.0 us (x3 for Simple).
 * AllReduce FLOAT works on whole elements, so 217035 B becomes 217032 B (nccl-tests count = size / 4).
 * <ul>
 *   <li>Tree/LL latency = 6.8 + 2 x (7 x 0.6 + log2(2) x 5.0) = 25.2 us.</li>
 *   <li>Tree/LL algBw = min(min(0.92 nCh bw, nCh 41.4) / 3.8, 39) x 0.5, times treeCorrection[LL][11] = 0.5
 *       for 128 KiB &le; nBytes &lt; 256 KiB.</li>
 *   <li>Ring/LL latency = 6.6 + (30 - 2) x max(0.6, 1.0) + 2 x 2.7 = 40.0 us.</li>
 *   <li>Ring/LL algBw = min(39, 0.5 nCh bw) x 16/30 = 20.8 GB/s once nCh bw &ge; 78 GB/s.</li>
 * </ul>
 * collsim's defaults ({@code PerformanceParameters.DEFAULTS}) add terms of its own: 1.5 us launch overhead,
 * LL efficiency 1.0, Simple per-channel cap 20.7 GB/s on Hopper, no cap on NVLS/NVLSTree, and the tree
 * correction made continuous in size ({@code CostTable.smoothCorrection}).
 */
class LinkRemovalExamplesTest {

    private static final double US = 1e-3;
    private final NcclPredictor predictor = new NcclPredictor();

    private static Topology hosts(int nvlinks, int nics) {
        return TestClusters.cluster(new TestClusters.Shape("H100-SXM5-80GB", 90, nvlinks, 4, 5, nics, 400, true), 2);
    }

    private static PredictionRequest allReduce(Topology t, long size, Map<String, String> env) {
        return new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, size, DataType.FLOAT, RedOp.SUM, NcclSettings.parse(env));
    }

    private Candidate candidate(PredictionRequest r, Algorithm a, Protocol p) {
        return predictor.candidates(r).stream().filter(c -> c.algorithm() == a && c.protocol() == p).findFirst()
                .orElseThrow();
    }

    private Prediction forced(Topology t, long size, Algorithm a, Protocol p) {
        return predictor.predict(allReduce(t, size, Map.of("NCCL_ALGO", a.ncclName(), "NCCL_PROTO", p.ncclName())));
    }

    private double fastest(PredictionRequest r) {
        return predictor.candidates(r).stream().mapToDouble(c -> c.predicted().timeUs()).min().orElseThrow();
    }

    private static void assertGraph(GraphSummary g, int nChannels, double bwIntra) {
        assertEquals(nChannels, g.nChannels(), g.toString());
        assertEquals(bwIntra, g.bwIntra(), 1e-9, g.toString());
    }

    /**
     * 11 NVLinks/4 NICs to 5/2, AllReduce 217035 B: 58.56 us to 57.28 us. The tree graph drops from 8 to 4 channels
     * of 24 GB/s. By hand, Tree/LL goes from 25.2 + 217032 / 9750 = 47.4597 us to
     * 25.2 + 217032 / 5810.53 = 62.5515 us (algBw 0.92 x 96 / 3.8 x 0.5 x 0.5). Ring/LL stays at
     * 40 + 217032 / 20800 = 50.4342 us, so NCCL's choice moves from Tree/LL to Ring/LL and NCCL's estimate rises.
     * collsim's Ring/LL is the same on both machines: the same NCCL entry and the same 3 channels per call
     * (floor(217032 / (512 threads x 8 x 16 ranks)), fact sheet §3.1). collsim's Tree/LL with more links is
     * slower than that, because collsim uses the continuous tree correction 0.5 (1 - f) + 0.4 f = 0.42725
     * (f = log2(217032/64) - 11 = 0.72755) where NCCL uses the step value 0.5. This gives algBw 19.5 x 0.42725 =
     * 8.3313 GB/s, and 3.79 us more bandwidth time than NCCL's 22.26 us, which is more than NCCL's 2.97 us margin
     * for Tree/LL: the host with fewer links was predicted faster. Now collsim holds the correction past 16 runtime
     * channels x 4096 B = 64 KiB at NCCL's factor there, treeCorrection[LL][10] = 0.6: algBw 19.5 x 0.6 = 11.7 GB/s,
     * Tree/LL is collsim's fastest candidate with more links and the host with fewer links is slower.
     */
    @Test
    void fewerLinksSwitchNcclFromTreeLlToRingLlWhichCollsimRatesSlower() {
        long size = 217035;
        Topology more = hosts(11, 4);
        Topology less = hosts(5, 2);
        ChannelPlan planMore = predictor.prepare(allReduce(more, size, Map.of())).plan();
        ChannelPlan planLess = predictor.prepare(allReduce(less, size, Map.of())).plan();
        assertGraph(planMore.graphs().tree(), 8, 24);
        assertGraph(planLess.graphs().tree(), 4, 24);

        Prediction pMore = predictor.predict(allReduce(more, size, Map.of()));
        Prediction pLess = predictor.predict(allReduce(less, size, Map.of()));
        assertEquals(List.of(Algorithm.TREE, Protocol.LL), List.of(pMore.algorithm(), pMore.protocol()));
        assertEquals(List.of(Algorithm.RING, Protocol.LL), List.of(pLess.algorithm(), pLess.protocol()));
        assertEquals(47.4597, pMore.ncclEstimateUs(), US);
        assertEquals(50.4342, candidate(allReduce(more, size, Map.of()), Algorithm.RING, Protocol.LL).ncclTimeUs(), US);
        assertEquals(62.5515, candidate(allReduce(less, size, Map.of()), Algorithm.TREE, Protocol.LL).ncclTimeUs(), US);
        assertEquals(50.4342, pLess.ncclEstimateUs(), US);

        Prediction ringLlMore = forced(more, size, Algorithm.RING, Protocol.LL);
        assertEquals(3, ringLlMore.nChannels());
        assertEquals(3, pLess.nChannels());
        assertEquals(ringLlMore.timeUs(), pLess.timeUs(), ringLlMore.timeUs() * 1e-12);
        Candidate treeLlMore = candidate(allReduce(more, size, Map.of()), Algorithm.TREE, Protocol.LL);
        assertEquals(11.7, treeLlMore.predicted().algBw(), 1e-9);
        assertTrue(pMore.timeUs() < pLess.timeUs(), pMore + " vs " + pLess);
        assertEquals(fastest(allReduce(more, size, Map.of())), pMore.timeUs(), pMore.timeUs() * 1e-12);
    }

    /**
     * 7 NVLinks/4 NICs to 7/2, AllReduce 182444 B: 57.579 us to 51.884 us before the held correction, the same
     * mechanism as above. The tree graph
     * goes from 6 x 24 to 4 x 30 GB/s. By hand, Tree/LL goes from 25.2 + 182444 / 8715.79 = 46.1326 us to
     * 25.2 + 182444 / 7263.16 = 50.3191 us, while Ring/LL stays at 40 + 182444 / 20800 = 48.7713 us, so NCCL switches
     * from Tree/LL to Ring/LL. collsim's Ring/LL is identical on both machines (2 channels per call); it was ahead of
     * the Tree/LL that NCCL picked with more links: a tree channel's LL step carries its whole share of the call, a
     * ring step 182444 / (2 x 16) = 5701.375 B, so each network hop of the Tree waits longer for its step to land in
     * the host-memory send FIFO ({@code LlSendFifo}).
     * The Ring's wait by hand: 11402.75 line bytes, 0.455 + (0.881 - 0.455) x 3210.75 / 8192 = 0.621965 us per hop
     * (the proxyscan probe's rows at 8 and 16 KiB), over 4 crossings (8 ranks per node: a middle rank's chunk crosses
     * both node boundaries twice, {@code all_reduce.h runRing}, 2 nNodes): 2.48786 us. With the tree correction held
     * past 64 KiB (see above) the Tree/LL NCCL picks with more links is collsim's fastest there, and the host with
     * fewer NICs is slower.
     */
    @Test
    void fewerNicsSwitchNcclToRingLlWhichCollsimRatesSlowerThanTreeLl() {
        long size = 182444;
        Topology more = hosts(7, 4);
        Topology less = hosts(7, 2);
        assertGraph(predictor.prepare(allReduce(more, size, Map.of())).plan().graphs().tree(), 6, 24);
        assertGraph(predictor.prepare(allReduce(less, size, Map.of())).plan().graphs().tree(), 4, 30);

        Prediction pMore = predictor.predict(allReduce(more, size, Map.of()));
        Prediction pLess = predictor.predict(allReduce(less, size, Map.of()));
        assertEquals(List.of(Algorithm.TREE, Protocol.LL), List.of(pMore.algorithm(), pMore.protocol()));
        assertEquals(List.of(Algorithm.RING, Protocol.LL), List.of(pLess.algorithm(), pLess.protocol()));
        assertEquals(46.1326, pMore.ncclEstimateUs(), US);
        assertEquals(48.7713, pLess.ncclEstimateUs(), US);
        assertEquals(50.3191, candidate(allReduce(less, size, Map.of()), Algorithm.TREE, Protocol.LL).ncclTimeUs(), US);

        Prediction ringLlMore = forced(more, size, Algorithm.RING, Protocol.LL);
        assertEquals(2, pLess.nChannels());
        assertEquals(ringLlMore.timeUs(), pLess.timeUs(), ringLlMore.timeUs() * 1e-12);
        assertEquals(fastest(allReduce(more, size, Map.of())), pMore.timeUs(), pMore.timeUs() * 1e-12);
        assertTrue(pMore.timeUs() < pLess.timeUs(), pMore + " vs " + pLess);
        assertEquals(2.48786, LlSendFifo.extraUs(predictor.prepare(allReduce(less, size, Map.of())).plan(),
                NcclSettings.DEFAULTS, Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL, size, 2), 1e-5);
    }

    /**
     * The same mechanism in the bandwidth-bound regime: 17 NVLinks/8 NICs to 14/4, AllReduce 2885615728 B. With more
     * links NCCL picks Ring/Simple. The ring is 8 x 48 GB/s, so algBw = 384 x 16/30 = 204.8 GB/s. The latency is
     * (8.4 + 28 x max(3.4, 3.0) + 2 x 14) x 1.4 = 184.24 us (plateau rule, nBytes / (16 x 16) &ge; 64), giving
     * 184.24 + S / 204800 = 14274.16 us. That beats NVLSTree. NVLSTree's per channel bandwidth is
     * min(30 x 0.85 x 7/8 x 2, 2 x bwInter, 57.7) = 44.625 GB/s, so algBw = 8 x 44.625 x 16/30 = 190.4 GB/s and the
     * time is 25 + 2 x 20.9 + S / 190400 = 15222.34 us. With 14/4 the ring halves to 8 x 24 (28364.08 us), and
     * NVLSTree, now of 4 heads (one per NIC, NCCL 2.30.7 {@code src/graph/search.cc ncclTopoSearchRecNet}), is
     * chosen: each GPU's switch links carry (4 + 1) x 48 = 240 &le; 14 x 20.6 = 288.4, so bwIntra = bwInter = 48, per
     * channel min(48 x 0.85 x 3/4 x 2 = 61.2, 96, 57.7) = 57.7, algBw = 4 x 57.7 x 16/30 = 123.0933 GB/s and the time
     * 25 + 2 x 20.9 + S / 123093.33 = 23509.30 us. collsim caps a Hopper Ring between nodes at the one-node rate of
     * its 16 runtime channels ({@code perf.RingChannelRate}), 16 x 20.7 GB/s = 331.2 GB/s of busbw, algBw
     * 331.2 x 16/30 = 176.64 GB/s, below the link term 384 x 0.98 x 16/30 = 200.704 GB/s and below NVLSTree's
     * 190.4 x 0.98 = 186.59 GB/s: collsim rates NVLSTree faster than the Ring NCCL picks on the host pair with more
     * links, and still predicts that pair faster than the one with fewer.
     */
    @Test
    void bandwidthBoundCaseSwitchesFromCappedRingToNvlsTree() {
        long size = 2885615728L;
        Topology more = hosts(17, 8);
        Topology less = hosts(14, 4);
        ChannelPlan planMore = predictor.prepare(allReduce(more, size, Map.of())).plan();
        assertGraph(planMore.graphs().ring(), 8, 48);
        assertEquals(16, planMore.runtimeChannels());
        assertGraph(predictor.prepare(allReduce(less, size, Map.of())).plan().graphs().ring(), 8, 24);

        Prediction pMore = predictor.predict(allReduce(more, size, Map.of()));
        Prediction pLess = predictor.predict(allReduce(less, size, Map.of()));
        assertEquals(List.of(Algorithm.RING, Protocol.SIMPLE), List.of(pMore.algorithm(), pMore.protocol()));
        assertEquals(List.of(Algorithm.NVLS_TREE, Protocol.SIMPLE), List.of(pLess.algorithm(), pLess.protocol()));
        assertEquals(14274.16, pMore.ncclEstimateUs(), 0.01);
        assertEquals(23509.30, pLess.ncclEstimateUs(), 0.01);
        assertEquals(28364.08,
                candidate(allReduce(less, size, Map.of()), Algorithm.RING, Protocol.SIMPLE).ncclTimeUs(), 0.01);

        assertEquals(176.64, candidate(allReduce(more, size, Map.of()), Algorithm.RING, Protocol.SIMPLE)
                .predicted().algBw(), 1e-6);
        Prediction nvlsTreeMore = forced(more, size, Algorithm.NVLS_TREE, Protocol.SIMPLE);
        // collsim's NVLSTree rate starts from NCCL's entry on both hosts (190.4 and 123.0933 GB/s) with the same
        // factors; less NCCL's kernel loop (16 channels x heads (one per NIC: 8 and 4) x 128 KiB per iteration on 2
        // nodes, ceil(S / 16 MiB) = 172 and ceil(S / 8 MiB) = 344 iterations at the Hopper loop cost), the
        // bandwidth term is over 99 % of the rest at 2.9 GB: the times scale as the entries, 1.5468
        double loopUs = PerformanceParameters.DEFAULTS.nvlsLoopUs(GpuGeneration.HOPPER);
        assertEquals(190.4 / 123.0933, (pLess.timeUs() - 344 * loopUs) / (nvlsTreeMore.timeUs() - 172 * loopUs),
                0.01 * 190.4 / 123.0933, nvlsTreeMore + " vs " + pLess);
        assertTrue(pMore.timeUs() < pLess.timeUs(), pMore + " vs " + pLess);
        assertEquals(fastest(allReduce(more, size, Map.of())), nvlsTreeMore.timeUs(), nvlsTreeMore.timeUs() * 1e-12);
        assertTrue(nvlsTreeMore.timeUs() < pMore.timeUs(), nvlsTreeMore + " vs " + pMore);
    }

    /**
     * NCCL's own model, for one fixed algorithm, moves with the search's discrete outcome, not with the links: this
     * is why the property only compares pairs with the same structure. 8 NVLinks/4 NICs gives a ring of 8 x 20 GB/s,
     * so 16 runtime channels. 10 NVLinks/8 NICs found 5 x 40 GB/s before the search followed NCCL's pass order; NCCL
     * goes on to the next speed while {@code speedArray[next] / bwInter > .49} (24 / 40 = 0.6, src/graph/search.cc
     * {@code ncclTopoCompute}) and keeps the graph with more {@code nChannels x bwIntra}
     * ({@code ncclTopoCompareGraphs}): 9 x 24 = 216 over 5 x 40 = 200, so 18 runtime channels (24 is not above 45:
     * no extra doubling, fact sheet section 3.4). At 12256 B (12257 B rounded down to whole floats), 12256 / (16 x 16)
     * = 47.9 and 12256 / (18 x 16) = 42.6 are both below 64, so neither takes the Ring/Simple plateau factor 1.4
     * (section 2.6). The algorithm bandwidth is busBw x 16 / 30 on 16 ranks: with more links Ring/Simple = 131.6 +
     * 12256 / 115200 = 131.7064 us; with fewer 131.6 + 12256 / 85333.3 = 131.7436 us.
     */
    @Test
    void ncclsOwnRingSimpleTimeFollowsTheSearchedGraph() {
        long size = 12257;
        Topology more = hosts(10, 8);
        Topology less = hosts(8, 4);
        ChannelPlan planMore = predictor.prepare(allReduce(more, size, Map.of())).plan();
        ChannelPlan planLess = predictor.prepare(allReduce(less, size, Map.of())).plan();
        assertGraph(planMore.graphs().ring(), 9, 24);
        assertGraph(planLess.graphs().ring(), 8, 20);
        assertEquals(18, planMore.runtimeChannels());
        assertEquals(16, planLess.runtimeChannels());
        assertEquals(131.7064,
                candidate(allReduce(more, size, Map.of()), Algorithm.RING, Protocol.SIMPLE).ncclTimeUs(), US);
        assertEquals(131.7436,
                candidate(allReduce(less, size, Map.of()), Algorithm.RING, Protocol.SIMPLE).ncclTimeUs(), US);
    }
}
