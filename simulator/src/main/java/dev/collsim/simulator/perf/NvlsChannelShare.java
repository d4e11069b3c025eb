package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.simulator.tuning.GpuGeneration;

/**
 * The data rate of NCCL's NVLS and NVLSTree kernels on Blackwell when a GB200 NVL72 clique runs 32 NVLS channels of
 * 32 heads, as a share of its rate at 24 channels: collsim's factor on NCCL's NVLS/NVLSTree bandwidth (applied to the
 * time only; NCCL's choice of algorithm is left as NCCL makes it).
 *
 * <p>What NCCL's source fixes: the NVLS channel count on sm100 ({@code channel.NvlsTuning#defaultChannels}). NCCL
 * 2.25-2.26 run 32 ({@code NVLS_NCHANNELS_SM100}, v2.26.2-1 {@code src/transport/nvls.cc} lines 145, 176); from
 * 2.27.3 one NVLink domain (one host, or one MNNVL clique) runs 24 ({@code NVLS_NCHANNELS_SM100_NVL}, v2.27.3-1
 * {@code src/transport/nvls.cc} lines 149, 179-193: "Use a reduced number of channels for single node/MNNVL domain
 * on Blackwell"; the 2.27.3 release notes list it under NVLS improvements) and a communicator over several domains
 * keeps 32. So every NVLSTree call between GB200 racks runs 32 NVLS channels under 2.25-2.28, one rack's NVLS since
 * 2.27 runs 24, and NCCL's own model gives both the same rate (its NVLS/NVLSTree bandwidth counts the NVLS graph's
 * heads, not the runtime channels: 2.27.3 {@code src/graph/tuning.cc} line 275). The heads: 32 on a clique of 64 or
 * 72 GPUs ({@code NCCL_MAX_NVLS_ARITY}), 8 on an 8-GPU host. The load measured here is NCCL's own
 * {@code concurrentOps} = channels x heads ({@code src/enqueue.cc calcCollChunking}, NVLS and NVLSTree branches): the
 * (channel, head) pieces whose multimem operations run at once.
 *
 * <p>What the measurements show, AllReduce busbw at its largest size over collsim's prediction at factor 1 (the
 * four plateaus of {@code nvlsBwScale} in {@link PerformanceParameters}, at 8 GiB): 1.026 (8x B200, NCCL 2.27.1,
 * 830 GB/s, NVIDIA/nccl#1807; 24 x 8 = 192 ops), 1.045 (8x B300, NCCL 2.30.4, 845, NVIDIA/nccl#2140; 192), 1.009
 * (64 GB200 GPUs of one NVL72, NCCL 2.27.3, 891.62 against 883.84,
 * A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt line 33; 24 x 32 = 768), mean 1.0267; and 0.944
 * (72 GB200 GPUs of one NVL72, NCCL 2.26.2, 834.57 against 884.19, coreweave/nccl-tests#43; 32 x 32 = 1024). The
 * share at 1024 is 0.944 / 1.0267 = 0.919; leaving each of the other three out of the mean in turn gives
 * 0.912-0.928. Held out of it, the two-rack NVLSTree runs (1024 ops) measure 0.916 (OCI, 32 hosts over 2 racks,
 * NCCL 2.27.3, 799.79 against 872.81, same file line 41) and 0.908 (CoreWeave, 2 racks of 72, NCCL 2.26.2, 793.06
 * against 873.28 at 8 GiB; 0.915 at 16 GiB, coreweave/nccl-tests README "2 Racks"): the share predicts both within
 * 1 %. So what the OCI file loses from one rack (line 33, 24 channels) to two (line 41) is the channel count NCCL
 * picks, not the network: the CoreWeave rack at 32 channels runs at its two-rack rate (per added 4 GiB 420.9 GB/s
 * algbw in one rack, 428.5 over two). Two 8-GPU hosts at 32 channels (256 ops: 2 x 8 B200, NCCL 2.26.2,
 * A-allreduce-2x8xB200-lambda-1cc-ib-dstack-nccl2.26.txt) keep within 3 % of the model at factor 1 (696.06 against
 * 716.6 at 2 GiB, line 45), so the share is not the channel count alone. Why more concurrent multimem pieces move
 * fewer bytes is not in NCCL's source (not measured); up to 768 ops the factor is 1 (measured), from 1024
 * {@link #WIDE_SHARE}, interpolated in between (a collsim assumption: no run has a load there). Hopper (16 NVLS
 * channels in every release) and other generations: 1, no measurement. Stateless.
 */
final class NvlsChannelShare {

    /** concurrentOps measured at full rate: 24 channels x 32 heads (the OCI rack, NCCL 2.27.3). */
    static final int FULL_RATE_OPS = 24 * 32;

    /** concurrentOps of the runs the share is measured on: 32 channels x 32 heads. */
    static final int WIDE_OPS = 32 * 32;

    /** The rate at 1024 concurrent pieces over the rate at 768 (measured, see the class comment): 0.944 / 1.0267. */
    static final double WIDE_SHARE = 0.919;

    private NvlsChannelShare() {
    }

    /**
     * @param g        the communicator's GPU generation (NCCL's index of its smallest compute capability)
     * @param a        the algorithm
     * @param channels the NVLS channels the call runs
     * @param heads    the NVLS heads (the NVLS graph's channels)
     * @return the factor on NCCL's NVLS/NVLSTree bandwidth: 1 but on Blackwell NVLS or NVLSTree above 768
     *         concurrent pieces (channels x heads), {@link #WIDE_SHARE} from 1024
     */
    static double factor(GpuGeneration g, Algorithm a, int channels, int heads) {
        int ops = channels * heads;
        if (g != GpuGeneration.BLACKWELL || (a != Algorithm.NVLS && a != Algorithm.NVLS_TREE)
                || ops <= FULL_RATE_OPS) {
            return 1;
        }
        double over = Math.min(1.0, (ops - FULL_RATE_OPS) / (double) (WIDE_OPS - FULL_RATE_OPS));
        return 1 - (1 - WIDE_SHARE) * over;
    }
}
