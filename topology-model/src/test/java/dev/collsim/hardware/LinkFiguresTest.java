package dev.collsim.hardware;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.collsim.topology.NcclBandwidths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Datasheet link figures ({@link PcieGen}, {@link NvlinkGen}) and NCCL's ({@link NcclBandwidths}) side by side; each
 * expected value is worked out by hand from the PCI-SIG rates or read from NCCL 2.30.7's source.
 */
class LinkFiguresTest {

    @ParameterizedTest
    @CsvSource({
        // gen, GT/s, physical x16 GB/s (GT/s x encoding / 8 x 16), NCCL x16 GB/s (16 x speed code / 80, topo.cc)
        "1, 2.5, 4.0, 3.0",
        "2, 5.0, 8.0, 6.0",
        "3, 8.0, 15.7538, 12.0",
        "4, 16.0, 31.5077, 24.0",
        "5, 32.0, 63.0154, 48.0",
        "6, 64.0, 121.0, 96.0",
    })
    void pcieDatasheetAndNccl(int gen, double gtps, double physicalX16, double ncclX16) {
        PcieGen g = PcieGen.of(gen);
        assertEquals(gtps, g.gtPerSecond(), 0);
        assertEquals(g, PcieGen.ofGtPerSecond(gtps));
        assertEquals(physicalX16, g.physical(16).gbps(), 1e-4);
        assertEquals(ncclX16, NcclBandwidths.pcie(g, 16).gbps(), 1e-9);
    }

    @Test
    void pcieDetailRoundTrip() {
        assertArrayEquals(new int[] {5, 8}, PcieGen.parseDetail(PcieGen.GEN5.detail(8)));
        assertArrayEquals(new int[] {3, 16}, PcieGen.parseDetail("PCIe Gen3 x16 (link_width 0: NCCL assumes 16)"));
        assertNull(PcieGen.parseDetail("NVLink4"));
        assertNull(PcieGen.ofGtPerSecond(10.0));
    }

    @ParameterizedTest
    @CsvSource({
        // sm, NCCL per-link GB/s: NCCL 2.30.7 src/graph/topo.h ncclTopoNVLinkBw (SM60 18.0, SM70/SM80 20.0,
        // SM86 12.0, SM90 20.6, SM100 40.1; below sm60 SM80_NVLINK_BW)
        "50, 20.0", "60, 18.0", "61, 18.0", "70, 20.0", "75, 20.0", "80, 20.0", "86, 12.0", "87, 20.0", "89, 20.0",
        "90, 20.6", "100, 40.1", "103, 40.1", "120, 40.1",
    })
    void ncclNvlinkPerLink(int sm, double gbps) {
        assertEquals(gbps, NcclBandwidths.nvlinkPerLink(sm), 0);
    }

    @ParameterizedTest
    @CsvSource({
        // datasheet GB/s per link and direction: bidirectional per GPU / links / 2
        "NVLINK1, 20.0",   // P100: 160 / 4 / 2
        "NVLINK2, 25.0",   // V100: 300 / 6 / 2
        "NVLINK3, 25.0",   // A100: 600 / 12 / 2
        "NVLINK3_GA10X_BRIDGE, 14.0625", // RTX A6000 bridge: 112.5 / 4 / 2
        "NVLINK4, 25.0",   // H100: 900 / 18 / 2
        "NVLINK5, 50.0",   // B200: 1800 / 18 / 2
    })
    void nvlinkDatasheet(NvlinkGen gen, double gbps) {
        assertEquals(gbps, gen.perLink().gbps(), 0);
    }

    @Test
    void ncclAndDatasheetDifferForTheSameGpu() {
        GpuModel h100 = GpuModels.byName("H100 SXM").orElseThrow();
        assertEquals(450.0, h100.nvlinkPhysical().gbps(), 1e-9);          // 18 x 25
        assertEquals(370.8, NcclBandwidths.gpuNvlink(h100).gbps(), 1e-9); // 18 x 20.6
        assertEquals(48.0, NcclBandwidths.gpuPcie(h100).gbps(), 1e-9);    // Gen5 x16 in NCCL
    }

    @Test
    void ncclMaxNvlinks() {
        // NCCL 2.30.7 src/graph/xml.cc: (sm < 60) ? 0 : (sm < 70) ? 4 : (sm < 80) ? 6 : (sm < 90) ? 12 : 18
        assertEquals(0, NcclBandwidths.maxNvlinks(52));
        assertEquals(4, NcclBandwidths.maxNvlinks(60));
        assertEquals(6, NcclBandwidths.maxNvlinks(75));
        assertEquals(12, NcclBandwidths.maxNvlinks(86));
        assertEquals(18, NcclBandwidths.maxNvlinks(90));
        assertEquals(18, NcclBandwidths.maxNvlinks(0));
    }

    @Test
    void ncclPciSpeedCodes() {
        // NCCL 2.30.7 src/graph/topo.cc kvDictPciGen: 2.5/5/8/16/32/64 GT/s -> 15/30/60/120/240/480
        int[] codes = {15, 30, 60, 120, 240, 480};
        for (PcieGen g : PcieGen.values()) {
            assertEquals(codes[g.ordinal()], NcclBandwidths.pciSpeedCode(g));
        }
    }
}
