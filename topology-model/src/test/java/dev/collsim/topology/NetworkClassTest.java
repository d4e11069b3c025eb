package dev.collsim.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.collsim.topology.io.ClusterLoader;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Recognising the network transport in the texts the public data files carry (their {@code #@ interconnect}). */
class NetworkClassTest {

    /**
     * "NDR" given where a class is asked for (--network ndr, fabric.network: NDR) names InfiniBand's 400 Gb/s 4x port
     * (IBTA: 4 lanes of 100 Gb/s; ConnectX-7 datasheet): the refusal says so; a word that is no rate adds nothing.
     */
    @Test
    void aSpeedNameIsToldApartFromAClass() {
        assertNull(NetworkClass.parse("NDR"));
        assertEquals(NetworkClass.allowed() + "; 'NDR' is an InfiniBand port speed (400 Gb/s), not a network class:"
                + " the class is infiniband, the speed is the NIC speed", NetworkClass.allowed("NDR"));
        assertEquals(NetworkClass.allowed(), NetworkClass.allowed("ethernet"));
    }

    @Test
    void readsTheTransportsOfThePublicDataHeaders() {
        // A-allreduce-2x8xH100-gcp-a3mega-tcpxo.txt: TCPXO although the text also says "TCP"
        assertEquals(Optional.of(NetworkClass.TCPXO), NetworkClass.detect("NVLink4/NVSwitch intra-node; inter-node"
                + " GPUDirect-TCPXO (8x 200 Gbps NICs per node, FasTrak plugin) per repo context; MPI bootstrap over"
                + " TCP enp0s12"));
        // A-allgather-2x8xH100-gcp-a3high-tcpx-dstack.txt: GCP's other plugin, GPUDirect-TCPX
        assertEquals(Optional.of(NetworkClass.TCPX), NetworkClass.detect("NVLink4/NVSwitch intra-node;"
                + " GPUDirect-TCPX over 4x 200 Gbps data NICs per VM (speed not printed: GCP A3 High spec)"));
        // A-allreduce-2x8xH100-aws-p5-eks-efa-nccl2.18-partial.txt
        assertEquals(Optional.of(NetworkClass.EFA), NetworkClass.detect("NVLink4/NVSwitch; EFA 32x100 Gb/s per node"));
        // A-allreduce-2x8xA100-40GB-oci-oke-sriov-roce-nccl2.26.txt
        assertEquals(Optional.of(NetworkClass.ROCE), NetworkClass.detect("NVLink3/NVSwitch intra-node; RoCEv2 cluster"
                + " network 16x100 Gb/s per node via SR-IOV VFs in Kubernetes"));
        // A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt: Google's gIB plugin runs RDMA over RoCE
        assertEquals(Optional.of(NetworkClass.ROCE), NetworkClass.detect("8x 400Gb RoCE (Google gIB NCCL plugin)"));
        // A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt
        assertEquals(Optional.of(NetworkClass.INFINIBAND), NetworkClass.detect("8x CX-7 400G IB"));
        // A-allreduce-4x8xV100-32GB-tcp-100GbE-problem-issue-nccl450.txt
        assertEquals(Optional.of(NetworkClass.SOCKET), NetworkClass.detect("100GbE TCP sockets"));
    }

    @Test
    void slingshotIsItsOwnClassEvenThroughAwsOfiNccl() {
        // A-allreduce-2x1xGH200-cscs-alps-slingshot-nccl2.30.txt: libfabric + aws-ofi-nccl like EFA, but not EFA
        assertEquals(Optional.of(NetworkClass.SLINGSHOT), NetworkClass.detect("HPE Slingshot-11 (CXI, libfabric +"
                + " aws-ofi-nccl plugin), 200 Gb/s per NIC"));
        // A-allreduce-2x2xH100NVL-slingshot200-amd-epyc9534-nccl2.30-issue-nccl2441.txt
        assertEquals(Optional.of(NetworkClass.SLINGSHOT), NetworkClass.detect("inter-node HPE Slingshot-200"
                + " (Cassini-2 NICs)"));
        // NCCL's log names the plugin's provider: "NET/OFI Selected provider is cxi"
        assertEquals(Optional.of(NetworkClass.SLINGSHOT), NetworkClass.detect("AWS Libfabric cxi"));
        assertEquals(Optional.of(NetworkClass.EFA), NetworkClass.detect("AWS EFA via aws-ofi-nccl"));
        assertEquals(NetworkClass.SLINGSHOT, NetworkClass.parse("Slingshot"));
    }

    @Test
    void aRunOnTheVerbsNetworkIsNotGivenTheSocketsOfAnotherRun() {
        // A-allreduce-2x1-2x2xL40S-openshift-sriov-tcp-vs-roce-nccl2.27.txt describes both runs in one line
        String both = "run1: NCCL_IB_DISABLE=1 -> TCP sockets over SR-IOV net1; run2: IB verbs/RoCE enabled";
        assertEquals(Optional.of(NetworkClass.SOCKET), NetworkClass.detect(both));
        assertEquals(Optional.of(NetworkClass.ROCE), NetworkClass.detect(both, false));
    }

    @Test
    void parsesTheYamlSpellingsAndNamesTheAllowedOnes() {
        assertSame(NetworkClass.TCPXO, NetworkClass.parse(" TCPXO "));
        // GCP's A3 High runs the GPUDirect-TCPX plugin, A3 Mega TCPXO: two plugins, two classes (the enum's javadoc)
        assertSame(NetworkClass.TCPX, NetworkClass.parse("tcpx"));
        assertNull(NetworkClass.parse("tcpxx"));
        assertNull(NetworkClass.parse("ethernet"));
        assertEquals("infiniband, roce, efa, tcpx, tcpxo, socket, slingshot", NetworkClass.allowed());
    }

    @Test
    void aTopologyKeepsItsGraphWithAnotherNetworkClass() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x2");
        assertSame(NetworkClass.INFINIBAND, t.networkClass());
        Topology r = t.withNetworkClass(NetworkClass.ROCE);
        assertSame(NetworkClass.ROCE, r.networkClass());
        assertSame(t.graph(), r.graph());
        assertSame(t, t.withNetworkClass(NetworkClass.INFINIBAND));
    }
}
