package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A physical invariant, no measured number: on the shipped default cluster (4 DGX H100 hosts, 32 ranks, NCCL's
 * defaults) the predicted time of an AllReduce never falls as the size doubles, from 8 B to 16 GiB, whichever
 * algorithm and protocol NCCL picks at each size (a larger call is never done sooner than a smaller one: NCCL could
 * run it as the smaller call's choice on more bytes).
 */
class DefaultClusterMonotoneTest {

    @Test
    void allReduceTimeIsNonDecreasingInSize() throws Exception {
        Topology t = ClusterLoader.load(ClusterLoader.DEFAULT);
        NcclPredictor predictor = new NcclPredictor();
        Prediction before = null;
        for (long bytes = 8; bytes <= 16L << 30; bytes *= 2) {
            Prediction p = predictor.predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, bytes,
                    DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of())));
            if (before != null) {
                assertTrue(p.timeUs() >= before.timeUs(), bytes + " B: " + p + " after " + before);
            }
            before = p;
        }
    }
}
