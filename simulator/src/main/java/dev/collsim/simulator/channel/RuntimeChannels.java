package dev.collsim.simulator.channel;

import static dev.collsim.nccl.NcclDevice.MAXCHANNELS;
import static dev.collsim.nccl.NcclDevice.NCCL_LL_MAX_NTHREADS;
import static dev.collsim.nccl.NcclDevice.NCCL_MAX_NTHREADS;
import static dev.collsim.nccl.NcclDevice.NCCL_SIMPLE_MAX_NTHREADS;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.GraphSet;

/**
 * NCCL's runtime channel counts (fact sheet §3.4, NCCL 2.30.7 {@code src/graph/connect.cc ncclTopoPostset},
 * {@code src/init.cc}) and the per-call channel and thread reduction ({@code topoGetAlgoInfo},
 * {@code src/enqueue.cc}; fact sheet §3.1).
 */
public final class RuntimeChannels {

    private RuntimeChannels() {
    }

    /**
     * comm.nChannels: min(tree, ring graph channels) x 2, capped at 64; doubled again on sm90+ with several nodes,
     * ring bwIntra > 45 and fewer than 16 channels; then capped by NCCL_MAX_CTAS and raised to NCCL_MIN_CTAS.
     *
     * @return the runtime channel count, >= 1
     */
    public static int collectiveChannels(GraphSet graphs, int minSm, int nNodes, NcclSettings s) {
        int n = Math.min(graphs.ring().nChannels(), graphs.tree().nChannels()) * 2;
        n = Math.min(MAXCHANNELS, Math.max(1, n));
        if (minSm >= 90 && nNodes > 1 && graphs.ring().bwIntra() > 45 && n < 16) {
            n = Math.min(MAXCHANNELS, n * 2);
        }
        n = Math.min(n, s.maxChannels());
        return Math.max(n, s.minChannels());
    }

    /**
     * Runtime NVLS channels of NVLS and NVLSTree: NCCL_NVLS_NCHANNELS, else NCCL's tuned count ({@link NvlsTuning}:
     * 16 on sm90, 24 (one node) or 32 (several) on sm100+, on several sm100 nodes by NIC bandwidth and ranks per node
     * in NCCL 2.30.7), then clamped by the CTA limits only: NCCL 2.30.7 {@code src/transport/nvls.cc ncclNvlsTuning}
     * takes {@code max(config.minCTAs, min(config.maxCTAs, nChannels))}; NCCL_MAX_NCHANNELS does not apply.
     *
     * @param tuning the communicator's NVLS tuning
     * @param s      settings
     * @return channels
     */
    public static int nvlsChannels(NvlsTuning tuning, NcclSettings s) {
        return Math.max(s.minCtas(), Math.min(s.maxCtas(), s.nvlsNChannels().orElse(tuning.channels())));
    }

    /**
     * Point-to-point channels: pow2Up(clamp(comm.nChannels, NCCL_MIN_P2P_NCHANNELS, NCCL_MAX_P2P_NCHANNELS)).
     *
     * @return channels
     */
    public static int p2pChannels(int runtimeChannels, NcclSettings s) {
        int n = Math.max(s.minP2pChannels(), Math.min(runtimeChannels, s.maxP2pChannels()));
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }

    /**
     * Default maxThreads (NCCL 2.30.7 {@code tuning.cc}): Ring/Simple 512 (256 when ring bwIntra x nChannels <=
     * 12 GB/s, PCI_BW), LL 512, LL128 640 (NCCL_LL128_NTHREADS), NVLS/CollNet 640; NCCL_NTHREADS overrides
     * LL and Simple.
     *
     * @return threads per block
     */
    public static int maxThreads(Algorithm a, Protocol p, GraphSet graphs, NcclSettings s) {
        if (a == Algorithm.NVLS || a == Algorithm.NVLS_TREE || a == Algorithm.COLLNET_DIRECT
                || a == Algorithm.COLLNET_CHAIN) {
            return NCCL_MAX_NTHREADS;
        }
        if (p == Protocol.LL128) {
            return s.ll128NThreads();
        }
        if (s.nThreads().isPresent()) {
            return s.nThreads().get();
        }
        if (a == Algorithm.RING && p == Protocol.SIMPLE && graphs.ring().totalIntra() <= 12.0) {
            return 256;
        }
        return p == Protocol.LL ? NCCL_LL_MAX_NTHREADS : NCCL_SIMPLE_MAX_NTHREADS;
    }

