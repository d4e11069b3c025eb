package dev.collsim.topology.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The NCCL devices of EFA hosts under aws-ofi-nccl, worked from the plugin's source (aws/aws-ofi-nccl v1.9.2-aws and
 * v1.16.3): its platform table runs RDMA on p5, p5e and p5en and SENDRECV on p4d ({@code default_protocol}); under RDMA
 * one device per GPU holds the EFA devices of the GPU's PCIe switch ({@code nccl_ofi_topo_group}) at their summed
 * speed ({@code get_properties}: port speed x num_rails). The page figures: p5 32 cards of 100 Gb/s, p5en 16 of 200,
 * p4d 4 of 100 (one per GPU pair), OCI BM.GPU.H100.8 16 RoCE NICs of 200 Gb/s (no aws-ofi-nccl).
 */
class OfiRailGroupsTest {

    private static SystemEntry row(String name) {
        return Catalog.systems().stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
    }

    private static List<Nic> computeNics(String name) {
        Topology t = Catalog.standalone(Catalog.hostType(name).orElseThrow(), 1);
        return t.devices(Nic.class).stream().filter(n -> n.rail() >= 0).toList();
    }

    /** p5: 32 / 8 GPUs = 4 cards per GPU switch, one device of 4 x 100 = 400 Gb/s each: 8 devices. */
    @Test
    void p5GroupsFourRailsPerGpu() {
        assertEquals(4, OfiRailGroups.rails(row("p5.48xlarge"), 32 / 8));
        List<Nic> nics = computeNics("p5.48xlarge");
        assertEquals(8, nics.size());
        nics.forEach(n -> assertEquals(400.0, n.speed().gbits(), 1e-9, n.id()));
    }

    /** p5en: 16 / 8 = 2 cards of 200 Gb/s per GPU, one device of 400 Gb/s. */
    @Test
    void p5enGroupsTwoRails() {
        assertEquals(2, OfiRailGroups.rails(row("p5en.48xlarge"), 16 / 8));
        List<Nic> nics = computeNics("p5en.48xlarge");
        assertEquals(8, nics.size());
        nics.forEach(n -> assertEquals(400.0, n.speed().gbits(), 1e-9, n.id()));
    }

    /** p4d (A100, SENDRECV) keeps its 4 cards of 100 Gb/s; a RoCE host's NICs are NCCL's own, one device each. */
    @Test
    void sendRecvAndOtherNetworksKeepEveryNic() {
        assertEquals(1, OfiRailGroups.rails(row("p4d.24xlarge"), 1));
        assertEquals(4, computeNics("p4d.24xlarge").size());
        assertEquals(1, OfiRailGroups.rails(row("BM.GPU.H100.8"), 16 / 8));
        List<Nic> oci = computeNics("BM.GPU.H100.8");
        assertEquals(16, oci.size());
        oci.forEach(n -> assertEquals(200.0, n.speed().gbits(), 1e-9, n.id()));
    }
}
