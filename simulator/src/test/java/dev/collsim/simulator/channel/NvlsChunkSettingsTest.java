package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PreparedCall;
import dev.collsim.simulator.PreparedCommunicator;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL_NVLS_CHUNKSIZE and NCCL_NVLSTREE_MAX_CHUNKSIZE as a run sets them (aws-ofi-nccl v1.9.0-aws and later set both
 * to 524288 on AWS hosts, {@code src/platform-aws.c}; the p5 tuner file's header states them). Expected chunks worked
 * out by hand from NCCL 2.22.3 {@code src/enqueue.cc calcCollChunking}, NVLS_TREE branch: start min(nvlsChunkSize,
 * maxChunkSize); 256 KiB below 32 x ops x chunk, 128 KiB below 16 x ops x chunk, 64 KiB below 4 x, 32 KiB below 1 x;
 * ops = channels x heads = 16 x 8 = 128 on two p5.48xlarge hosts.
 */
class NvlsChunkSettingsTest {

    private static final long K = 1 << 10;
    private static final NcclSettings PLUGIN = NcclSettings.parse(Map.of("NCCL_NVLS_CHUNKSIZE", "524288",
            "NCCL_NVLSTREE_MAX_CHUNKSIZE", "524288"));

    private static long treeChunk(PreparedCommunicator c, long bytes) {
        PreparedCall call = c.call(Collective.ALL_REDUCE, bytes, DataType.FLOAT, RedOp.SUM);
        assertEquals(Algorithm.NVLS_TREE, call.algorithm(), bytes + " B");
        return call.nvlsLoop(PerformanceParameters.DEFAULTS, 16).orElseThrow().chunkBytes();
    }

    private static PreparedCommunicator prepare(NcclSettings s) {
        Topology t = ClusterLoader.load("p5.48xlargex2");
        return new NcclPredictor(NcclVersion.V2_28_9, PerformanceParameters.DEFAULTS).prepare(t, t.gpus(), s, 22);
    }

    /**
     * The plugin's 512 KiB start. 1 GiB: below 32 x 128 x 512 KiB = 2 GiB gives 256 KiB, not below 16 x 128 x 256 KiB
     * = 512 MiB, so 256 KiB (NCCL's default start, 128 KiB, keeps 128 KiB); 4 GiB is not below 2 GiB: 512 KiB;
     * 256 MiB: below 512 MiB, not below 4 x 128 x 128 KiB = 64 MiB: 128 KiB, as by default.
     */
    @Test
    void stateSettingsSetTheNvlsTreeChunk() {
        PreparedCommunicator plugin = prepare(PLUGIN);
        assertEquals(256 * K, treeChunk(plugin, 1L << 30));
        assertEquals(512 * K, treeChunk(plugin, 4L << 30));
        assertEquals(128 * K, treeChunk(plugin, 256L << 20));
        PreparedCommunicator defaults = prepare(NcclSettings.DEFAULTS);
        assertEquals(128 * K, treeChunk(defaults, 1L << 30));
        assertEquals(128 * K, treeChunk(defaults, 4L << 30));
    }

    /** -2 is NCCL's "auto": no value. */
    @Test
    void minusTwoKeepsNcclsRule() {
        assertTrue(NcclSettings.parse(Map.of("NCCL_NVLSTREE_MAX_CHUNKSIZE", "-2")).nvlsTreeMaxChunkSize().isEmpty());
        assertEquals(524288L, PLUGIN.nvlsTreeMaxChunkSize().orElseThrow());
        assertEquals(524288L, PLUGIN.nvlsChunkSize().orElseThrow());
    }

    /**
     * NvlsTuning with the settings (NCCL 2.30.7 {@code src/transport/nvls.cc}: env tree max wins; unset on fewer than
     * 4 nodes it is the chunk, on 4 or more 64 KiB).
     */
    @Test
    void tuningReadsTheSettings() {
        NvlsTuning fourNodes = NvlsTuning.of(NcclVersion.V2_28_9, 90, 4, 8, 50, PathType.PIX);
        assertEquals(64 * K, fourNodes.treeMaxChunk());
        assertEquals(new NvlsTuning(16, 512 * K, 512 * K), fourNodes.withSettings(PLUGIN, 4));
        NcclSettings chunkOnly = NcclSettings.parse(Map.of("NCCL_NVLS_CHUNKSIZE", "262144"));
        NvlsTuning twoNodes = NvlsTuning.of(NcclVersion.V2_28_9, 90, 2, 8, 50, PathType.PIX);
        assertEquals(new NvlsTuning(16, 256 * K, 256 * K), twoNodes.withSettings(chunkOnly, 2));
        assertEquals(new NvlsTuning(16, 256 * K, 64 * K), fourNodes.withSettings(chunkOnly, 4));
    }
}
