package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.units.Bandwidth;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Simple transfers over SHM on one host whose channels carry one connection each way: every step of a channel
 * after its first waits one Simple step's dependent chain; a p2p exchange's send and receive warps apart move the
 * link's duplex ceiling. The pair: 2x RTX
 * 2080 Ti behind one PCIe Gen3 x16 switch, P2P off, as in
 * validation/src/test/resources/data/A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt.
 * Expected values by hand: NCCL's ring graph charges both hops on the 12 GB/s uplink (NCCL 2.30.7
 * {@code src/graph/topo.h}, Gen3 x16), 6 GB/s a rank; x bwEfficiencySimple 0.98 x the ceiling 0.815 = 4.7922 GB/s;
 * a 128 KiB chunk (NCCL_P2P_PCI_CHUNKSIZE) then takes 131072 / 4792.2 = 27.351 us; the chain is 2 x 1.0
 * (hwLat[PCI][Ring][LL], two store flights) + 2 x 1.364 (host-read round trips) = 4.728 us.
 */
class ShmStepWaitsTest {

    private static final Topology PAIR = Catalog.standalone(new SynthesizedHost(
            GpuModels.sku("GeForce RTX 2080 Ti").orElseThrow(), 2, Bandwidth.ofGbits(100), 2), 1);
    private static final NcclSettings SHM = NcclSettings.parse(Map.of("NCCL_P2P_DISABLE", "1"));

    private static double allToAllUs(long bytes) throws Exception {
        Prediction p = new NcclPredictor().predict(new PredictionRequest(PAIR, PAIR.gpus(), Collective.ALL_TO_ALL,
                bytes, DataType.FLOAT, RedOp.SUM, SHM));
        return p.timeUs();
    }

    /**
     * 4 MiB to 8 MiB of AllToAll: each rank's one peer send grows from 2 to 4 MiB, on one channel (up to 32 chunks,
     * the one-host maxPart, P2pChannelsBySizeTest), so 16 more chunks of 27.351 + 4.728 us: 513.26 us. Measured
     * 541.5 -> 1060.7 us, 519.2 (the data file, lines 250-251); the link rate alone would say 437.6.
     */
    @Test
    void oneChannelPaysTheChainPerChunk() throws Exception {
        assertEquals(16 * (27.351 + 4.728), allToAllUs(8L << 20) - allToAllUs(4L << 20), 0.5);
    }

    /**
     * 16 MiB to 32 MiB: each peer's send (8 to 16 MiB) runs on 2 channels (P2pChannelsBySizeTest), each carrying half:
     * 8 MiB more at the link rate, 8388608 / 4792.2 = 1750.5 us, and 32 more chunks on each channel, each waiting its
     * chain: + 32 x 4.728 = 1901.8 us. Measured 1886.6 -> 3743.2 us, 1856.6 (lines 252-253); the waits hidden would
     * say 1750.5.
     */
    @Test
    void twoChannelsEachWaitTheirChains() throws Exception {
        assertEquals(8388608 / 4792.2 + 32 * 4.728, allToAllUs(32L << 20) - allToAllUs(16L << 20), 0.5);
    }