    /**
     * Per-channel byte threshold ({@code threadThresholds}, {@code comm.h}): LL 8 (x nRanks for Ring), LL128 8,
     * Simple 64, CollNet 512, each per thread.
     *
     * @return bytes per thread
     */
    public static long threadThreshold(Algorithm a, Protocol p, int nRanks) {
        if (a == Algorithm.COLLNET_DIRECT || a == Algorithm.COLLNET_CHAIN) {
            return 512;
        }
        return switch (p) {
            case LL -> a == Algorithm.RING ? 8L * nRanks : 8;
            case LL128 -> 8;
            case SIMPLE -> 64;
        };
    }

    /**
     * Whether a call of this algorithm runs on comm.nvlsChannels alone: NVLSTree, and NVLS on one node. NCCL 2.30.7
     * {@code src/enqueue.cc scheduleCollTasksToPlan} (lines 583-584) caps those tasks at comm.nvlsChannels, which
     * {@code src/transport/nvls.cc} (lines 234-238) clamps to [minCTAs, maxCTAs] after NCCL_NVLS_NCHANNELS only, so
     * NCCL_MAX_NCHANNELS and NCCL_MIN_NCHANNELS change nothing for them; multi-node NVLS is also capped by
     * comm.nChannels ({@link #perCall}).
     *
     * @param a      algorithm
     * @param nNodes NCCL nodes of the communicator
     * @return true when NCCL_MAX_NCHANNELS / NCCL_MIN_NCHANNELS do not reach the call's channels
     */
    public static boolean nvlsChannelsOnly(Algorithm a, int nNodes) {
        return a == Algorithm.NVLS_TREE || a == Algorithm.NVLS && nNodes == 1;
    }

    /**
     * The most channels a tuner plugin's count gives a call: NCCL 2.30.7 {@code src/enqueue.cc
     * scheduleCollTasksToPlan} caps the tasks' channels per kind: comm.nChannels, comm.nvlsChannels for NVLSTree and
     * one-node NVLS, min(comm.nChannels, comm.nvlsChannels) for multi-node NVLS (a CollNet task there). A plugin
     * cannot raise them; NCCL_MIN_NCHANNELS can raise comm.nChannels.
     *
     * @param a    algorithm
     * @param plan the channel plan
     * @return channels, >= 1
     */
    public static int tunerCap(Algorithm a, ChannelPlan plan) {
        if (a == Algorithm.NVLS && plan.nNodes() > 1) {
            return Math.max(1, Math.min(plan.nvlsChannels(), plan.runtimeChannels()));
        }
        return Math.max(1, a == Algorithm.NVLS || a == Algorithm.NVLS_TREE ? plan.nvlsChannels()
                : plan.runtimeChannels());
    }

    /**
     * Channels NCCL uses for one call: NVLS/NVLSTree use the NVLS channels (multi-node NVLS at most
     * comm.nChannels); CollNetDirect steps through 16, 8, 4, 2, 1; PAT keeps comm.nChannels (its maxThreads is
     * never set, so nothing is reduced); the others drop channels while
     * nBytes < nc x nt x threshold: nc = min(comm.nChannels, max(1, floor(nBytes / (nt x threshold)))).
     *
     * @param a       algorithm
     * @param p       protocol
     * @param nBytes  bytes NCCL selects on
     * @param plan    the channel plan
     * @param s       settings
     * @return channels used by the call, >= 1
     */
    public static int perCall(Algorithm a, Protocol p, long nBytes, ChannelPlan plan, NcclSettings s) {
        if (a == Algorithm.NVLS || a == Algorithm.NVLS_TREE) {
            return a == Algorithm.NVLS_TREE ? plan.nvlsChannels() : plan.nNodes() > 1
                    ? Math.min(plan.nvlsChannels(), plan.runtimeChannels()) : plan.nvlsChannels();
        }
        int nc = plan.runtimeChannels();
        if (a == Algorithm.PAT) {
            // NCCL 2.30.7 never sets maxThreads[PAT] (src/graph/tuning.cc), so nt = 0 in topoGetAlgoInfo's
            // reduction loop (while nBytes < nc x nt x threshold) and PAT keeps comm.nChannels at every size.
            return nc;
        }
        long thr = threadThreshold(a, p, plan.nRanks());
        if (a == Algorithm.COLLNET_DIRECT) {
            for (int step : new int[] {16, 8, 4, 2, 1}) {
                if (nc >= step && nBytes >= (long) step * NCCL_MAX_NTHREADS * thr) {
                    return Math.min(nc, step);
                }
            }
            return 1;
        }
        int nt = maxThreads(a, p, plan.graphs(), s);
        long perChannel = (long) nt * thr;
        long fit = Math.max(1, nBytes / perChannel);
        return (int) Math.min(nc, fit);
    }
}
