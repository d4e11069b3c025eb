package dev.collsim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The GPU-model database: names resolve to one model; figures are the datasheets' (worked out here by hand). */
class GpuModelsTest {

    @Test
    void everyNameAliasAndSkuResolvesToItsOwnModelOnly() {
        Map<String, String> owner = new HashMap<>();
        for (GpuModel m : GpuModels.all()) {
            List<String> names = new ArrayList<>(m.aliases());
            names.add(m.name());
            m.variants().forEach(v -> names.add(v.name()));
            for (String n : names) {
                assertSame(m, GpuModels.byName(n).orElseThrow(), n);
                assertSame(m, GpuModels.byName("  " + n.toUpperCase() + " ").orElseThrow(), n);
                assertSame(m, GpuModels.find(n).orElseThrow(), n);
                // each spelling names one model: no two models list it
                String before = owner.putIfAbsent(n.toLowerCase(Locale.ROOT), m.name());
                assertTrue(before == null || before.equals(m.name()), n + " listed by " + before + " and " + m.name());
            }
            // the model's own free-text rule finds it in its own first alias written inside a sentence
            String inText = "8x " + (m.aliases().isEmpty() ? m.name() : m.aliases().get(0)) + " per node";
            assertSame(m, GpuModels.find(inText).orElseThrow(), inText);
        }
    }

    @Test
    void variantsResolveToTheirOwnMemory() {
        GpuModels.Sku a40 = GpuModels.sku("A100-SXM4-40GB").orElseThrow();
        assertEquals("A100 SXM", a40.model().name());
        assertEquals(40L << 30, a40.variant().memoryBytes());
        assertEquals(1555, a40.variant().memoryGBps(), 0); // A100 datasheet, 40 GB HBM2
        assertEquals(2039, a40.model().memoryGBps(), 0); // default variant: 80 GB HBM2e
    }

    /**
     * Memory is the datasheet's "GB" read as the JEDEC gigabyte, 2^30 B: what nvidia-smi shows as memory.total lies
     * at most 1 % below {@code GB x 2^30} and above {@code GB x 10^9}, which could not hold it. Measured totals: A100
     * SXM4 80GB 81,920 MiB and H100 SXM 81,559 MiB (docs/planning-validation.md: NVIDIA/nccl issue 1264,
     * wilicc/gpu-burn issue 114), H200 143,771 MiB (data/device/h200-all_reduce-all-types-ops.txt line 3), B200
     * 183,359 MiB (NVIDIA/TensorRT-LLM issue 10278, nvidia-smi 580.95.05).
     */
    @ParameterizedTest
    @CsvSource({"A100-SXM4-80GB, 80, 81920", "H100-SXM5-80GB, 80, 81559", "NVIDIA H200, 141, 143771",
        "NVIDIA B200, 180, 183359"})
    void memoryIsTheDatasheetFigureInJedecGigabytes(String name, int datasheetGb, long smiMib) {
        long db = GpuModels.sku(name).orElseThrow().variant().memoryBytes();
        long smi = smiMib << 20;
        assertEquals((long) datasheetGb << 30, db, name);
        assertTrue(smi > datasheetGb * 1e9, name + ": more than the decimal reading could hold");
        assertTrue(smi <= db && smi >= 0.99 * db, name + ": nvidia-smi " + smiMib + " MiB within 1 % of " + db);
    }

    /** Quadro RTX 6000 and 8000 share the TU102 board; their datasheets give 24 GB and 48 GB of GDDR6, 672 GB/s. */
    @Test
    void quadroRtx6000HasItsOwnMemory() {
        GpuModels.Sku six = GpuModels.sku("Quadro RTX 6000").orElseThrow();
        assertEquals("Quadro RTX 8000", six.model().name());
        assertEquals(24L << 30, six.variant().memoryBytes());
        assertEquals(48L << 30, GpuModels.sku("Quadro RTX 8000").orElseThrow().variant().memoryBytes());
    }

