package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * Header texts of the public data files: NIC speeds are in bits ("400Gb/s", "200GbE", "100 Gbps"); a figure in bytes
 * is something else, e.g. the NVLink line of the Azure ND H100 v5 file ("900 GB/s per GPU"), which diagnose once read
 * as "network 1 x 900 Gb/s per host".
 */
class HeaderNicsTest {

    @Test
    void nicSpeedsInBits() {
        HeaderNics a = HeaderNics.parse("8x NDR 400Gb/s IB", 1).orElseThrow();
        assertEquals(8, a.count());
        assertEquals(400, a.gbits());
        HeaderNics b = HeaderNics.parse("16x100 Gb/s", 1).orElseThrow();
        assertEquals(16, b.count());
        assertEquals(100, b.gbits());
        assertEquals(200, HeaderNics.parse("ConnectX-7 200GbE", 1).orElseThrow().gbits());
        assertEquals(100, HeaderNics.parse("100 Gbps TCP", 1).orElseThrow().gbits());
    }

    /** Counts stated per GPU are multiplied by the GPUs per host; counts per node are taken as they stand. */
    @Test
    void countsPerGpuAndPerNode() {
        String perGpu = "NVLink4 intra-node; inter-node presumably NDR 400Gb IB, one NIC per GPU";
        assertEquals(2, HeaderNics.parse(perGpu, 5, 2).orElseThrow().count());
        assertEquals(8, HeaderNics.parse("400 Gb/s IB, a NIC per GPU", 5, 8).orElseThrow().count());
        assertTrue(HeaderNics.parse(perGpu, 5, 0).isEmpty(), "GPUs per host unknown: NIC count unknown");
        assertEquals(4, HeaderNics.parse("200 Gb/s RoCE, 4 NICs per node", 1, 8).orElseThrow().count());
        assertEquals(2, HeaderNics.parse("NDR 400G, two IB NICs per host", 1, 8).orElseThrow().count());
        // a count before the speed wins over the per-GPU note (the 2x8 H100 NVLS file's line)
        assertEquals(8, HeaderNics.parse("8x NDR 400Gb/s IB per node, one NIC per GPU", 1, 8).orElseThrow().count());
        assertEquals(1, HeaderNics.parse("HPE Slingshot-11, 200 Gb/s per NIC", 1, 4).orElseThrow().count());
        // the 4-node DGX Spark file: a speed per port, ports per host not on the line (its hardware line says 2 x
        // dual-port ConnectX-7): the NIC count is unknown, not 1
        assertTrue(HeaderNics.parse("RoCEv2, MTU 9216; ib_write_bw ~98 Gb/s per port", 5, 1).isEmpty());
    }

    /**
     * A host's network ports under their other names, as two public headers write them (values by reading the lines):
     * the nccl-tests#319 file's line 5 "InfiniBand NDR 400 Gb/s, 8 HCAs per node" is 8 x 400 Gb/s, and the Dell
     * XE9680 Spectrum-X file's line 5 "8 rails per node on NVIDIA BlueField-3 B3140H SuperNICs, '400GbE (default
     * mode)'" is 8 x 400 Gb/s; both were read as one 400 Gb/s NIC, so diagnose called the XE9680 run's 485.7 GB/s busbw
     * (its line 66) impossible for 400 Gb/s of NICs per host.
     */
    @Test
    void hcasRailsAndSuperNicsAreNicsPerHost() {
        HeaderNics ib = HeaderNics.parse("NVLink4/NVSwitch intra-node; InfiniBand NDR 400 Gb/s, 8 HCAs per node"
                + " (NCCL_IB_HCA lists 8), DOCA host 2.9.2 instead of MLNX_OFED", 5, 8).orElseThrow();
        assertEquals("8 x 400 Gb/s", ib.describe());
        HeaderNics spx = HeaderNics.parse("NVLink4/NVSwitch intra-node; NVIDIA Spectrum-X Ethernet (RoCE, single"
                + " plane), 8 rails per node on NVIDIA BlueField-3 B3140H SuperNICs, '400GbE (default mode)' per the"
                + " page's mlxconfig listing (the B3220 DPU ports it also lists are not rails)", 5, 8).orElseThrow();
        assertEquals("8 x 400 Gb/s", spx.describe());
        assertEquals(8, HeaderNics.parse("8x BlueField-3 SuperNIC, 400GbE", 1).orElseThrow().count());
        assertEquals(4, HeaderNics.parse("NDR 200 Gb/s, 4 adapters per host", 1).orElseThrow().count());
        // "rail" alone is not a count: a speed per rail with no count stays one figure for the host
        assertEquals(1, HeaderNics.parse("400 Gb/s per rail", 1).orElseThrow().count());
    }

