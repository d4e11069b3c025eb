package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An LL step over NVLink on one A100 host costs {@link NvlinkLlHop#AMPERE_HOP_US} = 1.13 us, not NCCL's 0.6, while
 * the links' data time beyond the channels' own does not hide it. Expected values by hand from NCCL 2.30.7
 * {@code src/graph/tuning.cc} (Ring LL
 * baseLat 6.6 us, Tree LL 6.8 us, hwLat[NVLINK][Ring|Tree][LL] 0.6 us, 2 (nRanks - 1) steps for an AllReduce), collsim's
 * {@code launchOverheadUs} 1.5 us, one GPU per process (collsim's default launch, whose 4.4 us host time is below
 * the kernel).
 */
class NvlinkLlHopTest {

    private static final long KIB = 1L << 10;

    private static double predictUs(String cluster, Collective func, long bytes, String algo) throws Exception {
        Topology t = ClusterLoader.load(cluster);
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), func, bytes, DataType.FLOAT,
                RedOp.SUM, NcclSettings.parse(Map.of("NCCL_ALGO", algo, "NCCL_PROTO", "LL")))).timeUs();
    }

    /**
     * 8 A100s, Ring LL AllReduce of 1 KiB: 1.5 + 6.6 + 14 x 1.13 + 1024 / (1000 x 12 x 8 / 14) = 24.07 us (the data
     * of its one channel at collsim's Ampere LL cap, 12 GB/s bus bandwidth, 0.15 us, adds to the steps). Measured: 24.43 / 23.63 us out of place / in place, one process per GPU
     * (A-allreduce-1x8xA100-80GB-sxm-thanos-g8-vs-mpirun-sweep.txt, the 1024-byte row of run 2); NCCL's 0.6 gave
     * 16.5.
     */
    @Test
    void eightA100sTakeTheMeasuredStep() throws Exception {
        assertEquals(24.07, predictUs("dgx-a100", Collective.ALL_REDUCE, KIB, "Ring"), 24.07 * 0.002);
    }

    /**
     * The one-host Tree chain has the same steps: 1.5 + 6.8 + 14 x 1.13 + 1024 / (1000 x 12 x 0.5) = 24.29 us at 1 KiB
     * (the chain's bus-to-algorithm ratio 1/2; NCCL's own: 1.5 + 6.8 + 14 x 0.6 = 16.7).
     */
    @Test
    void theTreeChainTakesItToo() throws Exception {
        assertEquals(24.29, predictUs("dgx-a100", Collective.ALL_REDUCE, KIB, "Tree"), 24.29 * 0.002);
    }

    /**
     * 64 KiB runs 2 channels (NCCL 2.30.7 {@code src/enqueue.cc}: 65536 < 3 x 512 x 64), each step of each channel
     * 4 KiB (65536 / (8 ranks x 2 channels)). At collsim's Ampere LL cap of 12 GB/s bus bandwidth a channel the data takes
     * 65536 / (1000 x 2 x 12 x 8 / 14) = 4.78 us, and NCCL's Ring LL bound on the links (llMaxBw 87.7 GB/s bus) is
     * faster, so the channels bind: their data does not hide the added steps (the per-step CTA barriers of {@code
     * src/device/prims_ll.h waitSend} and {@code postRecv}), 1.5 + 6.6 + 14 x 1.13 + 4.78 = 28.70 us. Measured 31.82 /
     * 30.24 us out of place / in place (thanos run 2, line 90); hiding them gave 24.9 (-21.7 %), the step then
     * taken as 1.2 us.
     */
    @Test
    void aChannelsOwnDataDoesNotHideTheAddedSteps() throws Exception {
        assertEquals(28.70, predictUs("dgx-a100", Collective.ALL_REDUCE, 64 * KIB, "Ring"), 28.70 * 0.005);
    }

    /**
     * 512 KiB runs 16 channels, again 4 KiB a step and channel, so 4.78 us at the channels' cap; on the links NCCL's
     * bound gives 524288 / (1000 x 87.7 x 8 / 14) = 10.46 us, under the 7.42 + 4.78 us of the channels' steps, so the
     * channels' chain still sets the time: 28.70 us plus collsim's pipeline fill (under 0.3 us). Measured 28.11 /
     * 26.79 us (thanos run 2, line 93).
     */
    @Test
    void theLinksHideOnlyTheirDataBeyondTheChannels() throws Exception {
        assertEquals(28.70, predictUs("dgx-a100", Collective.ALL_REDUCE, 512 * KIB, "Ring"), 28.70 * 0.01);
    }

    /**
     * At 1 MiB the data (NCCL's Ring LL bound on one Ampere node, llMaxBw 87.7 GB/s bus: 1048576 / (1000 x 87.7 x
     * 8 / 14) = 20.92 us) exceeds the channels' own (24 channels at 12 GB/s: 6.37 us) by more than the 7.42 us added,
     * so nothing is added: 1.5 + 15.0 + 20.92 = 37.42 us plus
     * collsim's small pipeline fill, against 45.8 had the steps been added. Measured 37.89 / 38.57 us (thanos run 2,
     * 1048576-byte row).
     */
    @Test
    void longDataHidesTheAddedSteps() throws Exception {
        double us = predictUs("dgx-a100", Collective.ALL_REDUCE, 1024 * KIB, "Ring");
        assertEquals(37.42, us, 37.42 * 0.015);
    }

    /**
     * Hopper keeps NCCL's step: 8 H100s at 1 KiB, 1.5 + 6.6 + 14 x 0.6 = 16.5 us plus about 0.1 us of data.
     * Measured 16.94 / 16.97 us (A-allreduce-1x8xH100-dgx-nvidia-dgxc-benchmarking-nccl-recipe.txt, 1024-byte row).
     */
    @Test
    void hopperKeepsNcclsStep() throws Exception {
        assertEquals(16.6, predictUs("dgx-h100", Collective.ALL_REDUCE, KIB, "Ring"), 16.6 * 0.01);
    }

    /** The time never falls as the size grows, through the sizes where the data starts to hide the added steps. */
    @Test
    void neverFasterAsSizeGrows() throws Exception {
        double previous = 0;
        for (long bytes = 8; bytes <= 4096 * KIB; bytes *= 2) {
            double us = predictUs("dgx-a100", Collective.ALL_REDUCE, bytes, "Ring");
            assertTrue(us >= previous - 1e-9, bytes + " B: " + us + " us after " + previous);
            previous = us;
        }
    }
}
