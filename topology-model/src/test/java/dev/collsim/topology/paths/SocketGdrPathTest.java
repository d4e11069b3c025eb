package dev.collsim.topology.paths;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import org.junit.jupiter.api.Test;

/**
 * NCCL's socket transport offers host memory only ({@code ptrSupport = NCCL_PTR_HOST}, NCCL 2.28.9 {@code
 * src/transport/net_socket.cc}), so NCCL marks its NICs without GPU Direct RDMA ({@code src/graph/topo.cc}: gdr =
 * ptrSupport & NCCL_PTR_CUDA) and routes every GPU-NIC path that would use it through the CPU ({@code
 * src/graph/paths.cc}). On a DGX H100 GPU0 and NIC0 share a PCIe switch: PXB over InfiniBand, PHB over sockets.
 */
class SocketGdrPathTest {

    @Test
    void socketNicsHaveNoGpuDirectRdma() {
        Topology ib = ClusterLoader.load("dgx-h100x2");
        assertEquals(PathType.PXB, PathFinder.of(ib).path("h0/gpu0", "h0/nic0").type());
        Topology sock = ib.withNetworkClass(NetworkClass.SOCKET);
        assertEquals(PathType.PHB, PathFinder.of(sock).path("h0/gpu0", "h0/nic0").type());
        assertEquals(PathType.PHB, PathFinder.of(sock).path("h0/nic0", "h0/gpu0").type());
        Topology template = sock.hostTemplate().orElseThrow();
        assertEquals(NetworkClass.SOCKET, template.networkClass());
        assertEquals(PathType.PHB, PathFinder.of(template).path("h0/gpu0", "h0/nic0").type());
    }
}
