package dev.collsim.topology.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.NetworkClass;
import org.junit.jupiter.api.Test;

/**
 * Rows of the systems data file against figures read on 2026-12-04 in stored copies of the providers' pages (the
 * first URL of each row's source). The figures are the pages', written here by hand; the test reads the rows.
 */
class SystemPagesTest {

    private static SystemEntry row(String name) {
        return Catalog.systems().stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * Microsoft Learn, ND-H100-v5 size series (summary include): eight H100 GPUs; 3.2 Tbps of interconnect per VM;
     * each GPU its own dedicated 400 Gb/s Quantum-2 CX7 InfiniBand connection; GPUDirect RDMA; NVLink 4.0.
     */
    @Test
    void azureNdH100v5() {
        SystemEntry e = row("Standard_ND96isr_H100_v5");
        assertEquals(8, e.gpus());
        assertEquals(e.gpus(), e.nics(), "one NIC per GPU");
        assertEquals(400, e.nicGbits(), 0);
        assertEquals(3200, e.nics() * e.nicGbits(), 0, "3.2 Tbps per VM");
        assertEquals(NetworkClass.INFINIBAND, e.network());
        assertTrue(e.gpuDirect());
        assertEquals("H100-SXM5-80GB", e.gpu().variant().name());
    }

    /**
     * Microsoft Learn, NDasrA100_v4 and NDm_A100_v4 size series: eight A100 40GB (asr) / 80GB (amsr); one HDR
     * InfiniBand connection per GPU (written "200 GB/s"; HDR is 200 Gb/s), 1.6 "TB/s" per VM (8 x 200 Gb/s =
     * 1.6 Tb/s); GPUDirect RDMA; 96 cores of AMD EPYC 7V12 (Rome). The size table names the 40 GB size
     * Standard_ND96asr_A100_v4.
     */
    @Test
    void azureNdA100v4() {
        for (String n : new String[] {"Standard_ND96asr_v4", "Standard_ND96amsr_A100_v4"}) {
            SystemEntry e = row(n);
            assertEquals(8, e.nics(), n);
            assertEquals(1600, e.nics() * e.nicGbits(), 0, n);
            assertEquals(NetworkClass.INFINIBAND, e.network(), n);
            assertTrue(e.cpu().contains("7V12"), n);
        }
        assertEquals("A100-SXM4-40GB", row("Standard_ND96asr_v4").gpu().variant().name());
        assertEquals("A100-SXM4-80GB", row("Standard_ND96amsr_A100_v4").gpu().variant().name());
        assertEquals("standard_nd96asr_v4", Catalog.hostType("Standard_ND96asr_A100_v4").orElseThrow().name());
    }

    /**
     * Microsoft Learn, ND-GB200-v6 series: two Grace CPUs and four Blackwell GPUs per VM; 4x 400 Quantum-2 CX7
     * InfiniBand connections per VM; an NVL72 rack is a group of 18 VMs (72 GPUs).
     */
    @Test
    void azureNdGb200v6() {
        SystemEntry e = row("Standard_ND128isr_NDR_GB200_v6");
        assertEquals(4, e.gpus());
        assertEquals(4, e.nics());
        assertEquals(400, e.nicGbits(), 0);
        assertEquals(NetworkClass.INFINIBAND, e.network());
        assertEquals(18, Catalog.hostType(e.name()).orElseThrow().hostsPerNvlinkDomain());
    }

    /**
     * EC2 user guide, "Maximize network bandwidth on accelerated computing instances with EFA" (p5-efa): P5 and P5e
     * support up to 32 network cards and up to 3,200 Gbps. AWS compute blog, "Amazon EC2 P4d instances deep dive":
     * 8 x 40 GB A100 with NVSwitch, 400 Gbps EFA, GPUDirect RDMA, dual Intel Cascade Lake 8275CL.
     */
    @Test
    void awsP5AndP4d() {
        for (String n : new String[] {"p5.48xlarge", "p5e.48xlarge"}) {
            SystemEntry e = row(n);
            assertEquals(32, e.nics(), n);
            assertEquals(3200, e.nics() * e.nicGbits(), 0, n);
            assertEquals(NetworkClass.EFA, e.network(), n);
        }
        SystemEntry p4d = row("p4d.24xlarge");
        assertEquals("A100-SXM4-40GB", p4d.gpu().variant().name());
        assertEquals(8, p4d.gpus());
        assertEquals(400, p4d.nics() * p4d.nicGbits(), 0);
        assertTrue(p4d.gpuDirect());
        assertTrue(p4d.cpu().contains("8275CL"), p4d.cpu());
    }

    /** Every row's first page is the one named in the data file's comment as checked or not found. */
    @Test
    void theCheckedPagesAreTheFirstUrls() {
        assertTrue(row("p4d.24xlarge").source().startsWith("https://aws.amazon.com/blogs/compute/"));
        assertTrue(row("p5.48xlarge").source().startsWith("https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/p5-efa"));
        assertTrue(row("Standard_ND96asr_v4").source().contains("ndasra100v4-series"));
    }
}