    @Test
    void bytesPerSecondAreNotANic() {
        assertTrue(HeaderNics.parse("NVLink4 + NVSwitch gen3 (900 GB/s per GPU)", 1).isEmpty());
    }

    /** The AWS p5 file's header gives the host's total ("EFA v2 3200 Gbps per node"), not one 3200 Gb/s NIC. */
    @Test
    void describesATotalWithoutACount() {
        assertEquals("3200 Gb/s", HeaderNics.parse("NVLink4/NVSwitch (NVLS); EFA v2 3200 Gbps per node", 5)
                .orElseThrow().describe());
        assertEquals("8 x 400 Gb/s", HeaderNics.parse("8x NDR 400Gb/s IB", 1).orElseThrow().describe());
    }

    @Test
    void deviceCountByHand() {
        assertEquals(OptionalInt.of(4), HeaderNics.deviceCount("4x CX-7 InfiniBand per node"));
        assertEquals(OptionalInt.of(4), HeaderNics.deviceCount("+ 4x ConnectX-7 InfiniBand"));
        assertEquals(OptionalInt.of(8), HeaderNics.deviceCount("8 x ConnectX7 400Gb"));
        // a dual-port card's port count is not in the figure; GPU counts are not NIC counts
        assertEquals(OptionalInt.empty(), HeaderNics.deviceCount("2x dual-port ConnectX-7 per node"));
        assertEquals(OptionalInt.empty(), HeaderNics.deviceCount("8x H200 SXM per server"));
        assertEquals(OptionalInt.empty(), HeaderNics.deviceCount(null));
    }

    @Test
    void slingshotWithoutASpeedIsASlingshot11Nic() {
        // HPE Slingshot NIC datasheet: Slingshot-11 (Cassini) 200 Gb/s; Slingshot-10 ran 100 Gb/s ConnectX-5
        assertEquals(200, HeaderNics.gbits("HPE Slingshot via libfabric + aws-ofi-nccl").orElseThrow(), 0);
        assertEquals(200, HeaderNics.gbits("HPE Slingshot-11 (CXI)").orElseThrow(), 0);
        assertEquals(100, HeaderNics.gbits("Slingshot-10").orElseThrow(), 0);
        assertEquals(400, HeaderNics.gbits("Slingshot, 400 Gb/s per NIC").orElseThrow(), 0); // a stated speed wins
    }

    /**
     * Both readings take the same units: the GKE A4 file's line "8x 400Gb RoCE (Google gIB NCCL plugin) per node" is
     * 8 NICs of 400 Gb/s for diagnose and for compare alike, and the nccl-tests#290 file's "8x NDR 400Gb/s IB
     * ConnectX-7 per node" is 8 x 400 for compare too (the figures as written in the two files' interconnect lines).
     */
    @Test
    void bothReadingsTakeTheSameUnits() {
        String a4 = "NVLink5/NVSwitch intra-node; 8x 400Gb RoCE (Google gIB NCCL plugin) per node";
        assertEquals("8 x 400 Gb/s", HeaderNics.parse(a4, 1).orElseThrow().describe());
        assertEquals(400, HeaderNics.gbits(a4).orElseThrow(), 0);
        double[] cs = HeaderNics.countAndGbits(a4).orElseThrow();
        assertEquals(8, cs[0], 0);
        assertEquals(400, cs[1], 0);
        double[] ndr = HeaderNics.countAndGbits("NVLink4/NVSwitch intra-node; 8x NDR 400Gb/s IB ConnectX-7 per node, "
                + "Quantum-2 switches").orElseThrow();
        assertEquals(8, ndr[0], 0);
        assertEquals(400, ndr[1], 0);
    }

