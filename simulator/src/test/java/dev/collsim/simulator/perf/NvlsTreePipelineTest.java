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
     * 2 nodes: 2 network steps (up and down a 2-node tree) + 2 NVLS stages = 4 stages, fill = 3 iterations.
     * 3 x 524288 B / (1000 x 28.75 GB/s) = 1572864 / 28750 = 54.708 us. 4 nodes (4 hops): 5 x 524288 / 28750 =
     * 91.18 us.
     */
    @Test
    void fillIsStagesLessOneIterationsAtTheChannelsRate() {
        assertEquals(54.708, NvlsTreePipeline.fillUs(2, 1.0, 524288, 28.75), 1e-3);
        assertEquals(91.180, NvlsTreePipeline.fillUs(4, 1.0, 524288, 28.75), 1e-3);
        assertEquals(0.0, NvlsTreePipeline.fillUs(2, 0.0, 524288, 28.75), 1e-12);
    }
}
