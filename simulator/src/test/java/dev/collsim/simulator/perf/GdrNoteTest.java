package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The header note for GPUDirect RDMA settings says what collsim models, and the claims hold: on 2 DGX H100 with
 * NCCL_NET_GDR_LEVEL=LOC each PCIe switch's 2 GPUs and 2 NICs share its one x16 uplink to the CPU (48 GB/s each way in
 * NCCL's model) for both directions, so Ring's network side halves (NCCL's search: 8 x 24 instead of 8 x 48 GB/s);
 * NVLSTree's time does not change (not modelled yet, as the note says).
 */
class GdrNoteTest {

    private static final NcclPredictor P = new NcclPredictor(NcclVersion.DEFAULT, PerformanceParameters.DEFAULTS);

    private static double busBw(Topology t, NcclSettings s) {
        return P.predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, 1L << 30, DataType.FLOAT,
                RedOp.SUM, s)).busBw();
    }

    @Test
    void noteOnlyWithASettingOnSeveralNodesAndItsClaimsHold() {
        Topology two = ClusterLoader.load("dgx-h100x2");
        NcclSettings loc = NcclSettings.parse(Map.of("NCCL_NET_GDR_LEVEL", "LOC"));
        String note = NetworkNotes.of(two, loc).orElseThrow();
        assertTrue(note.contains("Tree and NVLSTree times"), note);
        assertTrue(NetworkNotes.of(two, NcclSettings.DEFAULTS).isEmpty());
        Topology one = ClusterLoader.load("dgx-h100");
        assertTrue(NetworkNotes.of(one, loc).isEmpty());
        NcclSettings ring = NcclSettings.parse(Map.of("NCCL_ALGO", "Ring"));
        NcclSettings ringLoc = NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_NET_GDR_LEVEL", "LOC"));
        assertTrue(busBw(two, ringLoc) < 0.6 * busBw(two, ring), busBw(two, ringLoc) + " vs " + busBw(two, ring));
        NcclSettings nvlsTree = NcclSettings.parse(Map.of("NCCL_ALGO", "NVLSTree"));
        NcclSettings nvlsTreeLoc = NcclSettings.parse(Map.of("NCCL_ALGO", "NVLSTree", "NCCL_NET_GDR_LEVEL", "LOC"));
        assertEquals(busBw(two, nvlsTree), busBw(two, nvlsTreeLoc), 1e-9, "the note says NVLSTree does not follow");
    }
}
