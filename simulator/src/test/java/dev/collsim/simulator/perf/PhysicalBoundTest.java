package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The physical bound on the shipped default cluster, worked by hand. */
class PhysicalBoundTest {

    /**
     * configs/default.yaml: 4 DGX H100 hosts, 8 compute NICs of 400 Gb/s (50 GB/s) cabled to the rail fabric and 4
     * storage NICs that are not cabled. Only cabled NICs carry collective traffic: N = 8 x 50 = 400 GB/s per host.
     * AllReduce over n = 32 ranks on m = 4 hosts: each host sends 2(m-1)/m S, so busBw <= N (m/(m-1)) ((n-1)/n)
     * = 400 x 4/3 x 31/32 = 516.67 GB/s. The NVLS intra limit is 450 x 2 x 31/32 = 871.9, larger, so the NIC limit
     * is the bound. (Counting the 4 uncabled storage NICs too would give 600 x 4/3 x 31/32 = 775.)
     */
    @Test
    void uncabledStorageNicsDoNotRaiseTheBound() throws Exception {
        Topology t = ClusterLoader.load("default");
        Prediction p = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE,
                1L << 30, DataType.FLOAT, RedOp.SUM, Map.of()));
        assertEquals(400.0 * 4 / 3 * 31 / 32, p.physicalBoundBusBw(), 0.01);
    }

    /**
     * SendRecv between GPU 0 of host 0 and GPU 0 of host 1 of the default cluster: the rank's traffic leaves
     * through one 400 Gb/s NIC (50 GB/s), so 64 MiB takes at least 67108864 B / 50e9 B/s = 1342 us and busbw
     * (factor 1) can't exceed 50 GB/s; it must be a finite, positive time (it was NaN with no intra-host peer).
     */
    @Test
    void sendRecvAcrossHostsWithOneRankPerHostIsLimitedByOneNic() throws Exception {
        Topology t = ClusterLoader.load("default");
        List<Gpu> ranks = List.of(t.gpusOf(0).get(0), t.gpusOf(1).get(0));
        Prediction p = new NcclPredictor().predict(new PredictionRequest(t, ranks, Collective.SEND_RECV,
                64L << 20, DataType.FLOAT, RedOp.SUM, Map.of()));
        org.junit.jupiter.api.Assertions.assertTrue(p.timeUs() >= 67108864 / 50e3, "time " + p.timeUs());
        org.junit.jupiter.api.Assertions.assertTrue(p.busBw() > 0 && p.busBw() <= 50.0, "busbw " + p.busBw());
    }
}
