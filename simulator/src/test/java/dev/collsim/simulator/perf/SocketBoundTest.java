package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.Prediction;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bound column on NCCL's socket transport: the network part is at most what the socket streams move
 * ({@link SocketStreams#boundBusBw}) and what the GPU-NIC paths carry through host memory (the socket transport offers
 * host memory only, so NCCL gives no NIC GPU Direct RDMA: NCCL 2.28.9 {@code src/graph/topo.cc}, {@code
 * src/transport/net_socket.cc}). Stream rate 2.225 GB/s (NetClassDefaults), one stream per connection (NIC vendor
 * OTHER, NCCL_SOCKET_NTHREADS 0).
 */
class SocketBoundTest {

    private static Prediction allReduce(Topology t, Map<String, String> env) {
        return GdrNoteTest.allReduce(t, NcclSettings.parse(env));
    }

    /**
     * 2 DGX H100 over sockets, 16 ranks on 2 nodes. Streams per node at most: Ring 16 channels x 1 connection x 2.225
     * = 35.6 GB/s, busbw 35.6 (a ring node sends 2 x 15/16 S); Tree 16 x 1 x 2.225 = 35.6, busbw 35.6 x 2 x 15/16 =
     * 66.75; NVLSTree 16 NVLS channels x 8 heads x 2.225 = 284.8, busbw 534.0. Staged paths (GdrNoteTest): any
     * algorithm 472.62, Ring 252.06. So the bound is 472.62 (NVLSTree's streams 534.0 are above the staged paths'),
     * 35.6 with Ring alone, 66.75 with Tree alone.
     */
    @Test
    void dgxH100OverSocketsIsBoundByStreamsAndStagedPaths() {
        Topology sock = ClusterLoader.load("dgx-h100x2").withNetworkClass(NetworkClass.SOCKET);
        Prediction any = allReduce(sock, Map.of());
        assertEquals(472.62, any.physicalBoundBusBw(), 0.01);
        assertTrue(any.busBw() <= any.physicalBoundBusBw(), any.busBw() + "");
        assertEquals(35.6, allReduce(sock, Map.of("NCCL_ALGO", "Ring")).physicalBoundBusBw(), 0.01);
        assertEquals(66.75, allReduce(sock, Map.of("NCCL_ALGO", "Tree")).physicalBoundBusBw(), 0.01);
        // the same cluster over InfiniBand keeps the NICs' bound: 400 x 2 x 15/16
        assertEquals(750.0, allReduce(ClusterLoader.load("dgx-h100x2"), Map.of()).physicalBoundBusBw(), 0.01);
    }

    /**
     * 2 hosts of 8 L40S over sockets, 6 runtime channels (NCCL's search order goes on from 2 x 7 GB/s to the next
     * speed, 6 / 7 > .49, and keeps 3 x 6 = 18 over 2 x 7 = 14: src/graph/search.cc ncclTopoCompute,
     * ncclTopoCompareGraphs; doubled at runtime): Tree 6 x 1 x 2.225 = 13.35 GB/s per node, busbw 13.35 x 2 x 15/16 =
     * 25.03125 (Ring: 13.35); the prediction, which cannot beat the streams, stays under it.
     */
    @Test
    void pcieHostsOverSocketsAreBoundByTheirStreams() {
        Topology sock = ClusterLoader.load("pcie-8x-l40sx2").withNetworkClass(NetworkClass.SOCKET);
        Prediction any = allReduce(sock, Map.of());
        assertEquals(25.03125, any.physicalBoundBusBw(), 1e-6);
        assertTrue(any.busBw() <= any.physicalBoundBusBw() + 1e-9, any.busBw() + "");
        assertEquals(13.35, allReduce(sock, Map.of("NCCL_ALGO", "Ring")).physicalBoundBusBw(), 1e-6);
    }
}