    @ParameterizedTest
    @CsvSource({
        // nvidia-smi / nccl-tests device names and header texts seen in the corpus
        "NVIDIA H100 80GB HBM3, H100 SXM",
        "DGX H100 (H100 80GB HBM3 SXM), H100 SXM",
        "NVIDIA GH200 120GB, GH200",
        "NVIDIA H200, H200",
        "NVIDIA H20-3e, H20",
        "NVIDIA H100 NVL, H100 NVL (NVLink bridge)",
        "2x H100 PCIe connected by NVLink bridge, H100 PCIe (NVLink bridge)",
        "NVIDIA A100 80GB PCIe, A100 PCIe (NVLink bridge pairs)",
        "OCI BM.GPU4.8: 8x A100-SXM4-40GB, A100 SXM",
        "Tesla V100-SXM2-16GB, V100 SXM2",
        "4x NVIDIA GB200 per host, GB200",
        "NVIDIA GB300, GB300",
        "NVIDIA B200, B200",
        "NVIDIA GB10, GB10",
        "NVIDIA GeForce RTX 2080 Ti, GeForce RTX 2080 Ti",
        "8x GeForce RTX 4090 server, GeForce RTX 4090",
        "NVIDIA L40S, L40S",
        // spellings of nvidia-smi, nccl-tests rank lines, NCCL XML and cloud documentation
        "H100-SXM5-80GB, H100 SXM",
        "NVIDIA_H100_80GB_HBM3, H100 SXM",
        "Tesla T4, T4",
        "NVIDIA RTX PRO 6000 Blackwell Server Edition, RTX PRO 6000 Blackwell",
        "NVIDIA RTX PRO 6000 Blackwell Workstation Edition, RTX PRO 6000 Blackwell",
        "2x8xRTX6000D Spectrum-X, RTX PRO 6000D",
        "NVIDIA RTX PRO 6000D, RTX PRO 6000D",
        "'5K Pro' (GPUs print as 'NVIDIA Graphics Device'; presumably RTX PRO 5000-class), RTX PRO 5000 Blackwell",
        "OCI BM.GPU.GB200.4: 4x NVIDIA GB200 per host (shown as 'NVIDIA Graphics Device'), GB200",
        "NVIDIA H800 80GB HBM3, H800 SXM",
        "NVIDIA A800-SXM4-80GB, A800 SXM",
        "NVIDIA A10G, A10",
        "AWS g5.48xlarge: 8x NVIDIA A10G, A10",
        "Tesla V100-PCIE-32GB, V100 PCIe",
        "Tesla V100-SXM2-32GB, V100 SXM2",
        "NVIDIA L4, L4",
        "NVIDIA L40, L40",
        "NVIDIA H200 NVL, H200 NVL (NVLink bridge)",
        "NVIDIA B300 SXM6 AC, B300",
        "NVIDIA GB300 Grace Blackwell Ultra, GB300",
        "NVIDIA RTX 6000 Ada Generation, RTX 6000 Ada",
        "NVIDIA GeForce RTX 3090, GeForce RTX 3090",
        "NVIDIA GeForce RTX 5090, GeForce RTX 5090",
    })
    void freeTextFindsTheModel(String text, String model) {
        assertEquals(model, GpuModels.find(text).orElseThrow().name());
    }

    @Test
    void unknownTextFindsNothing() {
        assertTrue(GpuModels.find("AMD Instinct MI300X").isEmpty());
        assertTrue(GpuModels.find(null).isEmpty());
        assertTrue(GpuModels.byName("H100").isEmpty()); // a bare family name is not an exact alias
        // the driver's placeholder for a GPU its name table lacks (GB200 and RTX PRO 5000 files print it)
        assertTrue(GpuModels.find("NVIDIA Graphics Device").isEmpty());
        assertTrue(GpuModels.find(" Graphics Device ").isEmpty());
        assertTrue(GpuModels.find("NVIDIA A100 400W").map(GpuModel::name).filter("A10"::equals).isEmpty());
    }

