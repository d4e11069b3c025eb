package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A user's 2x8 H200 all_reduce log whose NCCL INFO lines show RoCE ({@code NET/IB : Using [0]mlx5_0:1/RoCE}),
 * compared with {@code -c dgx-h200x2}: the catalog's DGX H200 hosts are joined by InfiniBand, and the given
 * cluster's class stands (as for NCCL_NET), but compare printed "network from the INFO log: ... class roce" and no
 * word that InfiniBand was modelled (1 KiB predicted 27.04 us instead of RoCE's 37.04). Now an assumption line says
 * which class was modelled and how to model the log's. Made-up rows; the INFO line's form is NCCL 2.23's
 * ({@code src/transport/net_ib.cc}, ncclIbInit).
 */
class GivenClusterNetworkTest {

    private static final String LINE = "the given cluster's network class, InfiniBand, although the NCCL INFO log shows"
            + " RoCE: the errors below are of that network; add --network roce to model the run's";

    private static Dataset log() throws Exception {
        StringBuilder sb = new StringBuilder("# nThread 1 nGpus 1 minBytes 1024 maxBytes 1048576 step: 4(factor)"
                + " warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
        for (int r = 0; r < 16; r++) {
            sb.append(String.format(Locale.ROOT, "#  Rank %2d Group  0 Pid %6d on %8s device  %d [0x%02x] NVIDIA"
                    + " H200%n", r, 1000 + r, r < 8 ? "node-01" : "node-02", r % 8, 0x18 + r % 8));
        }
        sb.append("node-01:1000:1000 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [RO]; OOB"
                + " eth0:10.0.0.1<0>\nnode-01:1000:1000 [0] NCCL INFO Using network IB\n");
        sb.append("#       size         count      type   redop    root     time   algbw   busbw #wrong     time"
                + "   algbw   busbw #wrong\n#        (B)    (elements)                               (us)  (GB/s)"
                + "  (GB/s)            (us)  (GB/s)  (GB/s)\n");
        sb.append("        1024           256     float     sum      -1    36.76    0.03    0.05      0    36.83"
                + "    0.03    0.05      0\n");
        sb.append("     1048576        262144     float     sum      -1    93.79   11.18   20.96      0    94.07"
                + "   11.15   20.90      0\n");
        sb.append("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 10.49\n#\n");
        return MeasurementReader.read("user.txt", sb.toString()).get(0);
    }

    private static List<String> assumed(Topology topo) throws Exception {
        Comparer comparer = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null);
        DatasetComparison c = comparer.compare(log(), Optional.of(new ClusterGuess(topo, topo.gpus(), "-c dgx-h200x2",
                List.of())));
        return c.cluster().assumptions();
    }

    @Test
    void aGivenInfinibandClusterSaysTheLogShowsRoce() throws Exception {
        Topology ib = ClusterLoader.hosts(Catalog.hostType("dgx-h200").orElseThrow(), 2).topology();
        List<String> a = assumed(ib);
        assertTrue(a.contains(LINE), a.toString());
    }

    @Test
    void aGivenRoceClusterNeedsNoLine() throws Exception {
        Topology roce = ClusterLoader.hosts(Catalog.hostType("dgx-h200").orElseThrow(), 2).topology()
                .withNetworkClass(NetworkClass.ROCE);
        List<String> a = assumed(roce);
        assertTrue(a.stream().noneMatch(x -> x.startsWith("the given cluster's network class")), a.toString());
    }
}
