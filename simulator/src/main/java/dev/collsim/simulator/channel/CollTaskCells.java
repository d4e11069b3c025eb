package dev.collsim.simulator.channel;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;

/**
 * How NCCL's planner spreads one collective over its channels in cells ({@code src/enqueue.cc
 * scheduleCollTasksToPlan}, the "not task->isCollnet" branch): the call's elements are cut into cells of
 * {@code MinTrafficPerChannel / trafficPerByte} bytes (rounded up to 16), and each channel takes whole cells up to
 * its share of the plan's traffic. A call of fewer cells than {@code topoGetAlgoInfo}'s channel count therefore runs
 * on fewer channels: where that count's per-channel threshold (LL128: 640 threads x 8 B = 5120 B) is below the cell,
 * LL128 calls from 5 KiB up to a cell per channel leave channels idle.
 *
 * <p>{@code MinTrafficPerChannel} is 16 KiB up to NCCL 2.28 ({@code v2.28.9-1 src/enqueue.cc} line 529) and 32 KiB
 * from 2.29 ({@code v2.29.2-1} line 576, the same at v2.29.7-1, v2.30.3-1, v2.30.7-1). {@code
 * ncclFuncTrafficPerByte}: AllReduce 2, AllGather and ReduceScatter nRanks, the others 1; LL counts 4 times its
 * bytes (the task's trafficBytes x 4 after the protocol is chosen, {@code v2.29.2-1 src/enqueue.cc} line 451, and
 * trafficPerByte x 4 in the split). The per-channel share is {@code max(MinTrafficPerChannel, traffic) / nc} (2.29:
 * rounded up to 16 B; 2.28: then at least MinTrafficPerChannel), nc being the call's channel count.
 */
public final class CollTaskCells {

    private CollTaskCells() {
    }

    /**
     * @param runMinor the run's NCCL 2 minor release
     * @return MinTrafficPerChannel, bytes: 16 KiB up to 2.28, 32 KiB from 2.29
     */
    public static long minTrafficPerChannel(int runMinor) {
        return runMinor >= 29 ? 32L << 10 : 16L << 10;
    }

    /**
     * @param func   collective
     * @param p      protocol
     * @param nRanks ranks
     * @return ncclFuncTrafficPerByte, x 4 for LL
     */
    static long trafficPerByte(Collective func, Protocol p, int nRanks) {
        long t = switch (func) {
            case ALL_REDUCE -> 2;
            case ALL_GATHER, REDUCE_SCATTER -> nRanks;
            default -> 1;
        };
        return p == Protocol.LL ? 4 * t : t;
    }

    /**
     * The channels one call's cells keep busy, as the planner hands them out: the first channel takes the cells of
     * one share, the next ones the same, the last the rest.
     *
     * @param func     collective
     * @param p        protocol
     * @param nBytes   bytes NCCL selects on (AllGather and ReduceScatter: the whole buffer, nRanks x the count)
     * @param nRanks   ranks
     * @param nc       the call's channel count ({@code topoGetAlgoInfo}), >= 1
     * @param runMinor the run's NCCL 2 minor release
     * @return the channels that hold cells, 1 to nc
     */
    public static int channels(Collective func, Protocol p, long nBytes, int nRanks, int nc, int runMinor) {
        long minTraffic = minTrafficPerChannel(runMinor);
        long tpb = trafficPerByte(func, p, nRanks);
        long countBytes = func == Collective.ALL_GATHER || func == Collective.REDUCE_SCATTER ? nBytes / nRanks : nBytes;
        long cellSize = roundUp16(ceilDiv(minTraffic, tpb));
        long cells = Math.max(1, ceilDiv(countBytes, cellSize));
        if (nc <= 1) {
            return 1;
        }
        long traffic = Math.max(minTraffic, countBytes * tpb);
        long perChannel = runMinor >= 29 ? roundUp16(traffic / nc) : Math.max(minTraffic, traffic / nc);
        long trafficPerCell = cellSize * tpb;
        long cellsPerChannel = Math.max(1, Math.min(cells, ceilDiv(perChannel, trafficPerCell)));
        return (int) Math.min(nc, ceilDiv(cells, cellsPerChannel));
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    private static long roundUp16(long v) {
        return ceilDiv(v, 16) * 16;
    }
}
