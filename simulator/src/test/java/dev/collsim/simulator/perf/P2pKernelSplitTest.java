package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.perf.P2pKernelSplit.Kernel;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL's cut of one AllToAll into kernels (NCCL 2.27.3 {@code src/enqueue.cc scheduleP2pTasksToPlan}, {@code
 * testBudget}, {@code addWorkBatchToPlan}; {@code src/include/channel.h ncclP2pChannelBaseForRound}; {@code
 * src/include/device.h ncclP2pChannelForPart}, 4 KiB kernel arguments, structs of 16 B per batch and 48 B per p2p
 * work, 32 B of kernel-argument header). Every expected value is worked by hand in its comment from those lines.
 */
class P2pKernelSplitTest {

    private static final long MIB = 1L << 20;

    /**
     * 64 ranks on one node (a GB200 rack), 32 p2p channels, 32 channels per peer, a 4 GiB AllToAll: 64 MiB per peer in
     * 4 parts (P2pPeerChannels.forOperation). Each round puts its work on all 32 channels, so every 8 rounds open 32
     * batches. With NCCL_WORK_FIFO_BYTES=0 the test before work k is 16 x (32 x ceil(k / 8) + 32) + 48 x (k + 1) &lt;=
     * 4096 - 32 = 4064: k = 30 gives 16 x 160 + 1488 = 4048 (fits), k = 31 gives 2560 + 1536 = 4096 (does not). So
     * kernels of rounds 0-30, 31-61, 62-63 (round 0 the rank itself): 30, 31 and 2 peers. Parts of round r sit on
     * channels r + {0, 16, 8, 24} (part bits reversed over 5 bits), so channel c holds the rounds r = c (mod 8): 4 of
     * rounds 1-30 for c = 1..6 (0 for the rank itself leaves 3 on c = 0, 8, 16, 24), 4 of 31-61, 1 of 62-63.
     */
    @Test
    void oneRackWithoutWorkFifoTakesThreeKernels() {
        List<Kernel> k = P2pKernelSplit.kernels(1, 64, 32, 32, 4, 0);
        assertEquals(List.of(new Kernel(30, 0, 4), new Kernel(31, 0, 4), new Kernel(2, 0, 1)), k);
    }

    /**
     * The same call with NCCL's default 1 MiB FIFO: works go to the FIFO (at most 512 KiB per kernel), but the batches
     * must still fit the arguments: 16 x (32 x ceil(k / 8) + 32) &lt;= 4064 holds up to ceil(k / 8) = 6, k = 48. So
     * rounds 0-48 (48 peers, channel c holding rounds = c mod 8: 6 each) and 49-63 (15 peers, at most 2 per channel).
     */
    @Test
    void oneRackWithDefaultFifoTakesTwoKernels() {
        List<Kernel> k = P2pKernelSplit.kernels(1, 64, 32, 32, 4, 1L << 20);
        assertEquals(List.of(new Kernel(48, 0, 6), new Kernel(15, 0, 2)), k);
    }

    /**
     * Two racks of 64 ranks, one channel per peer (a remote peer's 2 channels halved while 2 x 128 &gt; 4 x 32): round
     * r's work sits on channel base(r) = (r / 64) x 8 + (r mod 64) / 8, so 8 rounds share a channel and open one batch.
     * With no FIFO the test before work k is 16 x (ceil(k / 8) + 1) + 48 x (k + 1) &lt;= 4064: k = 80 gives 176 + 3888
     * = 4064 (fits), k = 81 gives 192 + 3936 = 4128 (does not): rounds 0-80 (63 node peers, 17 remote) and 81-127 (47
     * remote), 8 parts on the fullest channel of each. With the default FIFO all 128 works (6144 B) fit: one kernel.
     */
    @Test
    void twoRacksWithoutWorkFifoTakeTwoKernels() {
        assertEquals(List.of(new Kernel(63, 17, 8), new Kernel(0, 47, 8)), P2pKernelSplit.kernels(2, 64, 32, 1, 1, 0));
        assertEquals(List.of(new Kernel(63, 64, 8)), P2pKernelSplit.kernels(2, 64, 32, 1, 1, 1L << 20));
    }