    /**
     * A figure per VM, host or node is the host's total, not one NIC's speed: "3200 Gbps per VM" with "a NIC per GPU"
     * on 8 GPUs is 3200 / 8 = 400 GB/s per host, not 8 x 3200 Gb/s (3200 GB/s); GCP's A3 Mega line ('1800Gbps maximum
     * network bandwidth' per VM, GCP counting its gVNIC in it) sets no NIC speed, the 8x 200 Gbps data NICs do.
     */
    @Test
    void aTotalPerVmIsNoNicSpeed() {
        HeaderNics efa = HeaderNics.parse("EFA v2 3200 Gbps per VM, a NIC per GPU", 5, 8).orElseThrow();
        assertEquals(1, efa.count());
        assertEquals(400.0, efa.hostGBps(), 1e-9);
        HeaderNics node = HeaderNics.parse("3200 Gbps in total, 8 NICs per node", 5, 8).orElseThrow();
        assertEquals(400.0, node.hostGBps(), 1e-9);
        // a NIC word between the figure and "per node" keeps it a NIC's speed: 4 x 400 Gb/s = 200 GB/s
        assertEquals(200.0, HeaderNics.parse("400 Gb/s NICs per node, 4 NICs per node", 5, 8).orElseThrow().hostGBps(),
                1e-9);
        assertEquals(200.0, HeaderNics.gbits("GPUDirect-TCPXO over 8x 200 Gbps data NICs per VM; the page: '1800Gbps"
                + " maximum network bandwidth' per VM").getAsDouble(), 1e-9);
        assertEquals(200.0, HeaderNics.gbits("4x 200 Gbps data NICs per VM; 'maximum network bandwidth' 1000 Gbps per"
                + " VM").getAsDouble(), 1e-9);
    }

    /**
     * NICs a pod is given, from the GKE DraNet files' header lines (values by reading them): the H200 AllReduce file's
     * line 5 "one 400 Gb/s CX-7 per Pod"; the A3 Ultra AllGather file's line 5 "through the one NIC each pod is given"
     * (its node figure "8x 400 Gb/s CX-7 per node" is not the pod's); the A4 B200 file's line 5 "each pod's claim
     * '2-gpu-nic-aligned' gives 2 GPUs and 2 RDMA NICs" (the page's {@code ip a} in the pod lists gpu0rdma0 and
     * gpu1rdma0, google/dranet site/content/docs/user/nvidia-dranet.md); the A4 2x8 file's "8 RDMA interfaces per pod".
     */
    @Test
    void nicsAPodIsGiven() {
        assertEquals(OptionalInt.of(1), HeaderNics.podCount("GPUDirect RDMA over RoCE, one 400 Gb/s CX-7 per Pod"
                + " (DRANET claim selects the NIC named gpu2rdma0, renamed dranet0 in the Pod), Google gIB NCCL plugin"));
        assertEquals(OptionalInt.of(1), HeaderNics.podCount("GPUDirect RDMA over RoCE (Google gIB NCCL plugin) through"
                + " the one NIC each pod is given: run 1 the claim selects ifName gpu2rdma0 with GPU 0000:90:00 on both"
                + " nodes; NIC speed not printed (A3 Ultra: 8x 400 Gb/s CX-7 per node)"));
        assertEquals(OptionalInt.of(2), HeaderNics.podCount("run 2: GPUDirect RDMA over RoCE between the two nodes"
                + " (Google gIB NCCL plugin; each pod's claim '2-gpu-nic-aligned' gives 2 GPUs and 2 RDMA NICs on the"
                + " same PCIe root, resource.kubernetes.io/pcieRoot), 8 RDMA subnets per node"));
        assertEquals(OptionalInt.of(8), HeaderNics.podCount("GPUDirect RDMA over RoCE between nodes, 8 RDMA interfaces"
                + " per pod (eth2..eth9 on networks rdma-0..rdma-7)"));
        // no pod named, or a pod with no NIC count: nothing
        assertTrue(HeaderNics.podCount("8x 400 Gb/s CX-7 per node").isEmpty());
        assertTrue(HeaderNics.podCount("Azure Standard_NC96ads_A100_v4 (AKS pod): 4x A100 80GB PCIe").isEmpty());
        assertTrue(HeaderNics.podCount(null).isEmpty());
    }
}
