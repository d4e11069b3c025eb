package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.TuningConstants;
import org.junit.jupiter.api.Test;

/**
 * The planner's cells, worked out by hand from {@code src/enqueue.cc scheduleCollTasksToPlan} (v2.28.9-1 lines
 * 529-620: MinTrafficPerChannel 16 KiB, per-channel share max(16 KiB, traffic / nc); v2.29.2-1 lines 576-660: 32 KiB,
 * share traffic / nc rounded up to 16; cell = MinTrafficPerChannel / trafficPerByte rounded up to 16, trafficPerByte
 * AllReduce 2, AllGather nRanks, LL x 4).
 */
class CollTaskCellsTest {

    @Test
    void minTrafficPerChannelDoublesIn229() {
        assertEquals(16384, CollTaskCells.minTrafficPerChannel(28));
        assertEquals(32768, CollTaskCells.minTrafficPerChannel(29));
        assertEquals(32768, CollTaskCells.minTrafficPerChannel(30));
    }

    /**
     * 16 KiB AllReduce LL128 on 2 channels (the FarmShare 4x L40S run 7, line 313): 2.29 cell 32768 / 2 = 16384 B,
     * one cell, one channel; 2.28 cell 8192 B, 2 cells, share max(16384, 2 x 16384 / 2) = 16384 = one cell's traffic
     * (8192 x 2), so one cell a channel: 2 channels.
     */
    @Test
    void smallLl128AllReduceRunsOnOneChannelFrom229() {
        assertEquals(1, CollTaskCells.channels(Collective.ALL_REDUCE, Protocol.LL128, 16384, 4, 2, 29));
        assertEquals(2, CollTaskCells.channels(Collective.ALL_REDUCE, Protocol.LL128, 16384, 4, 2, 28));
    }

    /**
     * 4 MiB AllReduce LL128 on 24 channels, 2.28's cells: 4194304 / 8192 = 512 cells; traffic 8388608 / 24 = 349525
     * B a channel, over 16384 per cell: 22 cells a channel (21.33 rounded up), so 24 channels (23.27 rounded up) of
     * which the busiest holds 22.
     */
    @Test
    void fourMibOfCellsFillEveryOneOfTwentyFourChannels() {
        assertEquals(24, CollTaskCells.channels(Collective.ALL_REDUCE, Protocol.LL128, 4L << 20, 8, 24, 28));
    }

    /**
     * AllGather of 4 ranks, 64 KiB in all (16 KiB a rank), LL128, 8 channels, 2.30: cell 32768 / 4 = 8192 B, 2 cells;
     * share 65536 / 8 = 8192 B of traffic against 32768 a cell: one cell a channel, 2 channels. LL on the same call:
     * cell 32768 / 16 = 2048 B, 8 cells; share 4 x 65536 / 8 = 32768 = one cell's traffic (2048 x 16): 8 channels.
     */
    @Test
    void allGatherCountsPerRankBytesAndLlTraffic() {
        assertEquals(2, CollTaskCells.channels(Collective.ALL_GATHER, Protocol.LL128, 65536, 4, 8, 30));
        assertEquals(8, CollTaskCells.channels(Collective.ALL_GATHER, Protocol.LL, 65536, 4, 8, 30));
    }

    /** A 2.29 run keeps 2.28.9's tables but its own release for the planner; 2.28 runs keep the entry as it is. */
    @Test
    void release229KeepsItsMinorOnTheModel2289() {
        TuningConstants base = TuningConstants.of(NcclVersion.V2_28_9);
        assertSame(base, base.forRun(28));
        assertEquals(29, base.forRun(29).runMinor());
        assertEquals(28, base.forRun(29).rules().runMinor());
        assertEquals(30, TuningConstants.of(NcclVersion.V2_30_7).forRun(30).runMinor());
    }
}
