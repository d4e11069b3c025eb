package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The channels NCCL 2.8 gives one AllReduce on one ABCI Compute Node (A) (8 A100 on NVSwitch), the node of the
 * one-host NCCL 2.8.4 runs (A-allreduce-1x4-1x8xA100-40GB-abci-anode-nccl2.8.txt). Every count is worked by hand from
 * github.com/NVIDIA/nccl at v2.8.4-1 (v2.8.3-1 is the same in every file named):
 * <ul>
 *   <li>runtime channels: the search's 6 rings of 42 GB/s (12 links x {@code SM80_NVLINK_WIDTH} 21, speed array
 *       {42, 30, ...}, {@code src/graph/search.cc} line 651) duplicated to 12 of 21 (speedIntra >= 25, line 799),
 *       doubled to 24 by {@code src/graph/connect.cc} line 267 ({@code min(MAXCHANNELS, nChannels * 2)}, MAXCHANNELS
 *       32, {@code src/include/devcomm.h} line 49); NCCL_MIN/MAX_NCHANNELS unset ({@code connect.cc} lines 205-230).</li>
 *   <li>per call ({@code src/enqueue.cc getAlgoInfo}): {@code while (nBytes < nc * nt * threadThreshold) nc--}
 *       down to 1, with nt = {@code maxThreads}: LL 512, LL128 640, Simple 512 ({@code src/graph/tuning.cc}
 *       {@code ncclTopoTuneModel}, {@code NCCL_LL_MAX_NTHREADS}, {@code NCCL_LL128_MAX_NTHREADS}, {@code
 *       NCCL_SIMPLE_MAX_NTHREADS}, devcomm.h lines 51-52, 69) and thresholds LL 8 x nRanks on rings, LL128 8, Simple
 *       64 ({@code src/include/comm.h} lines 29-31, {@code tuning.cc} "threadThresholds[RING][LL] *= nRanks"). So a
 *       Ring/LL channel holds 512 x 32 = 16 KiB on 4 ranks and 512 x 64 = 32 KiB on 8; 4 ranks: 1 / 2 / 4 / 8 / 16
 *       channels at 16-256 KiB and 24 at 512 KiB (32 fit); 8 ranks: 1 at 16-32 KiB, 2 / 4 / 8 / 16 at 64-512 KiB,
 *       24 at 1 MiB; Ring/LL128 640 x 8 = 5 KiB a channel, 24 at 1 MiB; Ring/Simple 512 x 64 = 32 KiB a channel, 24
 *       at 8 MiB.</li>
 * </ul>
 * The same rule stands in 2.28.9, which collsim's per-call count follows; this pins it on the 2.8 node.
 */
class EarlyPerCallChannelsTest {

    private static final long KIB = 1024;

    private static ChannelPlan plan(int gpus) {
        Topology t = Catalog.standalone(Catalog.hostType("abci-node-a").orElseThrow(), 1);
        return ChannelSearch.search(t, t.gpus().subList(0, gpus), NcclSettings.parse(Map.of()), NcclVersion.V2_8_4);
    }

    private static int ll(ChannelPlan p, long bytes) {
        return RuntimeChannels.perCall(Algorithm.RING, Protocol.LL, bytes, p, NcclSettings.DEFAULTS);
    }

    @Test
    void fourA100RunTwentyFourChannelsAndRingLlHalvesThemPerHalvedSize() {
        ChannelPlan p = plan(4);
        assertEquals(12, p.graphs().ring().nChannels());
        assertEquals(21.0, p.graphs().ring().bwIntra(), 1e-9);
        assertEquals(24, p.runtimeChannels());
        assertEquals(1, ll(p, 16 * KIB));
        assertEquals(2, ll(p, 32 * KIB));
        assertEquals(4, ll(p, 64 * KIB));
        assertEquals(8, ll(p, 128 * KIB));
        assertEquals(16, ll(p, 256 * KIB));
        assertEquals(24, ll(p, 512 * KIB));
        assertEquals(24, RuntimeChannels.perCall(Algorithm.RING, Protocol.LL128, 1024 * KIB, p,
                NcclSettings.DEFAULTS));
        assertEquals(24, RuntimeChannels.perCall(Algorithm.RING, Protocol.SIMPLE, 8192 * KIB, p,
                NcclSettings.DEFAULTS));
    }

    @Test
    void eightA100HoldThirtyTwoKibPerRingLlChannel() {
        ChannelPlan p = plan(8);
        assertEquals(24, p.runtimeChannels());
        assertEquals(1, ll(p, 16 * KIB));
        assertEquals(1, ll(p, 32 * KIB));
        assertEquals(2, ll(p, 64 * KIB));
        assertEquals(4, ll(p, 128 * KIB));
        assertEquals(8, ll(p, 256 * KIB));
        assertEquals(16, ll(p, 512 * KIB));
        assertEquals(24, ll(p, 1024 * KIB));
    }
}