    @ParameterizedTest
    @CsvSource({
        // PCI ID database (pci-ids.ucw.cz), vendor 10de
        "0x1db1, V100-SXM2-16GB",
        "0x1db5, V100-SXM2-32GB",
        "0x20b0, A100-SXM4-40GB",
        "0x20b2, A100-SXM4-80GB",
        "0x20b5, A100-PCIE-80GB",
        "0x2330, H100-SXM5-80GB",
        "0x2335, H200-SXM-141GB",
        // pci.ids 2023.04.10 (Debian package pci.ids 0.0~2023.04.11-1): 1eb8 TU104GL [Tesla T4], 2236/2237
        // GA102GL [A10]/[A10G], 2331 GH100 [H100 PCIe], 2684 AD102 [GeForce RTX 4090], 26b5 AD102GL [L40],
        // 27b8 AD104GL [L4]
        "0x1eb8, T4",
        "0x2236, A10",
        "0x2237, A10G",
        "0x2331, H100-PCIE-80GB",
        "0x2684, GeForce RTX 4090",
        "0x26b5, L40",
        "0x27b8, L4",
        // PCI ID database: 26b9 AD102GL [L40S] (lspci -nn prints "AD102GL [L40S] [10de:26b9]"); an NCCL XML or an
        // export of an L40S host names its model by it
        "0x26b9, L40S",
    })
    void pciDeviceIds(String id, String sku) {
        assertEquals(sku, GpuModels.byPciDeviceId(Integer.decode(id)).orElseThrow().variant().name());
    }

    @Test
    void bySmAndNvlinkOfSm() {
        assertTrue(GpuModels.bySm(90).stream().map(GpuModel::name).toList().containsAll(List.of("H100 SXM", "H200")));
        assertEquals(NvlinkGen.NVLINK1, GpuModels.nvlinkOfSm(60).orElseThrow());
        assertEquals(NvlinkGen.NVLINK2, GpuModels.nvlinkOfSm(70).orElseThrow());
        assertEquals(NvlinkGen.NVLINK2, GpuModels.nvlinkOfSm(75).orElseThrow()); // Quadro RTX bridge
        assertEquals(NvlinkGen.NVLINK3, GpuModels.nvlinkOfSm(80).orElseThrow());
        assertEquals(NvlinkGen.NVLINK3_GA10X_BRIDGE, GpuModels.nvlinkOfSm(86).orElseThrow());
        assertEquals(NvlinkGen.NVLINK4, GpuModels.nvlinkOfSm(90).orElseThrow());
        assertEquals(NvlinkGen.NVLINK5, GpuModels.nvlinkOfSm(100).orElseThrow());
        assertTrue(GpuModels.nvlinkOfSm(89).isEmpty()); // L40S, RTX 4090: no NVLink
        assertEquals(List.of(60, 70, 75, 80, 86, 90, 100, 103), GpuModels.nvlinkSms());
    }

    @ParameterizedTest
    @CsvSource({
        // model, datasheet NVLink GB/s per direction (bidirectional / 2), datasheet PCIe x16 GB/s, memory GB/s
        "H100 SXM, 450, 63.015, 3350",   // H100: 900 GB/s NVLink, PCIe Gen5 (32 GT/s x 128/130 / 8 x 16)
        "H200, 450, 63.015, 4800",
        "A100 SXM, 300, 31.508, 2039",   // A100: 600 GB/s NVLink, PCIe Gen4
        "V100 SXM2, 150, 15.754, 900",   // V100: 300 GB/s NVLink, PCIe Gen3
        "B200, 900, 121.0, 8000",        // Blackwell: 1.8 TB/s NVLink, PCIe Gen6 (64 GT/s x 242/256 / 8 x 16)
        "H100 PCIe (NVLink bridge), 300, 63.015, 2000",
        "L40S, 0, 31.508, 864",
        "H800 SXM, 200, 63.015, 3350",   // H800: NVLink 400 GB/s bidirectional (8 links)
        "A800 SXM, 200, 31.508, 2039",   // A800: NVLink 400 GB/s bidirectional
        "H200 NVL (NVLink bridge), 450, 63.015, 4800", // H200 NVL: bridge 900 GB/s per GPU
        "B300, 900, 121.0, 8000",        // HGX B300: 1.8 TB/s NVLink, PCIe Gen6
        "GeForce RTX 3090, 56.25, 31.508, 936", // GA102: NVLink bridge 112.5 GB/s bidirectional
        "V100 PCIe, 0, 15.754, 900",     // V100 PCIe: no NVLink, PCIe Gen3 (8 GT/s x 128/130 / 8 x 16)
        "T4, 0, 15.754, 320",
        "A10, 0, 31.508, 600",
        "L4, 0, 31.508, 300",
        "GeForce RTX 5090, 0, 63.015, 1792",
    })
    void datasheetLinkAndMemoryFigures(String name, double nvlink, double pcie, double memory) {
        GpuModel m = GpuModels.byName(name).orElseThrow();
        assertEquals(nvlink, m.nvlinkPhysical().gbps(), 1e-9);
        assertEquals(pcie, m.pciePhysical().gbps(), 0.001);
        assertEquals(memory, m.memoryGBps(), 0);
        assertEquals(nvlink > 0 ? nvlink : pcie, m.intraHostPhysical().gbps(), 0.001);
    }

