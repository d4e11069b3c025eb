package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Blackwell's NVLS/NVLSTree rate at NCCL's 32 NVLS channels against its 24 (NvlsChannelShare). */
class NvlsChannelShareTest {

    /**
     * The share by hand from the measured plateaus (AllReduce busbw at 8 GiB, measured over collsim at factor 1):
     * full rate 830 / 808.7 (8x B200, NCCL 2.27.1, NVIDIA/nccl#1807), 845 / 808.7 (8x B300, NCCL 2.30.4,
     * NVIDIA/nccl#2140), 891.62 / 883.84 (64 GB200 GPUs, NCCL 2.27.3, OCI file line 33: 24 channels x 32 heads);
     * 834.57 / 884.19 at 32 x 32 (72 GB200 GPUs, NCCL 2.26.2, coreweave/nccl-tests#43). Interpolated in between;
     * 8-GPU hosts at 32 channels (256 pieces) and Hopper keep 1.
     */
    @Test
    void shareIsTheWidePlateauOverTheFullRateOnes() {
        double base = (830 / 808.7 + 845 / 808.7 + 891.62 / 883.84) / 3;
        double wide = 834.57 / 884.19;
        GpuGeneration bw = GpuGeneration.BLACKWELL;
        assertEquals(wide / base, NvlsChannelShare.factor(bw, Algorithm.NVLS_TREE, 32, 32), 1e-3);
        assertEquals(wide / base, NvlsChannelShare.factor(bw, Algorithm.NVLS, 32, 32), 1e-3);
        assertEquals(1.0, NvlsChannelShare.factor(bw, Algorithm.NVLS, 24, 32));
        assertEquals(1.0, NvlsChannelShare.factor(bw, Algorithm.NVLS_TREE, 32, 8));
        assertEquals((1 + 0.919) / 2, NvlsChannelShare.factor(bw, Algorithm.NVLS, 28, 32), 1e-9);
        assertEquals(1.0, NvlsChannelShare.factor(GpuGeneration.HOPPER, Algorithm.NVLS_TREE, 32, 32));
        assertEquals(1.0, NvlsChannelShare.factor(bw, Algorithm.RING, 32, 32));
    }

    /**
     * Held out of the share: OCI GB200 NVL72 under NCCL 2.27.3
     * (A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt): 32 hosts over 2 racks (64 + 64 ranks,
     * NVLSTree on 32 NVLS channels) take 21313 us at 8 GiB (line 41; collsim without the share 19529.5, -8.4 %);
     * the same racks' 64 GPUs of one clique (NVLS on 24 channels) 18967 us (line 33), which the share leaves alone.
     */
    @Test
    void ociTwoRacksAtThirtyTwoChannelsOneRackAtTwentyFour() {
        Topology racks = ClusterLoader.load("bm.gpu.gb200.4x2");
        List<Gpu> one = racks.gpus().subList(0, 64);
        List<Gpu> two = new ArrayList<>(one);
        two.addAll(racks.gpus().subList(72, 136));
        NcclPredictor nccl227 = new NcclPredictor(NcclVersion.V2_27_3, PerformanceParameters.DEFAULTS);
        Prediction p2 = allReduce8GiB(nccl227, racks, two);
        assertEquals(Algorithm.NVLS_TREE, p2.algorithm());
        assertWithin(21313.0, p2.timeUs(), 0.03);
        Prediction p1 = allReduce8GiB(nccl227, racks, one);
        assertEquals(Algorithm.NVLS, p1.algorithm());
        assertWithin(18967.0, p1.timeUs(), 0.03);
    }

    /**
     * Held out of the share, and not one of collsim's datasets: CoreWeave, 2 racks of 72 GB200 GPUs over
     * InfiniBand, NCCL 2.26.2 (32 NVLS channels), AllReduce 21493 us at 8 GiB and 42067 us at 16 GiB
     * (coreweave/nccl-tests README, "2 Racks"; collsim without the share 19536 and 38508, -9.1 and -8.5 %).
     */
    @Test
    void coreweaveTwoRacksOfSeventyTwo() {
        Topology racks = ClusterLoader.load("gb200-nvl72x2");
        NcclPredictor nccl226 = new NcclPredictor(NcclVersion.V2_25_1, PerformanceParameters.DEFAULTS);
        assertWithin(21493.0, allReduce(nccl226, racks, racks.gpus(), 8L << 30).timeUs(), 0.03);
        assertWithin(42067.0, allReduce(nccl226, racks, racks.gpus(), 16L << 30).timeUs(), 0.03);
    }

    private static Prediction allReduce8GiB(NcclPredictor p, Topology t, List<Gpu> ranks) {
        return allReduce(p, t, ranks, 8L << 30);
    }

    private static Prediction allReduce(NcclPredictor p, Topology t, List<Gpu> ranks, long bytes) {
        return p.predict(new PredictionRequest(t, ranks, Collective.ALL_REDUCE, bytes, DataType.FLOAT, RedOp.SUM,
                NcclSettings.DEFAULTS));
    }

    private static void assertWithin(double measured, double predicted, double tolerance) {
        assertTrue(Math.abs(predicted - measured) / measured < tolerance, predicted + " us against " + measured);
    }
}
