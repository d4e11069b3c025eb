package dev.collsim.topology.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.export.NcclTopoXmlWriter;
import dev.collsim.topology.io.xml.PciSpecs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The catalog's GPUs are the database's: names, sm, memory and NVLink figures agree. */
class CatalogHardwareTest {

    @ParameterizedTest
    @CsvSource({
        // host type, GPU SKU, sm, NVLinks per GPU, datasheet GB/s per GPU (links x 25 or 50), NCCL GB/s (topo.h)
        "dgx1-v100, V100-SXM2-32GB, 70, 6, 150, 120",
        "dgx-a100, A100-SXM4-80GB, 80, 12, 300, 240",
        "dgx-h100, H100-SXM5-80GB, 90, 18, 450, 370.8",
        "dgx-h200, H200-SXM-141GB, 90, 18, 450, 370.8",
        "hgx-b200, B200-180GB, 100, 18, 900, 721.8",
        "gb200-nvl72, B200 (GB200), 100, 18, 900, 721.8",
        "pcie-8x-l40s, L40S, 89, 0, 0, 0",
        "pcie-8x-rtx4090, GeForce RTX 4090, 89, 0, 0, 0",
        // ABCI block diagrams: "NVLink2 x2" on each of the V node's 3 peers of a GPU; "NVLink3 x12" on the A node
        "abci-node-v, V100-SXM2-16GB, 70, 6, 150, 120",
        "abci-node-a, A100-SXM4-40GB, 80, 12, 300, 240",
    })
    void catalogGpusComeFromTheDatabase(String host, String sku, int sm, int links, double physical, double nccl) {
        Topology t = Catalog.standalone(Catalog.hostType(host).orElseThrow(), 1);
        Gpu g = t.gpus().get(0);
        GpuModels.Sku db = GpuModels.sku(sku).orElseThrow();
        assertEquals(sku, g.model());
        assertEquals(sm, g.sm());
        assertEquals(db.variant().memoryBytes(), g.memoryBytes());
        int count = 0;
        double bw = 0;
        double ncclBw = 0;
        for (Link l : t.outgoing(g)) {
            if (l.type() == LinkType.NVLINK) {
                count += l.count();
                bw += l.bandwidth().gbps();
                ncclBw += l.ncclBandwidth().gbps();
            }
        }
        assertEquals(links, count);
        assertEquals(physical, bw, 1e-9);
        assertEquals(nccl, ncclBw, 1e-9);
        assertEquals(links, db.model().nvlinks());
    }

    @Test
    void gpuModelToHostType() {
        assertEquals("dgx-h100", Catalog.forGpu(GpuModels.find("NVIDIA H100 80GB HBM3").orElseThrow()).orElseThrow()
                .name());
        assertEquals("dgx-h100", Catalog.forGpu(GpuModels.find("NVIDIA H20").orElseThrow()).orElseThrow().name());
        assertEquals("gb300-nvl72", Catalog.forGpu(GpuModels.find("NVIDIA GB300").orElseThrow()).orElseThrow().name());
        assertTrue(Catalog.forGpu(GpuModels.find("NVIDIA GH200 120GB").orElseThrow()).isEmpty());
    }

    @Test
    void nvidiaXmlDeviceIdsRoundTrip() {
        // dgx-h200's H200 SKU is PCI device 0x2335 (PCI ID database); the writer writes it and the reader names it back
        assertEquals(0x2335, PciSpecs.gpuDeviceId("H200-SXM-141GB"));
        assertEquals("H200-SXM-141GB", PciSpecs.gpuModelName(0x2335));
        assertEquals("NVIDIA 0x1234", PciSpecs.gpuModelName(0x1234));
        assertEquals(0x1234, PciSpecs.gpuDeviceId("NVIDIA 0x1234"));
        assertEquals(-1, PciSpecs.gpuDeviceId("NVIDIA H100 80GB HBM3")); // an alias is not a SKU name
        String xml = new NcclTopoXmlWriter().write(Catalog.standalone(Catalog.dgxH200(), 1));
        assertTrue(xml.contains("device=\"0x2335\""), xml);
    }

    @Test
    void pcieGen6IsOneNumberEverywhere() {
        // PCIe 6.0: 64 GT/s, FLIT 242/256 -> 7.5625 GB/s per lane, 121.0 per x16; NCCL: 16 x 480 / 80 = 96
        assertEquals(121.0, PcieGen.GEN6.physical(16).gbps(), 1e-9);
        assertEquals(121.0, GpuModels.byName("B200").orElseThrow().pciePhysical().gbps(), 1e-9);
        assertEquals(96.0, NcclBandwidths.pcie(PcieGen.GEN6, 16).gbps(), 1e-9);
    }
}
