package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.GraphPattern;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.PathType;
import org.junit.jupiter.api.Test;

/**
 * NCCL's slice sizes (NCCL 2.30.7 {@code src/include/device.h} NCCL_STEPS = 8, {@code src/include/collectives.h}
 * ALLREDUCE_SLICESTEPS = NCCL_STEPS / 4, ALLREDUCE_CHUNKSTEPS = NCCL_STEPS / 2, BROADCAST_* = 1, default buffer
 * sizes from {@code src/init.cc}) and the fill worked by hand.
 */
class IntraNodeSlicePipelineTest {

    private static final NcclSettings D = NcclSettings.DEFAULTS;

    /** CHUNKSTEPS / SLICESTEPS: 4 / 2 = 2 for Ring/Simple AllReduce, AllGather, ReduceScatter; 1 / 1 otherwise. */
    @Test
    void slicesPerChunkFollowNcclStepCounts() {
        assertEquals(2, IntraNodeSlicePipeline.slicesPerChunk(Algorithm.RING, Protocol.SIMPLE, Collective.ALL_REDUCE));
        assertEquals(2, IntraNodeSlicePipeline.slicesPerChunk(Algorithm.RING, Protocol.SIMPLE, Collective.ALL_GATHER));
        assertEquals(2, IntraNodeSlicePipeline.slicesPerChunk(Algorithm.RING, Protocol.SIMPLE,
                Collective.REDUCE_SCATTER));
        assertEquals(1, IntraNodeSlicePipeline.slicesPerChunk(Algorithm.RING, Protocol.SIMPLE, Collective.BROADCAST));
        assertEquals(1, IntraNodeSlicePipeline.slicesPerChunk(Algorithm.RING, Protocol.LL128, Collective.ALL_REDUCE));
        assertEquals(1, IntraNodeSlicePipeline.slicesPerChunk(Algorithm.TREE, Protocol.SIMPLE, Collective.ALL_REDUCE));
    }

    /**
     * Large calls, default buffers: Ring/Simple AllReduce 4194304 / 8 x 2 = 1048576 B; Ring/Simple Broadcast
     * 4194304 / 8 = 524288 B; LL 524288 / 8 / 2 = 32768 B; LL128 4915200 / 8 = 614400 B of which 120 of 128 bytes
     * are data: 576000 B.
     */
    @Test
    void fullSlicesAreNcclStepsTimesSliceSteps() {
        long big = 1L << 34;
        assertEquals(1048576, IntraNodeSlicePipeline.sliceBytes(Algorithm.RING, Protocol.SIMPLE,
                Collective.ALL_REDUCE, D, big, 16, 8), 0);
        assertEquals(524288, IntraNodeSlicePipeline.sliceBytes(Algorithm.RING, Protocol.SIMPLE,
                Collective.BROADCAST, D, big, 16, 8), 0);
        assertEquals(32768, IntraNodeSlicePipeline.sliceBytes(Algorithm.RING, Protocol.LL,
                Collective.ALL_REDUCE, D, big, 16, 8), 0);
        assertEquals(576000, IntraNodeSlicePipeline.sliceBytes(Algorithm.RING, Protocol.LL128,
                Collective.ALL_REDUCE, D, big, 16, 8), 0);
    }

    /**
     * A rank's share below a chunk: 8 MiB on 16 channels and 2 ranks is 8388608 / 32 = 262144 B per rank and channel,
     * cut into 2 slices of 131072 B (prims_simple.h: divUp(nelem, 16 x SlicePerChunk) x 16).
     */
    @Test
    void smallSharesAreHalved() {
        assertEquals(131072, IntraNodeSlicePipeline.sliceBytes(Algorithm.RING, Protocol.SIMPLE,
                Collective.ALL_REDUCE, D, 8L << 20, 16, 2), 1e-9);
    }

    /** One 1 MiB slice at 20.7 GB/s per channel: 1048576 / 20700 = 50.655 us; two slices twice that. */
    @Test
    void fillIsSlicesOverPerChannelRate() {
        assertEquals(50.655, IntraNodeSlicePipeline.fillUs(1, 1048576, 20.7), 1e-3);
        assertEquals(101.31, IntraNodeSlicePipeline.fillUs(2, 1048576, 20.7), 1e-2);
    }

    /** Ring and Tree on one NVLink host only: not PCIe rings, not several nodes, not NVLS, not one rank. */
    @Test
    void appliesToSingleHostNvlinkRingsOnly() {
        GraphSummary nvl = GraphSummary.singleHost(GraphPattern.RING, 16, 20, PathType.NVL);
        GraphSummary pcie = GraphSummary.singleHost(GraphPattern.RING, 2, 12, PathType.PXB);
        assertTrue(IntraNodeSlicePipeline.applies(Algorithm.RING, 1, 8, nvl));
        assertTrue(IntraNodeSlicePipeline.applies(Algorithm.TREE, 1, 2, nvl));
        assertFalse(IntraNodeSlicePipeline.applies(Algorithm.RING, 1, 8, pcie));
        assertFalse(IntraNodeSlicePipeline.applies(Algorithm.RING, 2, 16, nvl));
        assertFalse(IntraNodeSlicePipeline.applies(Algorithm.NVLS, 1, 8, nvl));
        assertFalse(IntraNodeSlicePipeline.applies(Algorithm.RING, 1, 1, nvl));
    }
}
