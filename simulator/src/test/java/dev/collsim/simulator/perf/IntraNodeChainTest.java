package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.hardware.GpuModels;
import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.PcieEightGpu;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.units.Bandwidth;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which calls the one-node chain covers and its algBw/busBw ratio, from the data movement of a chain by hand. */
class IntraNodeChainTest {

    /**
     * Chain of 2: each end has one neighbour and sends S (the leaf up, the root down): ratio 1. Chain of 3 or 8: the
     * middle ranks send S to the parent and S to the child: ratio 1/2.
     */
    @Test
    void ratioIsOneOverTheBusiestRanksSentBytesPerByte() {
        assertEquals(1.0, IntraNodeChain.busToAlgRatio(2));
        assertEquals(0.5, IntraNodeChain.busToAlgRatio(3));
        assertEquals(0.5, IntraNodeChain.busToAlgRatio(8));
        assertThrows(IllegalArgumentException.class, () -> IntraNodeChain.busToAlgRatio(1));
    }

    /** A chain of 2 (per node): each end has one neighbour (S); of 3 or more: a middle rank sends S up and S down. */
    @Test
    void busiestRankSendsOnceForTwoRanksTwiceForMore() {
        assertEquals(1.0, IntraNodeChain.sentPerByte(2));
        assertEquals(2.0, IntraNodeChain.sentPerByte(3));
        assertEquals(2.0, IntraNodeChain.sentPerByte(8));
        assertThrows(IllegalArgumentException.class, () -> IntraNodeChain.sentPerByte(1));
    }

    /** Only Tree AllReduce on one node is a chain; across nodes the tree is a (double binary) tree of nodes. */
    @Test
    void onlyOneNodeTreeAllReduce() {
        assertTrue(IntraNodeChain.applies(Collective.ALL_REDUCE, Algorithm.TREE, 1, 2));
        assertFalse(IntraNodeChain.applies(Collective.ALL_REDUCE, Algorithm.TREE, 2, 16));
        assertFalse(IntraNodeChain.applies(Collective.ALL_REDUCE, Algorithm.RING, 1, 2));
        assertFalse(IntraNodeChain.applies(Collective.BROADCAST, Algorithm.TREE, 1, 2));
        assertFalse(IntraNodeChain.applies(Collective.ALL_REDUCE, Algorithm.TREE, 1, 1));
    }

    /**
     * A chain's first slice passes 2 nRanks - 1 calls one after another over SHM (NCCL 2.30.7 runTreeSplit: leaf
     * directSend, nRanks - 2 directRecvReduceDirectSend, the root's directRecvReduceCopyDirectSend, nRanks - 2
     * directRecvCopyDirectSend, leaf directRecv), each at the link's rate, where a steady slice time T is the link's
     * rate x the SHM share; the data term already counts e = 1 (2 ranks) or 2 (3 or more: the middle ranks carry a
     * slice up and down) of those T for it. In T: 2 ranks 3 x 0.673 - 1 = 1.019; 4 ranks 7 x 0.673 - 2 = 2.711;
     * 8 ranks 15 x 0.673 - 2 = 8.095; with no share (1) 4 ranks 7 - 2 = 5. Only Simple chains over SHM (staged in host
     * memory) pay it: the 2080 Ti pair behind one switch with
     * P2P off goes through the CPU (PHB, beyond NCCL's default level PXB); with P2P on it is PIX; 4 GPUs on their own
     * switches under one CPU are PHB, SHM by default but P2P under NCCL_P2P_LEVEL=SYS (the same check as
     * ShmLinkShare.shm, so a P2P-level what-if moves the chain's fill with the ring's SHM share).
     */
    @Test
    void fillIsTheFirstSlicesStagesAtTheLinkRateLessTheDataTermsShare() {
        assertEquals(1.019, IntraNodeChain.fillSlices(2, 0.673), 1e-9);
        assertEquals(2.711, IntraNodeChain.fillSlices(4, 0.673), 1e-9);
        assertEquals(8.095, IntraNodeChain.fillSlices(8, 0.673), 1e-9);
        assertEquals(5.0, IntraNodeChain.fillSlices(4, 1.0), 1e-9);
        Topology pair = Catalog.standalone(new SynthesizedHost(GpuModels.sku("GeForce RTX 2080 Ti").orElseThrow(), 2,
                Bandwidth.ofGbits(100), 2), 1);
        NcclSettings off = NcclSettings.parse(Map.of("NCCL_P2P_DISABLE", "1"));
        assertTrue(IntraNodeChain.staged(Protocol.SIMPLE, plan(pair, off), off));
        assertFalse(IntraNodeChain.staged(Protocol.LL, plan(pair, off), off));
        assertFalse(IntraNodeChain.staged(Protocol.SIMPLE, plan(pair, NcclSettings.DEFAULTS), NcclSettings.DEFAULTS));
        Topology four = Catalog.standalone(new SynthesizedHost(GpuModels.sku("RTX PRO 6000 Blackwell").orElseThrow(),
                4, Bandwidth.ofGbits(400)), 1);
        NcclSettings sys = NcclSettings.parse(Map.of("NCCL_P2P_LEVEL", "SYS"));
        assertTrue(IntraNodeChain.staged(Protocol.SIMPLE, plan(four, NcclSettings.DEFAULTS), NcclSettings.DEFAULTS));
        assertFalse(IntraNodeChain.staged(Protocol.SIMPLE, plan(four, sys), sys));
    }

