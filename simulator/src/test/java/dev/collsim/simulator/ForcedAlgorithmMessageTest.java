package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL_ALGO naming an algorithm the cluster cannot run: the error says what these ranks can run, not only what NCCL
 * has (it used to list NVLS among "allowed algorithms" right after NVLS failed).
 *
 * <p>By hand from NCCL 2.30.7 {@code src/graph/tuning.cc ncclTopoTuneModel}: with CollNet off (the default) it
 * disables CollNetDirect, CollNetChain and NVLS when nNodes &gt; 1, and NVLSTree only on one node; 2 DGX H100 (NVSwitch,
 * NVLS support) are 2 nodes, so without NCCL_ALGO a 64 MiB AllReduce can run Tree, Ring and NVLSTree (NCCL's
 * algorithm order), and NCCL_ALGO=NVLS leaves nothing.
 */
class ForcedAlgorithmMessageTest {

    @Test
    void nvlsAcrossNodesNamesWhatTheRanksCanRun() {
        Topology t = new ClusterSpec("dgx-h100x2", "", Catalog.hostType("dgx-h100").orElseThrow(), 2,
                FabricSpec.of(FabricKind.RAIL_OPTIMIZED)).build();
        InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> new NcclPredictor().predict(
                new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, 64L << 20, DataType.FLOAT, null,
                        NcclSettings.parse(Map.of("NCCL_ALGO", "NVLS")))));
        assertTrue(e.getMessage().contains("NCCL would fail the same way. Without NCCL_ALGO/NCCL_PROTO these ranks"
                + " can run: Tree, Ring, NVLSTree;"), e.getMessage());
    }
}