    /**
     * The rule's own figures on the pair's plan. p2p: 4 MiB per peer on one channel is 32 chunks of 128 KiB, 31 waits
     * of 4.728 us; 8 MiB per peer on 2 channels the same per channel; LL (flags in the lines) and P2P (FIFO in the
     * receiver's GPU) none. Rooted: a 1 GiB Broadcast on 2 channels is 1024 chunks of 512 KiB a channel, 1023 waits;
     * 1 MiB one chunk a channel, none; an AllReduce (unrooted: its measured share holds its steps) none.
     */
    @Test
    void waitsOnlyForSimpleOverShm() {
        ChannelPlan shm = ChannelSearch.search(PAIR, PAIR.gpus(), SHM, NcclVersion.DEFAULT);
        ChannelPlan p2p = ChannelSearch.search(PAIR, PAIR.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        NcclVersion v = NcclVersion.DEFAULT;
        assertEquals(31 * 4.728, ShmStepWaits.p2pUs(shm, SHM, v, PathType.PHB, Protocol.SIMPLE, 4L << 20), 1e-9);
        assertEquals(31 * 4.728, ShmStepWaits.p2pUs(shm, SHM, v, PathType.PHB, Protocol.SIMPLE, 8L << 20), 1e-9);
        assertEquals(0, ShmStepWaits.p2pUs(shm, SHM, v, PathType.PHB, Protocol.LL, 16384));
        assertEquals(0, ShmStepWaits.p2pUs(p2p, NcclSettings.DEFAULTS, v, PathType.PIX, Protocol.SIMPLE, 4L << 20));
        assertEquals(1023 * 4.728, ShmStepWaits.rootedUs(shm, SHM, Collective.BROADCAST, Algorithm.RING,
                Protocol.SIMPLE, 1L << 30, 2), 1e-9);
        assertEquals(0, ShmStepWaits.rootedUs(shm, SHM, Collective.REDUCE, Algorithm.RING, Protocol.SIMPLE, 1L << 20,
                2));
        assertEquals(0, ShmStepWaits.rootedUs(shm, SHM, Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE,
                1L << 30, 2));
    }

    /**
     * The fill: each channel's first chunk stored before any load, at the pair's one-way 12 GB/s x 0.98. 64 KiB per
     * peer (less than a chunk, one channel): 65536 / 11760 = 5.573 us; 4 MiB (one channel): one 128 KiB chunk,
     * 11.146 us; 8 MiB (2 channels): two chunks, 22.291 us; P2P: none.
     */
    @Test
    void fillIsTheFirstChunkPerChannelAtThePairRate() {
        ChannelPlan shm = ChannelSearch.search(PAIR, PAIR.gpus(), SHM, NcclVersion.DEFAULT);
        ChannelPlan p2p = ChannelSearch.search(PAIR, PAIR.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        NcclVersion v = NcclVersion.DEFAULT;
        assertEquals(65536 / 11760.0, ShmStepWaits.p2pFillUs(shm, SHM, v, PathType.PHB, Protocol.SIMPLE, 65536,
                0.98), 1e-9);
        assertEquals(131072 / 11760.0, ShmStepWaits.p2pFillUs(shm, SHM, v, PathType.PHB, Protocol.SIMPLE, 4L << 20,
                0.98), 1e-9);
        assertEquals(2 * 131072 / 11760.0, ShmStepWaits.p2pFillUs(shm, SHM, v, PathType.PHB, Protocol.SIMPLE,
                8L << 20, 0.98), 1e-9);
        assertEquals(0, ShmStepWaits.p2pFillUs(p2p, NcclSettings.DEFAULTS, v, PathType.PIX, Protocol.SIMPLE, 4L << 20,
                0.98));
    }
    /**
     * A 2-rank Tree AllReduce chain over SHM: its root waits one chain per one-step slice (512 KiB, NCCL 2.29.2
     * {@code src/enqueue.cc}: a Tree's chunkSteps and sliceSteps are 1), where the ring hop's measured share holds one
     * per 2-step slice (ALLREDUCE_SLICESTEPS 2). 128 MiB on 2 channels: 64 MiB a channel, 128 Tree slices against 64
     * Ring slices, 64 x 4.728 us; 2 MiB: 2 against 1, one chain; 1 MiB: one slice either way, none; Ring, LL and P2P
     * none. End to end, 64 MiB to 128 MiB adds 64 MiB at the chain's rate (the ring graph's 6 GB/s x 0.98 x the
     * Gen3 hop share 0.666 = 3.916 GB/s algBw, a chain of 2 moving what a ring of 2 moves) and 32 chains per channel.
     */
    @Test
    void treePairRootWaitsOneChainPerStep() throws Exception {
        ChannelPlan shm = ChannelSearch.search(PAIR, PAIR.gpus(), SHM, NcclVersion.DEFAULT);
        ChannelPlan p2p = ChannelSearch.search(PAIR, PAIR.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        Collective ar = Collective.ALL_REDUCE;
        assertEquals(64 * 4.728, ShmStepWaits.treePairUs(shm, SHM, ar, Algorithm.TREE, Protocol.SIMPLE, 128L << 20,
                2), 1e-9);
        assertEquals(4.728, ShmStepWaits.treePairUs(shm, SHM, ar, Algorithm.TREE, Protocol.SIMPLE, 2L << 20, 2), 1e-9);
        assertEquals(0, ShmStepWaits.treePairUs(shm, SHM, ar, Algorithm.TREE, Protocol.SIMPLE, 1L << 20, 2));
        assertEquals(0, ShmStepWaits.treePairUs(shm, SHM, ar, Algorithm.RING, Protocol.SIMPLE, 128L << 20, 2));
        assertEquals(0, ShmStepWaits.treePairUs(shm, SHM, ar, Algorithm.TREE, Protocol.LL, 128L << 20, 2));
        assertEquals(0, ShmStepWaits.treePairUs(p2p, NcclSettings.DEFAULTS, ar, Algorithm.TREE, Protocol.SIMPLE,
                128L << 20, 2));
        NcclSettings tree = NcclSettings.parse(Map.of("NCCL_P2P_DISABLE", "1", "NCCL_ALGO", "Tree",
                "NCCL_PROTO", "Simple"));
        double grow = treeUs(128L << 20, tree) - treeUs(64L << 20, tree);
        assertEquals((64L << 20) / (6000 * 0.98 * 0.666) + 32 * 4.728, grow, 1.0);
    }

    private static double treeUs(long bytes, NcclSettings s) throws Exception {
        return new NcclPredictor().predict(new PredictionRequest(PAIR, PAIR.gpus(), Collective.ALL_REDUCE, bytes,
                DataType.FLOAT, RedOp.SUM, s)).timeUs();
    }
}
