package dev.collsim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The CPU database against the vendors' figures: each expected value is the vendor's (Intel ARK, AMD's product pages,
 * NVIDIA's Grace datasheet) or worked out by hand from them as links x GT/s x bytes per transfer.
 */
class CpuModelsTest {

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        // text; PCIe generation; lanes per socket; socket-to-socket GB/s per direction (0: none given)
        // Intel ARK E5-2698 v4: PCIe 3.0, 40 lanes, 2 QPI at 9.6 GT/s: 2 x 9.6 x 2 B = 38.4
        "Xeon E5-2698 v4; 3; 40; 38.4",
        // ARK 8280 (Cascade Lake): PCIe 3.0, 48 lanes, 3 UPI at 10.4 GT/s: 3 x 10.4 x 2 = 62.4
        "Intel Xeon Platinum 8275CL; 3; 48; 62.4",
        "Intel Xeon (Cascade Lake); 3; 48; 62.4",
        // ARK 8380 (Ice Lake): PCIe 4.0, 64 lanes, 3 UPI at 11.2 GT/s: 67.2
        "Intel Xeon Platinum 8380; 4; 64; 67.2",
        // ARK 8462Y+: PCIe 5.0, 80 lanes, 3 UPI at 16 GT/s: 3 x 16 x 2 = 96
        "Xeon Platinum 8462Y+; 5; 80; 96",
        // ARK 8480+: PCIe 5.0, 80 lanes, 4 UPI at 16 GT/s: 4 x 16 x 2 = 128 (8480C, 8481C, 8488C the same family)
        "Xeon Platinum 8480C; 5; 80; 128",
        "Intel Xeon Platinum 8481C; 5; 80; 128",
        "Intel Xeon Platinum 8488C; 5; 80; 128",
        // ARK 8570 (Emerald Rapids): PCIe 5.0, 80 lanes, 4 UPI at 20 GT/s: 4 x 20 x 2 = 160
        "Intel Xeon Platinum 8575C; 5; 80; 160",
        // ARK 6776P (Xeon 6, Granite Rapids): PCIe 5.0, 88 lanes, 4 UPI at 24 GT/s: 4 x 24 x 2 = 192
        "Intel Xeon 6776P; 5; 88; 192",
        "Intel Xeon 6 (Granite Rapids); 5; 88; 192",
        // AMD EPYC 7002/7003 product pages: 128 lanes PCIe 4.0; xGMI 4 x16 at 16 GT/s: 4 x 16 x 16 / 8 = 128
        "EPYC 7742; 4; 128; 128",
        "AMD EPYC 7V12; 4; 128; 128",
        "AMD EPYC 7R13; 4; 128; 128",
        // typed without quotes on a command line (--cpu-model EPYC-7R13): the same parts
        "EPYC-7R13; 4; 128; 128",
        "Xeon_Platinum_8480C; 5; 80; 128",
        "AMD EPYC 7J13; 4; 128; 128",
        "AMD EPYC (Milan); 4; 128; 128",
        // AMD 4th Gen EPYC white paper: 128 lanes PCIe 5.0, 4 xGMI3 x16 at 32 Gb/s: 4 x 16 x 32 / 8 = 256
        "AMD EPYC 9654; 5; 128; 256",
        "AMD EPYC 9575F; 5; 128; 0",
        // NVIDIA Grace CPU Superchip datasheet: 8 PCIe Gen5 x16 per 2 CPUs
        "NVIDIA Grace; 5; 64; 0",
    })
    void vendorFigures(String text, int gen, int lanes, double interSocket) {
        CpuModel m = CpuModels.find(text).orElseThrow(() -> new AssertionError("no family for " + text));
        assertEquals(PcieGen.of(gen), m.pcieGen(), text);
        assertEquals(lanes, m.pcieLanes(), text);
        assertEquals(interSocket, m.interSocket().map(b -> b.gbps()).orElse(0.0), 1e-9, text);
    }

    /**
     * Every family's link bandwidth is its rate times 2 bytes per transfer and direction: QPI/UPI carry 16 data bits
     * per transfer, an x16 xGMI link one bit per lane (16 bits).
     */
    @Test
    void linkBandwidthIsTwoBytesPerTransfer() {
        for (CpuModel m : CpuModels.all()) {
            assertEquals(2 * m.linkGtps(), m.linkGBps(), 1e-9, m.family());
        }
    }

    /** A root port trains to the lower generation of its two ends: Milan (Gen4) under an H100 (Gen5) gives Gen4. */
    @Test
    void rootPortTakesTheLowerGeneration() {
        CpuModel milan = CpuModels.find("AMD EPYC 7R13").orElseThrow();
        assertEquals(PcieGen.GEN4, milan.rootPort(PcieGen.GEN5));
        assertEquals(PcieGen.GEN3, milan.rootPort(PcieGen.GEN3));
        assertEquals(PcieGen.GEN5, CpuModels.find("Grace").orElseThrow().rootPort(PcieGen.GEN6));
    }

    /**
     * The CPUID an NCCL topology XML states names the family whose socket links it has. Expected ids: Linux
     * {@code arch/x86/include/asm/intel-family.h} (SAPPHIRERAPIDS_X 0x8F = 143, EMERALDRAPIDS_X 0xCF = 207, ICELAKE_X
     * 0x6A = 106) and AMD's PPR titles (Family 17h Model 31h = 23/49 Rome, 19h/01h = 25/1 Milan, 19h/11h = 25/17
     * Genoa); Azure's ND H100 v5 file (/work/shared/data/C-topo-azure-ndv5-8xH100.xml line 12) states 6/143 and its ND
     * A100 v4 file (C-topo-azure-ndv4-8xA100.xml line 12, EPYC 7V12) 23/49. Figures: the vendors', as above.
     */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "GenuineIntel; 6; 143; 128", "GenuineIntel; 6; 207; 160", "GenuineIntel; 6; 106; 67.2",
        "AuthenticAMD; 23; 49; 128", "AuthenticAMD; 25; 1; 128", "AuthenticAMD; 25; 17; 256",
        "GenuineIntel; 6; 999; -1", "GenuineIntel; -1; -1; -1", "AuthenticAMD; 26; 2; -1", "; 6; 143; -1",
    })
    void cpuidNamesTheFamily(String vendor, int family, int model, double interSocket) {
        double found = CpuModels.ofCpuid(vendor, family, model).map(m -> m.interSocket().map(b -> b.gbps())
                .orElse(0.0)).orElse(-1.0);
        assertEquals(interSocket, found, 1e-9, vendor + " " + family + " " + model);
    }

    @Test
    void unknownTextNamesNoFamily() {
        assertTrue(CpuModels.find("synthesized").isEmpty());
        assertTrue(CpuModels.find(null).isEmpty());
        assertTrue(CpuModels.find("Ryzen 9 7950X").isEmpty());
    }
}
