package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.TestClusters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.yaml.YamlClusterReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NCCL's NVLS tuning, each case read by hand from NCCL 2.30.7 {@code src/transport/nvls.cc} ({@code ncclNvlsTuning},
 * {@code ncclNvlsTreeSm100Tuning}) and NCCL 2.28.9 ({@code ncclNvlsInit}; {@code src/enqueue.cc calcCollChunking}
 * for the NVLSTree max: 64 KiB on 4 or more nodes, else the chunk).
 */
class NvlsTuningTest {

    private static final long K = 1 << 10;
    private static final NcclVersion V30 = NcclVersion.V2_30_7;

    private static void check(NvlsTuning t, int channels, long chunk, long treeMax) {
        assertEquals(new NvlsTuning(channels, chunk, treeMax), t);
    }

    /** Defaults: 16 on sm90, 24 on one sm100 node, 32 on several; 128 KiB; tree max 64 KiB from 4 nodes. */
    @Test
    void defaultsOutsideTheSm100MultiNodeTuning() {
        check(NvlsTuning.of(V30, 90, 2, 8, 50, PathType.PIX), 16, 128 * K, 128 * K);
        check(NvlsTuning.of(V30, 90, 4, 8, 50, PathType.PIX), 16, 128 * K, 64 * K);
        check(NvlsTuning.of(V30, 100, 1, 72, 0, PathType.PIX), 24, 128 * K, 128 * K);
    }

    /**
     * The NVLS channels by release (src/transport/nvls.cc {@code ncclNvlsInit}): 2.24.3 {@code NCCL_PARAM(NvlsChannels,
     * "NVLS_NCHANNELS", 16)} for every GPU (line 146); 2.26.2 {@code compCap >= 100 ? NVLS_NCHANNELS_SM100 (32) :
     * NVLS_NCHANNELS_SM90 (16)} whatever the node count (lines 144-145, 176); 2.27.3 {@code multiNode ?
     * NVLS_NCHANNELS_SM100 : NVLS_NCHANNELS_SM100_NVL} (32, 24; lines 147-149, 193).
     */
    @Test
    void sm100ChannelsByRelease() {
        assertEquals(16, NvlsTuning.of(NcclVersion.V2_23_4, 100, 1, 8, 0, PathType.PIX).channels());
        assertEquals(16, NvlsTuning.of(NcclVersion.V2_23_4, 100, 2, 8, 50, PathType.PIX).channels());
        assertEquals(32, NvlsTuning.of(NcclVersion.V2_25_1, 100, 1, 8, 0, PathType.PIX).channels());
        assertEquals(32, NvlsTuning.of(NcclVersion.V2_25_1, 100, 2, 8, 50, PathType.PIX).channels());
        assertEquals(16, NvlsTuning.of(NcclVersion.V2_25_1, 90, 1, 8, 0, PathType.PIX).channels());
        assertEquals(24, NvlsTuning.of(NcclVersion.V2_27_3, 100, 1, 8, 0, PathType.PIX).channels());
        assertEquals(32, NvlsTuning.of(NcclVersion.V2_27_3, 100, 2, 8, 50, PathType.PIX).channels());
        assertEquals(24, NvlsTuning.of(NcclVersion.V2_28_9, 100, 1, 72, 0, PathType.PIX).channels());
    }

    /**
     * Two GB200 NVL72 racks as OCI ran them: 2 NCCL nodes of 64 ranks, GPU-NIC path through the Grace (P2C) capped by
     * NCCL's PCIe Gen5 x16 figure, 48 GB/s (under the 400 Gb/s = 50 GB/s port): "nNodes == 2 && nicBw >= 48" gives 32
     * channels, and ppn 64 >= 16 a tree max of 64 KiB, so the NVLSTree chunk is 64 KiB (128 KiB before 2.30.3).
     */
    @Test
    void twoRacksOfGb200() {
        NvlsTuning t = NvlsTuning.of(V30, 100, 2, 64, 48, PathType.P2C);
        check(t, 32, 128 * K, 64 * K);
        assertEquals(64 * K, t.treeChunk());
        check(NvlsTuning.of(NcclVersion.V2_28_9, 100, 2, 64, 48, PathType.P2C), 32, 128 * K, 128 * K);
    }

