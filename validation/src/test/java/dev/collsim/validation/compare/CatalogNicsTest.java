package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import org.junit.jupiter.api.Test;

/** The compute NIC count a header states, applied to catalog hosts (real public files). */
class CatalogNicsTest {

    private static long nicsOfHost0(Topology t) {
        return t.devices(Nic.class).stream().filter(n -> n.host() == 0 && n.rail() >= 0).count();
    }

    @Test
    void fourNicH200HostsGetFourNics() throws Exception {
        // header line 3: "8x H200 SXM per server + 4x ConnectX-7 InfiniBand (one NIC per GPU pair)"; line 5:
        // "4x CX-7 InfiniBand per node (NDR 400G presumed)"; the catalog's dgx-h200 has 8 compute NICs
        Dataset d = Corpus.read("A-allreduce-2x8xH200-4nic-baremetal-vs-kvm-vm-issue-nccltests380.txt").get(0);
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        assertEquals("catalog:dgx-h200", g.source());
        assertEquals(4, nicsOfHost0(g.topology()));
        assertTrue(g.assumptions().stream().anyMatch(a -> a.contains("4 of the 8 NICs per host read from the header")),
                g.assumptions().toString());
    }

    @Test
    void sameCountAsTheCatalogChangesNothing() throws Exception {
        // header: "8x ConnectX-7 400Gb IB per node" on an 8-NIC HGX H100 host
        Dataset d = Corpus.read("A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt").get(0);
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        assertEquals(8, nicsOfHost0(g.topology()));
        assertTrue(g.assumptions().stream().noneMatch(a -> a.contains("read from the header (")
                || a.contains("NICs per host read")), g.assumptions().toString());
    }

    @Test
    void slingshotWithoutASpeedIsASlingshot11Nic() throws Exception {
        // HPE Slingshot NIC datasheet: Slingshot-11 (Cassini) 200 Gb/s
        // header line 5: "HPE Slingshot via libfabric + aws-ofi-nccl (host libraries bound into apptainer)", no speed
        Dataset d = Corpus.read("A-allreduce-int8-2x4xGH200-sigma2-olivia-slingshot-nccl2.30.txt").get(0);
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        assertTrue(g.assumptions().stream().anyMatch(a -> a.contains("NIC speed 200 Gb/s read from the header")),
                g.assumptions().toString());
    }

    /**
     * The GKE DraNet pods: NCCL in a pod sees the NICs its claim gives, not the node's 8. A3 Ultra AllGather (header
     * line 5 "the one NIC each pod is given", line 3 "1 GPU ... and 1 RDMA NIC"): 1 NIC per host; A4 B200 run 2 (line 5
     * "2 GPUs and 2 RDMA NICs"): 2 NICs per host; the A4 2x8 run (line 5 "8 RDMA interfaces per pod"): the catalog's 8.
     */
    @Test
    void aPodsNicsAreItsHostsNics() throws Exception {
        Dataset a3 = Corpus.read("A-allgather-2x1xH200-gke-a3ultra-dranet-1gpu-1nic-roce-gib-nccl2.25.txt").get(0);
        ClusterGuess g = ClusterGuesser.guess(a3).orElseThrow();
        assertEquals(1, nicsOfHost0(g.topology()));
        assertTrue(g.assumptions().stream().anyMatch(a -> a.contains("1 of the 8 NICs per host read from the header"
                + " (the NICs each pod is given)")), g.assumptions().toString());
        Dataset a4 = Corpus.read("A-allgather-1x2-2x1xB200-gke-a4-nvidia-dra-dranet-gib-nccl2.26.txt").get(1);
        assertEquals(2, nicsOfHost0(ClusterGuesser.guess(a4).orElseThrow().topology()));
        Dataset full = Corpus.read("A-allgather-2x8xB200-gcp-a4-gke-gib-cluster-toolkit.txt").get(0);
        assertEquals(8, nicsOfHost0(ClusterGuesser.guess(full).orElseThrow().topology()));
    }
}
