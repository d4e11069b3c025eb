package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.RuntimeChannels;
import dev.collsim.simulator.env.NcclSettings;
import dev.collsim.simulator.tuning.AlgoChoice;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.simulator.tuning.NcclTuningModel;
import java.util.Locale;

/**
 * collsim's prediction of the real time of a collective NCCL covers, for a given (algorithm, protocol), starting
 * from NCCL's own terms and adding what NCCL's model ignores:
 *
 * <pre>
 *   channels  = channels NCCL uses for this call (runtime count after NCCL_MIN/MAX_CTAS, reduced per call, §3.1)
 *   busCap    = channels x perChannelCap[protocol][generation]                   (GB/s, bus bandwidth)
 *   algBw     = min(ncclAlgBw x bwEfficiency[protocol], busCap x ratio)          (ratio = NCCL's bus-to-alg ratio)
 *   fill      = pipelineFillChunks x min(chunk, nBytes / (channels x nRanks)) / (1000 x busBw per channel)
 *   time_us   = launchOverheadUs + latencyScale x ncclLatency + fill + nBytes / (1000 x algBw)
 * </pre>
 *
 * where ncclAlgBw and ncclLatency are NCCL's entries for the call (after the tree correction and the ring plateau
 * rule) and chunk is the protocol's chunk (§3.3: Simple buffSize/8 x 4 for Ring AllReduce/AllGather/
 * ReduceScatter, x1 otherwise; LL llBuffSize/16; LL128 ll128BuffSize/8 x 15/16; NVLS 128 KiB).
 * This class is stateless and thread-safe.
 */
public final class PerformanceModel {

    /** Default NVLS chunk, bytes (NCCL_NVLS_CHUNKSIZE, NCCL 2.30.7 {@code src/enqueue.cc}). */
    public static final long NVLS_CHUNK = 128 << 10;

    private PerformanceModel() {
    }

    /**
     * @param plan   the channel plan
     * @param s      NCCL settings
     * @param pp     performance parameters
     * @param func   collective (one NCCL tunes)
     * @param choice NCCL's entry for the (algorithm, protocol) at this size
     * @param nBytes bytes NCCL selects on (total buffer for AllGather/ReduceScatter)
     * @return the estimate
     */
    public static PerfEstimate estimate(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, Collective func,
            AlgoChoice choice, long nBytes) {
        Algorithm a = choice.algorithm();
        Protocol p = choice.protocol();
        GpuGeneration gen = GpuGeneration.of(plan.minSm());
        int channels = RuntimeChannels.perCall(a, p, nBytes, plan, s);
        double ratio = NcclTuningModel.busToAlgRatio(func, a, plan.nRanks());
        double linkAlgBw = choice.algBw() * pp.bwEfficiency(p);
        double capBus = channels * pp.perChannelCap(p, gen);
        double capAlgBw = capBus * ratio;
        double algBw = Math.min(linkAlgBw, capAlgBw);
        String bottleneck = capAlgBw < linkAlgBw
                ? String.format(Locale.ROOT, "per-channel throughput: %d channels x %.1f GB/s", channels,
                        pp.perChannelCap(p, gen))
                : String.format(Locale.ROOT, "links: %s graph %.1f GB/s busBw", a.ncclName(), linkAlgBw / ratio);
        double busPerChannel = algBw / ratio / channels;
        long slice = Math.max(1, nBytes / ((long) channels * plan.nRanks()));
        double fill = pp.pipelineFillChunks() * Math.min(chunk(a, p, func, s), slice) / (1000.0 * busPerChannel);
        double latency = pp.launchOverheadUs() + pp.latencyScale() * choice.latencyUs() + fill;
        double time = latency + nBytes / (1000.0 * algBw);
        if (latency > time / 2) {
            bottleneck = String.format(Locale.ROOT, "latency: %.1f us of %.1f us", latency, time);
        }
        return new PerfEstimate(time, channels, latency, algBw, bottleneck);
    }

    /**
     * The protocol chunk in bytes (fact sheet §3.3, NCCL 2.30.7 {@code src/enqueue.cc calcCollChunking},
     * {@code src/init.cc}).
     *
     * @return bytes
     */
    public static long chunk(Algorithm a, Protocol p, Collective func, NcclSettings s) {
        if (a == Algorithm.NVLS || a == Algorithm.NVLS_TREE) {
            return NVLS_CHUNK;
        }
        return switch (p) {
            case LL -> s.llBuffSize() / 8 / 2;
            case LL128 -> s.ll128BuffSize() / 8 * 15 / 16;
            case SIMPLE -> {
                long step = s.buffSize() / 8;
                boolean ringFour = a == Algorithm.RING && (func == Collective.ALL_REDUCE
                        || func == Collective.ALL_GATHER || func == Collective.REDUCE_SCATTER);
                yield ringFour ? step * 4 : step;
            }
        };
    }
}
