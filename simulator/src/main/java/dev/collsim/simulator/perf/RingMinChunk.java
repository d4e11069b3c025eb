package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.ReleaseRules;

/**
 * The Ring AllReduce LL128 kernel of NCCL 2.19 and older rounds each channel's share of a step up to
 * {@code minChunkSize}: {@code realChunkSize = min(chunkSize, DIVUP(size, nChannels * nranks * minChunkSize) *
 * minChunkSize)}, the data of channel {@code bid} for chunk {@code c} at {@code (c * nChannels + bid) *
 * realChunkSize} (v2.8.4-1 {@code src/collectives/device/all_reduce.h}, v2.18.5-1 and v2.19.4-1 {@code runRing});
 * {@code minChunkSize} is {@code nthreads * calcBytePerGrain} for LL (8 bytes a thread) and half of it for LL128
 * (60 bytes a thread: 8 words x 15/16 x 8 bytes, {@code NCCL_LL128_SHMEM_ELEMS_PER_THREAD}, {@code
 * NCCL_LL128_DATAELEMS} / {@code NCCL_LL128_LINEELEMS}). Each ring step holds a different chunk on each rank, so
 * channel 0, whose every chunk is whole, moves {@code realChunkSize} per step where the even share is {@code size /
 * (nChannels * nranks)}. In 2.20-2.21 the host cuts the call into channel shares rounded to {@code alignCount}
 * and the ranks' last chunk up to it too ({@code src/enqueue.cc computeCollLastChunkInfo}, v2.20.5-1 and v2.21.5-1;
 * LL128 480 bytes a warp): another rounding, not modelled (their runs take 1 here). From v2.22.3-1 the last chunk is
 * {@code alignUp(divUp(remCount, nranks), 16 bytes)} ({@code ncclCollCbdPart}, {@code runRing}): even, as collsim's
 * 2.28.9 model has it ({@link #ringRoundsChunksToMinChunk}).
 *
 * <p>Worked example, 4 ranks, 24 channels, LL128 at 640 threads, 1 MiB of float: the even share is 1048576 / 96 =
 * 10922.7 bytes, {@code minChunkSize} 640 x 60 / 2 = 19200 bytes, so every step of channel 0 carries 19200: x1.758.
 * Applied to the call's data term like a kernel rate ({@link PerformanceModel}); an assumption: a channel's rate is
 * its CTA's, not raised by the other channels' idle time (on one node NCCL's per-channel LL128 cap x its channels
 * equals the link figure). A call larger than one loop ({@code nChannels * nranks * chunkSize}) is taken as even.
 *
 * <p>LL only: its kernel rounds the same way (to 8 bytes a thread, 4096 bytes at 512 threads), but its rate is not a
 * channel's: NCCL bounds Ring/LL by {@code llMaxBw} for all channels together (87.7 GB/s on one Ampere node against
 * 24 x 12 of its channel caps, NCCL 2.30.7 {@code src/graph/tuning.cc}), so a busier channel runs faster while the
 * others idle. Measured: the Azure ND A100 v4 run of NCCL 2.18 (A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-
 * table.txt, 8 ranks, Ring/LL) takes 47.69 us at 512 KiB and 50.66 at 1 MiB, where x1.5 of the LL data term at
 * 1 MiB would predict 64.1.
 *
 * <p>Stateless.
 */
public final class RingMinChunk {

    /** First NCCL 2 minor release whose host cuts a collective into contiguous channel shares (v2.20.5-1). */
    static final int FIRST_HOST_CHANNEL_SHARES_MINOR = 20;

    /**
     * LL128 bytes of data a thread moves per grain, 60: NCCL_LL128_SHMEM_ELEMS_PER_THREAD 8 words x 15/16 x 8 bytes
     * ({@code ProtoLL128::calcBytePerGrain}).
     */
    static final int LL128_GRAIN_BYTES = NcclDevice.NCCL_LL128_SHMEM_ELEMS_PER_THREAD
            * NcclDevice.LL128_LINE_DATA_BYTES / (NcclDevice.NCCL_LL128_LINESIZE / Long.BYTES);

    private RingMinChunk() {
    }

    /**
     * @param func     the collective
     * @param a        NCCL's algorithm
     * @param p        NCCL's protocol
     * @param nBytes   the call's bytes (AllReduce: the buffer)
     * @param channels channels of the call (NCCL's per-call count)
     * @param nRanks   ranks
     * @param threads  threads of the call's CTA for the protocol (NCCL_NTHREADS, NCCL_LL128_NTHREADS)
     * @param s        NCCL settings (buffer sizes: the protocol's chunk)
     * @param rules    the run's release rules
     * @return the factor on the call's data time, at least 1; 1 unless a Ring AllReduce LL128 call of 2.19 or older
     *         smaller than one loop
     */
    public static double factor(Collective func, Algorithm a, Protocol p, long nBytes, int channels, int nRanks,
            int threads, NcclSettings s, ReleaseRules rules) {
        if (func != Collective.ALL_REDUCE || a != Algorithm.RING || p != Protocol.LL128 || nBytes <= 0
                || channels < 1 || nRanks < 2 || !ringRoundsChunksToMinChunk(rules)) {
            return 1.0;
        }
        long minChunk = (long) threads * LL128_GRAIN_BYTES / 2;
        long chunk = CalcCollChunking.chunk(a, p, func, s);
        long slots = (long) channels * nRanks;
        if (minChunk <= 0 || nBytes > slots * chunk) {
            return 1.0;
        }
        long rounded = Math.min(chunk, ceilDiv(nBytes, slots * minChunk) * minChunk);
        return Math.max(1.0, (double) rounded * slots / nBytes);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    /**
     * Whether the run's Ring AllReduce LL and LL128 kernel rounds each channel's share of a step up to its
     * {@code minChunkSize} ({@code realChunkSize = min(chunkSize, DIVUP(size, nChannels * nranks * minChunkSize) *
     * minChunkSize)}, v2.8.4-1 {@code src/collectives/device/all_reduce.h}, v2.19.4-1 {@code src/device/all_reduce.h
     * runRing}); from v2.20.5-1 the host cuts the call into channel shares ({@code src/enqueue.cc}) and the kernel
     * takes its chunk count from the work ({@code args->chunkCount}), rounded otherwise in 2.20-2.21 (not modelled)
     * and to 16 bytes from v2.22.3-1.
     *
     * @param rules the run's release rules
     * @return true for a run of NCCL 2.19 or older
     */
    static boolean ringRoundsChunksToMinChunk(ReleaseRules rules) {
        return rules.runMinor() < FIRST_HOST_CHANNEL_SHARES_MINOR;
    }
}
