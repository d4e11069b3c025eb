package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.simulator.tuning.GpuGeneration;

/**
 * The data rate of NCCL's NVLS and NVLSTree kernels on Blackwell at 32 NVLS channels, as a share of their rate at
 * 24: collsim's factor on NCCL's NVLS/NVLSTree bandwidth (applied to the time only; NCCL's choice of algorithm is
 * left as NCCL makes it).
 *
 * <p>What NCCL's source fixes: the NVLS channel count on sm100 ({@code channel.NvlsTuning#defaultChannels}). NCCL
 * 2.25-2.26 run 32 ({@code NVLS_NCHANNELS_SM100}, v2.26.2-1 {@code src/transport/nvls.cc} lines 145, 176); from
 * 2.27.3 one NVLink domain (one host, or one MNNVL clique) runs 24 ({@code NVLS_NCHANNELS_SM100_NVL}, v2.27.3-1
 * {@code src/transport/nvls.cc} lines 149, 179-193: "Use a reduced number of channels for single node/MNNVL domain
 * on Blackwell") and a communicator over several domains keeps 32; the 2.27.3 release notes list the change under
 * NVLS improvements. So every NVLSTree call between GB200 racks runs 32 NVLS channels under 2.25-2.28, the racks'
 * one-domain NVLS since 2.27 runs 24, and NCCL's own model gives both the same rate (its NVLS/NVLSTree bandwidth
 * counts the NVLS graph's heads, not the runtime channels: 2.27.3 {@code src/graph/tuning.cc} line 275).
 *
 * <p>What the measurements show, AllReduce busbw at 8 GiB over collsim's prediction at factor 1 (the four plateaus
 * of {@code nvlsBwScale} in {@link PerformanceParameters}): the one-domain runs at 24 channels 1.026 (8x B200, NCCL
 * 2.27.1, 830 GB/s, NVIDIA/nccl#1807), 1.045 (8x B300, NCCL 2.30.4, 845, NVIDIA/nccl#2140) and 1.009 (64 GB200 GPUs
 * of one NVL72, NCCL 2.27.3, 891.62 against 883.84, A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt
 * line 33), mean 1.0267; the one-domain run at 32 channels 0.944 (72 GB200 GPUs of one NVL72, NCCL 2.26.2, 834.57
 * against 884.19, coreweave/nccl-tests#43). The share is 0.944 / 1.0267 = 0.919; leaving each 24-channel run out
 * of the mean in turn gives 0.912-0.928. Held out of it, the two-rack NVLSTree runs (32 channels) measure 0.916
 * (OCI, 32 hosts over 2 racks, NCCL 2.27.3, 799.79 against 872.81, same file line 41) and 0.908 (CoreWeave, 2 racks
 * of 72, NCCL 2.26.2, 793.06 against 873.28 at 8 GiB; 0.915 at 16 GiB, coreweave/nccl-tests README "2 Racks"): the
 * share predicts both within 1 %. So what the OCI file loses from one rack (line 33, 24 channels) to two (line 41)
 * is the channel count NCCL picks, not the network: the CoreWeave rack at 32 channels runs at its two-rack rate
 * (per added 4 GiB 420.9 GB/s algbw in one rack, 428.5 over two). Why 32 channels move fewer bytes than 24 on
 * Blackwell is not in NCCL's source (more CTAs issue multimem operations at once through the same switch ports;
 * not measured); between 24 and 32 channels, which NCCL's defaults never give, the factor is interpolated (a
 * collsim assumption); below 24 the per-channel cap ({@code perChannelCapNvls}) governs as before. Hopper (16 NVLS
 * channels in every release) and other generations: 1, no measurement. Stateless.
 */
final class NvlsChannelShare {

    /** NCCL's one-domain sm100 NVLS channels from 2.27.3 ({@code NVLS_NCHANNELS_SM100_NVL}). */
    static final int BASE_CHANNELS = 24;

    /** NCCL's sm100 NVLS channels over several domains, and on every sm100 in 2.25-2.26 ({@code NVLS_NCHANNELS_SM100}). */
    static final int WIDE_CHANNELS = 32;

    /** The rate at 32 channels over the rate at 24 (measured, see the class comment): 0.944 / 1.0267. */
    static final double WIDE_SHARE = 0.919;

    private NvlsChannelShare() {
    }

    /**
     * @param g        the communicator's GPU generation (NCCL's index of its smallest compute capability)
     * @param a        the algorithm
     * @param channels the NVLS channels the call runs
     * @return the factor on NCCL's NVLS/NVLSTree bandwidth: 1 but on Blackwell NVLS or NVLSTree above 24 channels,
     *         {@link #WIDE_SHARE} from 32
     */
    static double factor(GpuGeneration g, Algorithm a, int channels) {
        if (g != GpuGeneration.BLACKWELL || (a != Algorithm.NVLS && a != Algorithm.NVLS_TREE)
                || channels <= BASE_CHANNELS) {
            return 1;
        }
        double over = Math.min(1.0, (channels - BASE_CHANNELS) / (double) (WIDE_CHANNELS - BASE_CHANNELS));
        return 1 - (1 - WIDE_SHARE) * over;
    }
}
