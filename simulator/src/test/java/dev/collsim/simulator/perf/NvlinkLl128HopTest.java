package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * A Ring LL128 step over NVLink on one Hopper host costs {@link NvlinkLl128Hop#HOPPER_STEP_US} = 1.0 us in
 * collsim's time, not NCCL's 1.9. Expected values by hand from NCCL 2.30.7 {@code src/graph/tuning.cc} (Ring LL128
 * baseLat 14.0 us, hwLat[NVLINK][Ring][LL128] 1.9 us; 2 (nRanks - 1) steps for an AllReduce, nRanks - 1 for an
 * AllGather), collsim's {@code launchOverheadUs} 1.5 us and its LL128 per-channel caps (Hopper 36.7, Ampere 7.0 GB/s
 * bus bandwidth), one GPU per process, 1 KiB on NCCL's one channel (its data well under 1 us).
 */
class NvlinkLl128HopTest {

    private static final long KIB = 1L << 10;

    private static double predictUs(String cluster, Collective func, long bytes) throws Exception {
        Topology t = ClusterLoader.load(cluster);
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), func, bytes, DataType.FLOAT,
                RedOp.SUM, NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "LL128")))).timeUs();
    }

    /**
     * 8 H100s, AllReduce of 1 KiB: 1.5 + 14.0 + 14 x 1.0 + 1024 / (1000 x 36.7 x 8 / 14) = 29.55 us (NCCL's own
     * 14 x 1.9 steps gave 42.15). The 8x H100 Ring file's LL128 sizes (Together AI, NCCL_ALGO=RING, line 27) sit
     * 12-14 us under NCCL's steps: 53.09 us measured at 4 MiB.
     */
    @Test
    void eightH100sTakeTheMeasuredStep() throws Exception {
        assertEquals(29.55, predictUs("dgx-h100", Collective.ALL_REDUCE, KIB), 29.55 * 0.002);
    }

    /** An AllGather has half the steps: 1.5 + 14.0 + 7 x 1.0 + 1024 / (1000 x 36.7 x 8 / 7) = 22.52 us. */
    @Test
    void anAllGatherSavesItsSevenSteps() throws Exception {
        assertEquals(22.52, predictUs("dgx-h100", Collective.ALL_GATHER, KIB), 22.52 * 0.002);
    }

    /**
     * A100 keeps NCCL's step (not measured there): 1.5 + 14.0 + 14 x 1.9 + 1024 / (1000 x 7.0 x 8 / 14) = 42.36 us.
     */
    @Test
    void ampereKeepsNcclsStep() throws Exception {
        assertEquals(42.36, predictUs("dgx-a100", Collective.ALL_REDUCE, KIB), 42.36 * 0.002);
    }
}
