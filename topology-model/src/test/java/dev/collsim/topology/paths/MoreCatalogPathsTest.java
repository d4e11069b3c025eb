package dev.collsim.topology.paths;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import org.junit.jupiter.api.Test;

/** Paths of the GB200 NVL72, HGX B200 and L40S catalog hosts, with values worked out from their datasheets. */
class MoreCatalogPathsTest {

    private static final double EPS = 1e-6;

    /**
     * GB200 NVL72 (NVIDIA GB200 NVL72 datasheet: 18 NVLink5 links, 1.8 TB/s bidirectional per GPU): GPUs of two
     * different compute trays in one rack are NVL through the rack's NVLink switch, 18 x 50 = 900 GB/s physical,
     * NCCL 18 x 40.1 = 721.8 GB/s (NCCL 2.30 topo.h SM100_NVLINK_BW); nvidia-smi shows NV18.
     */
    @Test
    void gb200GpusOfTwoTraysShareTheNvlinkDomain() {
        Topology t = Catalog.standalone(Catalog.hostType("gb200-nvl72").orElseThrow(), 18);
        assertEquals(72, t.gpus().size());
        PathFinder pf = PathFinder.of(t);
        DevicePath p = pf.path("h0/gpu0", "h17/gpu3");
        assertEquals(PathType.NVL, p.type());
        assertEquals(900.0, p.physical().gbps(), EPS);
        assertEquals(721.8, p.nccl().gbps(), EPS);
        assertEquals("NV18", p.smiLabel());
        assertEquals(2, p.hopCount());
    }

    /**
     * GB200 GPU to a NIC on its own Grace: GPU -C2C- Grace -PCIe- NIC, which NCCL types P2C (paths.cc
     * mergePathType(C2C, PHB)); bottleneck min(C2C 225, Gen5 x16 48, 400 Gb/s 50) = 48 GB/s NCCL.
     */
    @Test
    void gb200GpuToNicIsP2c() {
        PathFinder pf = PathFinder.of(Catalog.standalone(Catalog.hostType("gb200-nvl72").orElseThrow(), 1));
        DevicePath p = pf.path("h0/gpu0", "h0/nic0");
        assertEquals(PathType.P2C, p.type());
        assertEquals(48.0, p.nccl().gbps(), EPS);
    }

    /** HGX B200 (DGX B200 datasheet): 18 NVLink5 x 50 GB/s = 900 GB/s per direction; NCCL 18 x 40.1 = 721.8. */
    @Test
    void hgxB200GpuPairBandwidth() {
        DevicePath p = PathFinder.of(Catalog.standalone(Catalog.hostType("hgx-b200").orElseThrow(), 1))
                .path("h0/gpu2", "h0/gpu5");
        assertEquals(900.0, p.physical().gbps(), EPS);
        assertEquals(721.8, p.nccl().gbps(), EPS);
    }

    /**
     * 8x L40S on Gen4 switches: GPUs on one switch are PIX at 24 GB/s NCCL (16 x 120 / 80); on two switches of one
     * socket PHB (nvidia-smi NODE: two host bridges); across sockets SYS, limited by NCCL's Sapphire Rapids UPI value
     * 22 GB/s.
     */
    @Test
    void l40sPcieLevels() {
        PathFinder pf = PathFinder.of(Catalog.standalone(Catalog.hostType("pcie-8x-l40s").orElseThrow(), 1));
        DevicePath pix = pf.path("h0/gpu0", "h0/gpu1");
        assertEquals(PathType.PIX, pix.type());
        assertEquals("PIX", pix.smiLabel());
        assertEquals(24.0, pix.nccl().gbps(), EPS);
        DevicePath node = pf.path("h0/gpu0", "h0/gpu2");
        assertEquals(PathType.PHB, node.type());
        assertEquals("NODE", node.smiLabel());
        DevicePath sys = pf.path("h0/gpu0", "h0/gpu4");
        assertEquals(PathType.SYS, sys.type());
        assertEquals("SYS", sys.smiLabel());
        assertEquals(22.0, sys.nccl().gbps(), EPS);
    }
}
