package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Hand-worked values of {@link NvlsTreePipeline}. */
class NvlsTreePipelineTest {

    /**
     * 2 x 8 H100 at 8 MiB: 16 channels, 8 heads, NCCL's chunk 64 KiB (8 MiB is not below ops x 64 KiB = 128 x 64 KiB
     * = 8 MiB). One channel's iteration = min(8 x 65536, 8388608 / 16) = 524288 B.
     */
    @Test
    void channelChunkIsHeadsTimesChunkOrTheChannelsPart() {
        assertEquals(524288.0, NvlsTreePipeline.channelChunkBytes(65536, 8, 8L << 20, 16), 1e-9);
        // 2 MiB over 16 channels: 131072 B per channel, less than 8 x 32 KiB = 262144
        assertEquals(131072.0, NvlsTreePipeline.channelChunkBytes(32768, 8, 2L << 20, 16), 1e-9);
    }

    /**
     * Iterations of one channel: 2 x 8 H100, 16 channels, 8 heads. 4 MiB: 32 KiB chunk, 262144 B per channel =
     * one iteration of 8 x 32 KiB. 16 MiB: 64 KiB chunk, 1 MiB per channel / 524288 = 2. 64 MiB on 4 nodes (64 KiB
     * chunk, src/transport/nvls.cc treeMax): 4 MiB per channel / 524288 = 8. 8558603 B over 16 channels (64 KiB
     * chunk): 534912.6875 B per channel / 524288 = 1.020265 (a last iteration of 10624.7 B counts as its fraction).
     * 1 MiB over 16 channels of 131072 B: 65536 B per channel, below one iteration -> 1.
     */
    @Test
    void iterationsArePerChannelBytesOverTheChannelChunk() {
        assertEquals(1.0, NvlsTreePipeline.iterations(4L << 20, 16, 262144), 1e-12);
        assertEquals(2.0, NvlsTreePipeline.iterations(16L << 20, 16, 524288), 1e-12);
        assertEquals(8.0, NvlsTreePipeline.iterations(64L << 20, 16, 524288), 1e-12);
        assertEquals(1.020265, NvlsTreePipeline.iterations(8558603, 16, 524288), 1e-6);
        assertEquals(1.0, NvlsTreePipeline.iterations(1L << 20, 16, 131072), 1e-12);
    }

    /**
     * Stage times ahead of the last iteration = min(iterations, hops + 1). 2 nodes (2 hops): a full pipe is 3 x
     * 524288 B / (1000 x 28.75 GB/s) = 1572864 / 28750 = 54.708 us; 2 iterations (16 MiB) 2 x 524288 / 28750 =
     * 36.472 us, on 2 as on 4 nodes. 4 nodes (4 hops), 8 iterations (64 MiB): 5 x 524288 / 28750 = 91.18 us.
     */
    @Test
    void fillCountsTheStagesAheadOfTheLastIteration() {
        assertEquals(54.708, NvlsTreePipeline.fillUs(Math.min(4, 2 + 1), 1.0, 524288, 28.75), 1e-3);
        assertEquals(36.472, NvlsTreePipeline.fillUs(Math.min(2, 2 + 1), 1.0, 524288, 28.75), 1e-3);
        assertEquals(36.472, NvlsTreePipeline.fillUs(Math.min(2, 4 + 1), 1.0, 524288, 28.75), 1e-3);
        assertEquals(91.180, NvlsTreePipeline.fillUs(Math.min(8, 4 + 1), 1.0, 524288, 28.75), 1e-3);
        assertEquals(0.0, NvlsTreePipeline.fillUs(3, 0.0, 524288, 28.75), 1e-12);
    }
}