    @ParameterizedTest
    @CsvSource({
        // model, dense BF16-or-FP16, TF32, FP32 (datasheet; with-sparsity tensor figures halved)
        "H100 SXM, 989e12, 494.5e12, 67e12",   // H100 SXM: BF16 1,979 T and TF32 989 T with sparsity
        "A100 SXM, 312e12, 156e12, 19.5e12",   // A100: BF16 312 T dense, TF32 156 T dense
        "B200, 2.25e15, 1.125e15, 75e12",      // HGX B200 per 8 GPUs: BF16 36 P, TF32 18 P sparse; FP32 600 T
        "GB200, 2.5e15, 1.25e15, 80e12",       // GB200 NVL72 per 72 GPUs: BF16 360 P, TF32 180 P sparse; 5,760 T
        "L40S, 362.05e12, 183e12, 91.6e12",    // L40S: BF16 733 T, TF32 366 T with sparsity
        "A10, 125e12, 62.5e12, 31.2e12",       // A10: BF16 250 T, TF32 125 T with sparsity
        "L4, 121e12, 60e12, 30.3e12",          // L4: BF16 242 T, TF32 120 T with sparsity
        "B300, 2.25e15, 1.125e15, 75e12",      // HGX B300 per 8 GPUs: BF16 36 P, TF32 18 P sparse; FP32 600 T
        "H800 SXM, 989e12, 494.5e12, 67e12",   // H800 SXM: same compute as H100 SXM
    })
    void peakFlops(String name, double half, double tf32, double fp32) {
        GpuModel m = GpuModels.byName(name).orElseThrow();
        assertEquals(half, m.halfPrecisionFlops().orElseThrow(), half * 1e-9);
        assertEquals(tf32, m.flops(Precision.TF32).orElseThrow(), tf32 * 1e-9);
        assertEquals(fp32, m.flops(Precision.FP32).orElseThrow(), fp32 * 1e-9);
    }

    @Test
    void formatsAModelLacksAreAbsent() {
        GpuModel v100 = GpuModels.byName("V100 SXM2").orElseThrow();
        assertFalse(v100.flops(Precision.BF16).isPresent()); // Volta has no BF16
        assertFalse(v100.flops(Precision.TF32).isPresent());
        assertEquals(125e12, v100.halfPrecisionFlops().orElseThrow(), 0); // FP16 tensor, V100 datasheet
        assertFalse(GpuModels.byName("A100 SXM").orElseThrow().flops(Precision.FP8).isPresent());
        assertEquals(1979e12, GpuModels.byName("H100 SXM").orElseThrow().flops(Precision.FP8).orElseThrow(), 0);
    }

    @Test
    void nvlsNeedsNvSwitchAndHopper() {
        assertTrue(GpuModels.byName("H100 SXM").orElseThrow().nvls());
        assertFalse(GpuModels.byName("A100 SXM").orElseThrow().nvls()); // sm80
        assertFalse(GpuModels.byName("GH200").orElseThrow().nvls()); // no NVSwitch in one host
        assertTrue(GpuModels.byName("H800 SXM").orElseThrow().nvls()); // HGX H800: NVSwitch
        assertFalse(GpuModels.byName("H200 NVL (NVLink bridge)").orElseThrow().nvls()); // bridges, no NVSwitch
    }

    /**
     * The H100 NVL without its bridge (NVIDIA H100 NVL datasheet: 12 NVLink4 over the bridge, PCIe Gen5 x16): no
     * NVLink, so its host link is PCIe Gen5 x16 alone; a model without NVLink comes back as itself.
     */
    @Test
    void withoutNvlinkDropsTheBridgeOnly() {
        GpuModel nvl = GpuModels.byName("H100 NVL").orElseThrow();
        assertEquals(12, nvl.nvlinks());
        GpuModel bare = nvl.withoutNvlink();
        assertFalse(bare.hasNvlink());
        assertEquals(nvl.name(), bare.name());
        assertEquals(PcieGen.GEN5, bare.pcieGen());
        assertEquals(16, bare.pcieWidth());
        assertSame(bare, bare.withoutNvlink());
    }
}