    /**
     * Before 2.21 NVLSTree starts from the Simple step (NCCL 2.18.5 {@code src/enqueue.cc computeColl}: no cap;
     * 2.19.3: 64 KiB on 4 or more nodes; 2.20.3 {@code calcCollChunking}: NCCL_NVLSTREE_MAX_CHUNKSIZE default 64 KiB on
     * 4 or more nodes, else the step); 2.21.5 starts from {@code comm->nvlsChunkSize}, 128 KiB.
     */
    @Test
    void nvlsTreeStartsFromTheStepBefore221() {
        long step = 512 * K;
        NvlsTuning v18 = NvlsTuning.of(NcclVersion.V2_18_5, 90, 4, 8, 50, PathType.PIX);
        assertEquals(new NvlsTuning(16, 128 * K, Long.MAX_VALUE, true), v18);
        assertEquals(step, v18.treeChunk(step));
        assertEquals(64 * K, NvlsTuning.of(NcclVersion.V2_19_4, 90, 4, 8, 50, PathType.PIX).treeChunk(step));
        assertEquals(step, NvlsTuning.of(NcclVersion.V2_19_4, 90, 2, 8, 50, PathType.PIX).treeChunk(step));
        assertEquals(128 * K, NvlsTuning.of(NcclVersion.V2_21_5, 90, 2, 8, 50, PathType.PIX).treeChunk(step));
        assertEquals(64 * K, NvlsTuning.of(NcclVersion.V2_21_5, 90, 4, 8, 50, PathType.PIX).treeChunk(step));
    }

    /** Two nodes: ppn <= 4 takes 256 KiB for both; ppn 8 on a PXB path with NIC < 96 takes a 64 KiB tree max. */
    @Test
    void twoNodesByRanksPerNode() {
        check(NvlsTuning.of(V30, 100, 2, 4, 100, PathType.P2C), 32, 256 * K, 256 * K);
        check(NvlsTuning.of(V30, 100, 2, 8, 50, PathType.PXB), 32, 128 * K, 64 * K);
        check(NvlsTuning.of(V30, 100, 2, 8, 50, PathType.P2C), 32, 128 * K, 128 * K);
        check(NvlsTuning.of(V30, 100, 2, 8, 100, PathType.PXB), 32, 128 * K, 128 * K);
    }

    /**
     * Three or more nodes: NIC >= 96 GB/s gives 24 channels and 256 KiB at ppn <= 8, else 32 channels and a tree max
     * of 128 KiB (ppn < 32) or 64 KiB; NIC in [48, 96) gives 24 channels, tree max 128 KiB (64 KiB on PXB or better);
     * below 48 GB/s nothing changes (32 channels; tree max the chunk on 3 nodes, 64 KiB on 4).
     */
    @Test
    void threeOrMoreNodesByNicBandwidth() {
        check(NvlsTuning.of(V30, 100, 3, 64, 48, PathType.P2C), 24, 128 * K, 128 * K);
        check(NvlsTuning.of(V30, 100, 3, 8, 50, PathType.PXB), 24, 128 * K, 64 * K);
        check(NvlsTuning.of(V30, 100, 3, 8, 100, PathType.PIX), 24, 256 * K, 256 * K);
        check(NvlsTuning.of(V30, 100, 3, 16, 100, PathType.P2C), 32, 128 * K, 128 * K);
        check(NvlsTuning.of(V30, 100, 3, 64, 100, PathType.P2C), 32, 128 * K, 64 * K);
        check(NvlsTuning.of(V30, 100, 3, 8, 25, PathType.PIX), 32, 128 * K, 128 * K);
        check(NvlsTuning.of(V30, 100, 4, 8, 25, PathType.PIX), 32, 128 * K, 64 * K);
        check(NvlsTuning.of(V30, 100, 2, 8, 25, PathType.PIX), 32, 128 * K, 128 * K);
        // NCCL 2.28.9 has no tuning: 32 channels on several sm100 nodes
        check(NvlsTuning.of(NcclVersion.V2_28_9, 100, 3, 64, 48, PathType.P2C), 32, 128 * K, 128 * K);
    }

