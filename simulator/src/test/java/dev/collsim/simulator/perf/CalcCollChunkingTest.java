package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL's chunk before its size cuts, worked out by hand from NCCL 2.30.7: {@code src/enqueue.cc calcCollChunking}
 * ({@code stepSize = buffSizes[p] / NCCL_STEPS}, NCCL_STEPS 8; {@code chunkSteps} only for Ring/Simple;
 * LL {@code /= 2}; LL128 {@code / NCCL_LL128_LINEELEMS 16 * NCCL_LL128_DATAELEMS 15}),
 * {@code src/include/collectives.h} (ALLREDUCE/ALLGATHER/REDUCESCATTER_CHUNKSTEPS = 8 / 2 = 4, BROADCAST_CHUNKSTEPS
 * 1) and the default buffers of {@code src/init.cc} and {@code src/include/device.h}: Simple 4 MiB; LL
 * NCCL_LL_LINES_PER_THREAD 8 x NCCL_LL_MAX_NTHREADS 512 x 8 steps x 16-byte lines = 524,288; LL128
 * NCCL_LL128_ELEMS_PER_THREAD 120 x NCCL_LL128_MAX_NTHREADS 640 x 8 steps x 8 bytes = 4,915,200.
 */
class CalcCollChunkingTest {

    private static final NcclSettings S = NcclSettings.DEFAULTS;

    /** Simple: 4,194,304 / 8 = 524,288 a step; Ring AllReduce/AllGather/ReduceScatter 4 steps = 2,097,152. */
    @Test
    void simpleTakesFourStepsOnlyOnUnrootedRings() {
        assertEquals(2_097_152L, CalcCollChunking.chunk(Algorithm.RING, Protocol.SIMPLE, Collective.ALL_REDUCE, S));
        assertEquals(2_097_152L, CalcCollChunking.chunk(Algorithm.RING, Protocol.SIMPLE, Collective.ALL_GATHER, S));
        assertEquals(2_097_152L, CalcCollChunking.chunk(Algorithm.RING, Protocol.SIMPLE,
                Collective.REDUCE_SCATTER, S));
        assertEquals(524_288L, CalcCollChunking.chunk(Algorithm.RING, Protocol.SIMPLE, Collective.BROADCAST, S),
                "BROADCAST_CHUNKSTEPS 1");
        assertEquals(524_288L, CalcCollChunking.chunk(Algorithm.RING, Protocol.SIMPLE, Collective.REDUCE, S));
        assertEquals(524_288L, CalcCollChunking.chunk(Algorithm.TREE, Protocol.SIMPLE, Collective.ALL_REDUCE, S),
                "chunkSteps 1 outside Ring");
        assertEquals(524_288L, CalcCollChunking.chunk(Algorithm.PAT, Protocol.SIMPLE, Collective.ALL_GATHER, S));
    }

    /** LL: 524,288 / 8 = 65,536 a step, half of it data: 32,768; LL128: 614,400 a step x 15 / 16 = 576,000. */
    @Test
    void llHalvesAndLl128KeepsFifteenSixteenths() {
        assertEquals(32_768L, CalcCollChunking.chunk(Algorithm.RING, Protocol.LL, Collective.ALL_REDUCE, S));
        assertEquals(32_768L, CalcCollChunking.chunk(Algorithm.TREE, Protocol.LL, Collective.ALL_REDUCE, S));
        assertEquals(576_000L, CalcCollChunking.chunk(Algorithm.RING, Protocol.LL128, Collective.ALL_REDUCE, S),
                "no chunk steps for LL128 on a ring");
        assertEquals(576_000L, CalcCollChunking.chunk(Algorithm.TREE, Protocol.LL128, Collective.ALL_REDUCE, S));
    }

    /** NCCL_NVLS_CHUNKSIZE's default 131,072 ({@code src/transport/nvls.cc}), whatever the buffers. */
    @Test
    void nvlsTakesTheNvlsChunk() {
        NcclSettings big = NcclSettings.parse(Map.of("NCCL_BUFFSIZE", String.valueOf(8L << 20)));
        assertEquals(131_072L, CalcCollChunking.chunk(Algorithm.NVLS, Protocol.SIMPLE, Collective.ALL_REDUCE, big));
        assertEquals(131_072L, CalcCollChunking.chunk(Algorithm.NVLS_TREE, Protocol.SIMPLE, Collective.ALL_REDUCE,
                S));
    }

    /** NCCL_BUFFSIZE 8 MiB: 1,048,576 a step, Ring AllReduce 4 steps = 4,194,304; Tree one step. */
    @Test
    void followsTheBuffer() {
        NcclSettings big = NcclSettings.parse(Map.of("NCCL_BUFFSIZE", String.valueOf(8L << 20)));
        assertEquals(4_194_304L, CalcCollChunking.chunk(Algorithm.RING, Protocol.SIMPLE, Collective.ALL_REDUCE,
                big));
        assertEquals(1_048_576L, CalcCollChunking.chunk(Algorithm.TREE, Protocol.SIMPLE, Collective.ALL_REDUCE,
                big));
    }
}