    /**
     * Two GB200 racks as NCCL 2.27.3 sees them: a GB200 GPU reaches its Grace over NVLink-C2C (225 GB/s a GPU in the
     * catalog) and both NICs of that Grace through it (P2C, 48 GB/s each as NCCL rates the Grace's Gen5 x16), so
     * getLocalNetCountByBw ({@code src/graph/topo.cc}) adds 48 + 48 = 96 &lt; 225: 2 NICs; a remote peer then gets
     * max(2, 1) = 2 channels ({@code ncclTopoGetNchannels}), the fewest over all peers, so 2 per peer. A DGX H100 GPU
     * sits behind a PCIe switch, with no link to a CPU: 0. The kernels with 2 channels per peer and no FIFO: round r on
     * channels base(r) and base(r) + 16, 2 batches per 8 rounds; the test before work k is 16 x (2 ceil(k / 8) + 2) +
     * 48 x (k + 1) &lt;= 4064: k = 76 gives 352 + 3696 = 4048, k = 77 gives 352 + 3744 = 4096: rounds 0-76 (63 node
     * peers, 13 remote) and 77-127 (51 remote).
     */
    @Test
    void gb200GpusCountTwoLocalNicsAsNcclDoes() {
        Topology racks = ClusterLoader.load("bm.gpu.gb200.4x2");
        List<Gpu> ranks = new ArrayList<>(racks.gpus().subList(0, 64));
        ranks.addAll(racks.gpus().subList(72, 136));
        ChannelPlan plan = ChannelSearch.search(racks, ranks, NcclSettings.DEFAULTS, NcclVersion.V2_27_3);
        assertEquals(2, plan.nNodes(), plan.toString());
        assertEquals(2, plan.localNetsPerGpu());
        assertEquals(2, P2pPeerChannels.perPeer(plan, PathType.NVL, NcclVersion.V2_27_3));
        Topology dgx = ClusterLoader.load("dgx-h100x2");
        assertEquals(0, ChannelSearch.search(dgx, dgx.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_27_3)
                .localNetsPerGpu());
        assertEquals(List.of(new Kernel(63, 13, 8), new Kernel(0, 51, 8)), P2pKernelSplit.kernels(2, 64, 32, 2, 2, 0));
    }

    /**
     * ncclP2pChannelBaseForRound on 2 nodes of 64: round 70 is node delta 1, local delta 6: 1 x ceil(64 / 8) + 0 = 8;
     * round 127: 8 + 63 / 8 = 15. ncclP2pChannelForPart(32, base 5, part 1): 1 reversed over 5 bits is 16, so 21;
     * part 3: 24, so 29.
     */
    @Test
    void channelBaseAndPartFollowNccl() {
        assertEquals(8, P2pKernelSplit.base(70, 2, 64));
        assertEquals(15, P2pKernelSplit.base(127, 2, 64));
        assertEquals(21, P2pKernelSplit.channelForPart(32, 5, 5, 1));
        assertEquals(29, P2pKernelSplit.channelForPart(32, 5, 5, 3));
    }