    private static ChannelPlan plan(Topology t, NcclSettings s) {
        return ChannelSearch.search(t, t.gpus(), s, NcclVersion.V2_30_7);
    }

    /**
     * 2x RTX 2080 Ti behind one PCIe Gen3 switch with P2P off (SHM through the CPU): the ring graph is one channel of
     * 12 / 2 = 6 GB/s (both hops on the 12 GB/s uplink, OneWayPairTest), and each rank stores to and loads from host
     * memory at once (ShmLinkShare, 0.666 on Gen3), so the 2-rank chain runs at 6 x 0.98 x 0.666 = 3.916 GB/s. 1 MiB
     * fits in one 512 KiB slice per channel, so the data term is 1048576 B / 3916 B/us = 267.8 us and the fill
     * (3 x 0.666 - 1) = 0.998 times it (IntraNodeChain.fillSlices): T(1 MiB) - T(8 B) = 1.998 x 267.8 = 535.0 us.
     */
    @Test
    void twoRankShmChainWaitsForTheWholeSliceBeforeSendingItDown() throws Exception {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("GeForce RTX 2080 Ti").orElseThrow(), 2,
                Bandwidth.ofGbits(100), 2), 1);
        double small = treeSimple(t, 8).timeUs();
        Prediction big = treeSimple(t, 1 << 20);
        assertEquals(Algorithm.TREE, big.algorithm());
        assertEquals(535.0, big.timeUs() - small, 535.0 * 0.005, big.toString());
    }

    /**
     * 4x L40S over SHM (GPUs 0, 1, 4, 5 of the 8x L40S host: two CPU nodes, every pair beyond NCCL's P2P level): the
     * chain's links at 24 GB/s (each GPU's Gen4 x16 link, CpuRouteRateTest) x 0.98 x 0.666 (Gen4) = 15.664 GB/s
     * bus, 2 channels of 7.832, algBw 15.664 / 2 = 7.832 GB/s. Between 512 KiB and 1 MiB a channel holds one slice
     * (256 and 512 KiB), so the time grows by the data, 524288 B / 7832 B/us = 66.94 us, plus the fill's growth,
     * 2.662 x 262144 B / 7832 B/us = 89.10 us (IntraNodeChain.fillSlices(4, 0.666)): 156.04 us (5 x 33.47 = 167.4 us
     * of fill before). Measured 199.5 -> 358.6 us, +159.1 us
     * (validation/src/test/resources/data/A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt lines 223
     * and 224, NCCL_ALGO=tree).
     */
    @Test
    void fourRankShmChainFillsAtTheLinkRate() throws Exception {
        Topology t = Catalog.standalone(PcieEightGpu.l40s(), 1);
        List<Gpu> g = List.of(t.gpus().get(0), t.gpus().get(1), t.gpus().get(4), t.gpus().get(5));
        NcclSettings s = NcclSettings.parse(Map.of("NCCL_ALGO", "Tree", "NCCL_PROTO", "Simple"));
        Prediction half = new NcclPredictor().predict(new PredictionRequest(t, g, Collective.ALL_REDUCE, 512 << 10,
                DataType.FLOAT, RedOp.SUM, s));
        Prediction one = new NcclPredictor().predict(new PredictionRequest(t, g, Collective.ALL_REDUCE, 1 << 20,
                DataType.FLOAT, RedOp.SUM, s));
        assertEquals(2, one.nChannels(), one.toString());
        assertEquals(156.04, one.timeUs() - half.timeUs(), 156.04 * 0.005, one + "\n" + half);
    }

    /**
     * The same 4x L40S chain from 1 MiB (one 512 KiB slice a channel) to 2 MiB (two): the data term grows by 1 MiB at
     * the chain's algBw, 24 x 0.98 x 0.815 (the middle ranks' duplex ceiling, ShmLinkShare.chainShare) / 2 = 9.5844
     * GB/s: 109.40 us; the fill shrinks by e - share = 2 - 0.815 = 1.185 slice times (the second slice passes the rank
     * next to the root alone, IntraNodeChain.fillSlices with k), a slice time being 524288 B at 9.5844 GB/s per
     * channel, 54.70 us: -64.82 us. Growth 44.58 us (109.40 before); measured 358.6 -> 421.7 us, +63.1
     * (validation/src/test/resources/data/A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt lines 224
     * and 225, NCCL_ALGO=tree). By rule: 4 ranks 2 slices 7 x 0.815 - 2 - 1.185 = 2.52; 1 slice 3.705; 2 ranks
     * unchanged (no middle rank).
     */
    @Test
    void fourRankShmChainsSecondSlicePassesAlone() throws Exception {
        assertEquals(2.52, IntraNodeChain.fillSlices(4, 0.815, 2), 1e-9);
        assertEquals(2.52, IntraNodeChain.fillSlices(4, 0.815, 64), 1e-9);
        assertEquals(3.705, IntraNodeChain.fillSlices(4, 0.815, 1), 1e-9);
        assertEquals(0.998, IntraNodeChain.fillSlices(2, 0.666, 8), 1e-9);
        Topology t = Catalog.standalone(PcieEightGpu.l40s(), 1);
        List<Gpu> g = List.of(t.gpus().get(0), t.gpus().get(1), t.gpus().get(4), t.gpus().get(5));
        NcclSettings s = NcclSettings.parse(Map.of("NCCL_ALGO", "Tree", "NCCL_PROTO", "Simple"));
        Prediction one = new NcclPredictor().predict(new PredictionRequest(t, g, Collective.ALL_REDUCE, 1 << 20,
                DataType.FLOAT, RedOp.SUM, s));
        Prediction two = new NcclPredictor().predict(new PredictionRequest(t, g, Collective.ALL_REDUCE, 2 << 20,
                DataType.FLOAT, RedOp.SUM, s));
        assertEquals(2, two.nChannels(), two.toString());
        double slice = 524288 / 9584.4;
        assertEquals(2 * slice - (2 - 0.815) * slice, two.timeUs() - one.timeUs(), 0.3, two + "\n" + one);
    }

    private static Prediction treeSimple(Topology t, long bytes) throws Exception {
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, bytes,
                DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of("NCCL_P2P_DISABLE", "1", "NCCL_ALGO", "Tree",
                        "NCCL_PROTO", "Simple"))));
    }
}