    private static ChannelPlan racks(int trays, NcclVersion v) throws Exception {
        // racks of several NVLink domains need a network between them (YamlClusterReader refuses them without a fabric)
        String yaml = "schema: collsim/v1\nname: t\nhosts: gb200-nvl72\ncount: " + trays + "\ntraysPerDomain: 16\n"
                + "fabric: {kind: rail-optimized}\n";
        Topology t = new YamlClusterReader().readCluster("t.yaml", yaml).topology();
        return ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, v);
    }

    /**
     * The OCI GB200 NVL72 layouts, 16 trays per rack, each rack one NCCL node: the search must find NCCL's inputs (2
     * or 3 nodes of 64 ranks, GPU-NIC path P2C at 48 GB/s) so that 2 racks take 32 channels and a 64 KiB NVLSTree
     * chunk, 3 racks 24 channels and 128 KiB (NCCL 2.30.7, as above), and NCCL 2.28.9 keeps 32 and 128 KiB on both.
     */
    @Test
    void gb200RacksAsTheSearchSeesThem() throws Exception {
        ChannelPlan two = racks(32, V30);
        assertEquals(2, two.nNodes());
        check(two.nvlsTuning(), 32, 128 * K, 64 * K);
        assertEquals(32, two.nvlsChannels());
        ChannelPlan three = racks(48, V30);
        assertEquals(3, three.nNodes());
        check(three.nvlsTuning(), 24, 128 * K, 128 * K);
        assertEquals(24, RuntimeChannels.perCall(Algorithm.NVLS_TREE, Protocol.SIMPLE, 8L << 30, three,
                NcclSettings.DEFAULTS));
        check(racks(48, NcclVersion.V2_28_9).nvlsTuning(), 32, 128 * K, 128 * K);
    }

    /**
     * {@code ncclNvlsInit}'s GPU count (src/transport/nvls.cc): {@code gpuCount <= 2} turns NVLS off in v2.18.5-1
     * (line 239) to v2.28.3-1 (line 160), {@code gpuCount < 2} from v2.28.7-1 (line 161) and in v2.30.7-1 (line 262).
     */
    @Test
    void nvlsInitGpuCountByRelease() {
        assertFalse(NvlsTuning.ncclNvlsInitSupports(NcclVersion.V2_18_5, 2));
        assertTrue(NvlsTuning.ncclNvlsInitSupports(NcclVersion.V2_18_5, 3));
        assertFalse(NvlsTuning.ncclNvlsInitSupports(NcclVersion.V2_27_3, 2));
        assertTrue(NvlsTuning.ncclNvlsInitSupports(NcclVersion.V2_28_9, 2));
        assertFalse(NvlsTuning.ncclNvlsInitSupports(NcclVersion.V2_30_7, 1));
        assertTrue(NvlsTuning.ncclNvlsInitSupports(NcclVersion.V2_30_7, 2));
    }

    /**
     * 2 x 2 DGX H100 (2 GPUs of each NVSwitch host): no NVLS before 2.28.7, so NVLSTree cannot be NCCL's choice of a
     * 2.18-2.27 run (the rule above); 2.30.7 keeps it (and 2 x 8 keeps it in every release: 8 GPUs > 2).
     */
    @Test
    void twoGpusPerNodeHaveNoNvlsBefore2287() {
        Topology t = TestClusters.dgxH100(2, null);
        var ranks = List.of(t.gpus().get(0), t.gpus().get(1), t.gpus().get(8), t.gpus().get(9));
        assertFalse(ChannelSearch.search(t, ranks, NcclSettings.DEFAULTS, NcclVersion.V2_18_5).nvlsSupport());
        assertFalse(ChannelSearch.search(t, ranks, NcclSettings.DEFAULTS, NcclVersion.V2_27_3).nvlsSupport());
        assertTrue(ChannelSearch.search(t, ranks, NcclSettings.DEFAULTS, NcclVersion.V2_30_7).nvlsSupport());
        assertTrue(ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_18_5)
                .nvlsSupport());
    }
}
