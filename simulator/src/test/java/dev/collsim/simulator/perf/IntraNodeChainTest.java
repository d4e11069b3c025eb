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
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.units.Bandwidth;
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
     * A chain's first slice crosses nRanks - 1 hops up and nRanks - 1 down, each forwarding a whole slice
     * (runTreeSplit): k slices take k + 2(nRanks - 1) - 1 slice times, so the fill is 1 slice for 2 ranks, 5 for 4
     * and 13 for 8. Only Simple chains over SHM (staged in host memory) pay it: the 2080 Ti pair behind one switch with
     * P2P off goes through the CPU (PHB, beyond NCCL's default level PXB); with P2P on it is PIX; 4 GPUs on their own
     * switches under one CPU are PHB, SHM by default but P2P under NCCL_P2P_LEVEL=SYS (the same check as
     * ShmLinkShare.shm, so a P2P-level what-if moves the chain's fill with the ring's SHM share).
     */
    @Test
    void fillIsTwoHopsPerRankLessOneSliceForStagedSimpleChains() {
        assertEquals(1.0, IntraNodeChain.fillSlices(2));
        assertEquals(5.0, IntraNodeChain.fillSlices(4));
        assertEquals(13.0, IntraNodeChain.fillSlices(8));
        Topology pair = Catalog.standalone(new SynthesizedHost(GpuModels.sku("GeForce RTX 2080 Ti").orElseThrow(), 2,
                Bandwidth.ofGbits(100), true), 1);
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
     * memory at once (ShmLinkShare, 0.673), so the 2-rank chain runs at 6 x 0.98 x 0.673 = 3.957 GB/s. 1 MiB fits in
     * one 512 KiB slice per channel, so the fill is the whole 1 MiB at the chain's rate too:
     * T(1 MiB) - T(8 B) = 2 x 1048576 B / 3957 B/us = 530.0 us (the data term alone would be 265.0 us).
     */
    @Test
    void twoRankShmChainWaitsForTheWholeSliceBeforeSendingItDown() throws Exception {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("GeForce RTX 2080 Ti").orElseThrow(), 2,
                Bandwidth.ofGbits(100), true), 1);
        double small = treeSimple(t, 8).timeUs();
        Prediction big = treeSimple(t, 1 << 20);
        assertEquals(Algorithm.TREE, big.algorithm());
        assertEquals(530.0, big.timeUs() - small, 530.0 * 0.01, big.toString());
    }

    private static Prediction treeSimple(Topology t, long bytes) throws Exception {
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, bytes,
                DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of("NCCL_P2P_DISABLE", "1", "NCCL_ALGO", "Tree",
                        "NCCL_PROTO", "Simple"))));
    }
}