    /**
     * 2 nodes x 2 ranks, 4 p2p channels, 2 per peer, each send in 2 parts, one kernel (the 2x2 H20 AllToAll of
     * D-info-alltoall-2x2xH20-tencent-vm-roce-bond-nccl2.26-issue-nccltests321.txt, NCCL 2.26.5: "4 p2p channels, 2
     * p2p channels per peer", line 57). base(r) = (r / 2) x ceil(2 / 8) + (r mod 2) / 8: rounds 0-1 base 0, rounds
     * 2-3 base 1; part 1 reversed over 2 bits is 2. So the node peer (round 1) sits on channels 0 and 2 and both remote
     * peers (rounds 2, 3) on channels 1 and 3, as the file's INFO lines print them (the node peer "Channel 00/1" and
     * "02/1" via P2P/CUMEM, lines 68 and 70; the remote ones "Channel 01/1" and "03/1" via NET, lines 64-85): 2 parts
     * on the fullest channel. At 4 GiB a part is 4 GiB / 4 peers / 2 parts = 512 MiB, so that channel moves 1 GiB:
     * 1073741824 B / 20.7 GB/s (perChannelCapSimple, Hopper) = 51871.6 us, above a network time of 48000 us.
     */
    @Test
    void remotePeersOfOneNodeShareTheirChannels() {
        List<Kernel> k = P2pKernelSplit.kernels(2, 2, 4, 2, 2, 1L << 20);
        assertEquals(List.of(new Kernel(1, 2, 2)), k);
        assertEquals(51871.6, P2pKernelSplit.bandwidthUs(k, 1000, 48000, 512 * MIB, 20.7), 0.1);
    }

    /**
     * Kernels run one after the other. Parts of 16 MiB at 20.7 GB/s take 16777216 / 20700 = 810.50 us; kernels of 4,
     * 4 and 1 parts: 9 x 810.50 = 7294.5 us when the channels bind. With 20000 us on NVLink for the whole call (63
     * peers), the kernels' shares are 20000 x 30/63 = 9523.8, x 31/63 = 9841.3 and x 2/63 = 634.9 (below its one
     * part, 810.5): 20175.6 us.
     */
    @Test
    void kernelsAddUp() {
        List<Kernel> k = List.of(new Kernel(30, 0, 4), new Kernel(31, 0, 4), new Kernel(2, 0, 1));
        assertEquals(7294.5, P2pKernelSplit.bandwidthUs(k, 1000, 0, 16 * MIB, 20.7), 0.1);
        assertEquals(20175.6, P2pKernelSplit.bandwidthUs(k, 20000, 0, 16 * MIB, 20.7), 0.1);
    }

    /**
     * The model: 64 GPUs of one GB200 rack, AllToAll of 4 GiB under NCCL 2.27.3. Without the FIFO the three kernels
     * hold 4 + 4 + 1 = 9 parts on their fullest channels, with the default FIFO 6 + 2 = 8 (tests above), so the
     * setting costs one part at one channel's rate: 16 MiB / 20.7 GB/s = 810.5 us (perChannelCapSimple on
     * Blackwell, PerformanceParameters), the same latency on both. NCCL 2.30.7's scheduler is not modelled: no change.
     */
    @Test
    void noWorkFifoCostsOnePartOnOneRack() {
        Prediction none = allToAll(NcclVersion.V2_27_3, "0");
        Prediction fifo = allToAll(NcclVersion.V2_27_3, null);
        assertEquals(810.5, none.timeUs() - fifo.timeUs(), 1.0, none + " / " + fifo);
        assertTrue(none.bottleneck().contains("in 3 kernels"), none.bottleneck());
        assertEquals(allToAll(NcclVersion.V2_30_7, null).timeUs(), allToAll(NcclVersion.V2_30_7, "0").timeUs(), 1e-9);
    }

    private static Prediction allToAll(NcclVersion v, String fifoBytes) {
        Topology t = ClusterLoader.load("gb200-nvl72");
        NcclSettings s = fifoBytes == null ? NcclSettings.DEFAULTS
                : NcclSettings.parse(Map.of("NCCL_WORK_FIFO_BYTES", fifoBytes));
        return new NcclPredictor(v, PerformanceParameters.DEFAULTS).predict(new PredictionRequest(t,
                t.gpus().subList(0, 64), Collective.ALL_TO_ALL, 4L << 30, DataType.FLOAT, RedOp.SUM, s));
    }
}
