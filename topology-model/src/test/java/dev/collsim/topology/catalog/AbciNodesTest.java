package dev.collsim.topology.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ABCI compute nodes against their block diagrams (aistabci/abci-docs {@code en/docs/img/compute-node-v-diagram.png}
 * and {@code compute-node-a-diagram.png}) and the names their data files use.
 */
class AbciNodesTest {

    private static Topology one(String name) {
        return Catalog.standalone(Catalog.hostType(name).orElseThrow(), 1);
    }

    /**
     * Node (V): every GPU pair is a direct NVLink pair (the diagram's "NVLink2 x2" on all 6 pairs, so NCCL's NVL), and
     * each GPU reaches the NIC of its socket through the CPU (the IB EDR hangs off the CPU, the GPUs off a switch
     * below it: NCCL's PHB), the other socket's NIC across UPI (SYS).
     */
    @Test
    void nodeVIsFullyConnectedAndItsNicsHangOffTheCpus() {
        Topology t = one("abci-node-v");
        HostPaths hp = PathFinder.of(t).host(0);
        List<Gpu> gpus = t.gpusOf(0);
        assertEquals(4, gpus.size());
        for (Gpu a : gpus) {
            for (Gpu b : gpus) {
                if (a != b) {
                    assertEquals(PathType.NVL, hp.path(a, b).type(), a.id() + " -> " + b.id());
                }
            }
        }
        List<Nic> nics = t.devices(Nic.class);
        assertEquals(2, nics.size());
        for (Gpu g : gpus) {
            for (Nic n : nics) {
                PathType want = g.index() / 2 == nics.indexOf(n) ? PathType.PHB : PathType.SYS;
                assertEquals(want, hp.path(g, n).type(), g.id() + " -> " + n.name());
            }
        }
    }

    /** Node (A): one HDR NIC per PLX switch, shared by that switch's 2 GPUs (NCCL's PIX), 4 in all. */
    @Test
    void nodeAHasOneNicPerGpuPair() {
        Topology t = one("abci-node-a");
        HostPaths hp = PathFinder.of(t).host(0);
        List<Nic> nics = t.devices(Nic.class);
        assertEquals(4, nics.size());
        nics.forEach(n -> assertEquals(200, n.speed().gbits(), 1e-9));
        for (Gpu g : t.gpusOf(0)) {
            assertEquals(PathType.PIX, hp.path(g, nics.get(g.index() / 2)).type(), g.id());
        }
    }

    /** The data files' hardware lines name the nodes as the ABCI system overview does. */
    @Test
    void recognisedByTheirNames() {
        assertEquals("abci-node-v", Catalog.recognise("ABCI Compute Node (V) (FUJITSU PRIMERGY CX2570 M4): 4x NVIDIA"
                + " V100").orElseThrow().name());
        assertEquals("abci-node-a", Catalog.recognise("ABCI Compute Node (A): 8x NVIDIA A100-SXM4-40GB per node")
                .orElseThrow().name());
        assertEquals("abci-node-v", Catalog.recognise("a FUJITSU PRIMERGY CX2570 M4 server").orElseThrow().name());
    }
}
