package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fixed case a random sample of {@code PredictionPropertiesTest.busBwNeverExceedsThePhysicalBound} found: one
 * DGX-1 V100 (8 GPUs, hybrid cube mesh), Broadcast of 16 GiB, Ring/Simple on 12 channels. Each V100 SXM2 has 6
 * NVLink2 links of 25 GB/s per direction (NVIDIA Tesla V100 datasheet: 300 GB/s total over 6 links, both
 * directions), so a Broadcast's busbw (nccl-tests factor 1) is at most 6 x 25 = 150 GB/s; the one-host Ring/Simple
 * NVLink write factor (above NCCL's figure, {@code perf.RingFinalRecv}) once predicted 151.9.
 */
class PhysicalBoundCapTest {

    @Test
    void dgx1BroadcastStaysUnderSixNvlinks() {
        Topology t = Catalog.standalone(Catalog.hostType("dgx1-v100").orElseThrow(), 1);
        Prediction p = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.BROADCAST,
                16L << 30, DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of())));
        assertEquals(150.0, p.physicalBoundBusBw(), 1e-9);
        assertTrue(p.busBw() <= 150.0 * (1 + 1e-9), p.toString());
        assertTrue(p.busBw() > 0.9 * 150.0, "the cap does not undercut the link-bound rate: " + p);
    }
}
