package dev.collsim.hardware;

import dev.collsim.hardware.GpuModel.Sources;
import dev.collsim.hardware.GpuModel.Variant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The records of the GPU-model database, in lookup order: a model whose free-text rule would also match a later one's
 * text comes first ("GB200" before "B200", "H100 PCIe" before "H100"). Figures are per GPU; FLOP/s are dense (the
 * datasheets' "with sparsity" tensor figures halved). Memory is the datasheet's figure in the datasheet's unit: its
 * "GB" of memory capacity is the JEDEC gigabyte, 2^30 B (JEDEC Standard 100B.01: K, M, G as prefixes to semiconductor
 * storage capacity are 2^10, 2^20, 2^30), so {@code 80 * GIB}. nvidia-smi shows that is what the parts hold: an "80GB"
 * A100 as 81,920 MiB = 80 GiB exactly, an "80GB HBM3" H100 as 81,559 MiB (79.6 GiB, the rest reserved), an "141GB"
 * H200 as 143,771 MiB (140.4 GiB; measured on an H200, driver 580.159.04) and an "180GB" B200 as 183,359 MiB
 * (179.1 GiB; NVIDIA/TensorRT-LLM issue 10278, driver 580.95.05), more than 141 x 10^9 B = 134,465 MiB or 180 x 10^9 B
 * = 171,661 MiB could be. Package-private: read it through {@link GpuModels}.
 */
final class GpuModelTable {

    private static final double NONE = Double.NaN;
    private static final long GIB = 1L << 30;

    /** The database, in lookup order. */
    static final List<GpuModel> MODELS = List.of(
            new GpuModel("GB300", 103, List.of(new Variant("GB300", -1, 288 * GIB, 8000)),
                    List.of("NVIDIA GB300"), "gb300", NvlinkGen.NVLINK5, 18, true, PcieGen.GEN6, 16,
                    flops(5e15, 2.5e15, 2.5e15, 1.25e15, 6e15 / 72),
                    new Sources("NVIDIA GB300 NVL72 datasheet (NVLink5 1.8 TB/s per GPU, PCIe Gen6)",
                            "GB300 NVL72 datasheet: 288 GB HBM3e, 8 TB/s per GPU",
                            "GB300 NVL72 datasheet per 72-GPU rack with sparsity: FP8 720 P, BF16 360 P, TF32 180 P;"
                                    + " FP32 6 P dense")),
            new GpuModel("GB200", 100, List.of(new Variant("B200 (GB200)", -1, 186 * GIB, 8000)),
                    List.of("NVIDIA GB200", "GB200"), "gb200",
                    NvlinkGen.NVLINK5, 18, true, PcieGen.GEN6, 16, flops(5e15, 2.5e15, 2.5e15, 1.25e15, 80e12),
                    new Sources("NVIDIA GB200 NVL72 datasheet (NVLink5 1.8 TB/s per GPU; 130 TB/s per 72 GPUs)",
                            "GB200 NVL72 datasheet: up to 372 GB HBM3e per GB200 superchip of 2 GPUs (186 GB"
                                    + " each; 13.4 TB per 72 GPUs), 8 TB/s per GPU",
                            "GB200 NVL72 datasheet per 72-GPU rack with sparsity: FP8 720 P, BF16 360 P, TF32 180 P;"
                                    + " FP32 5,760 T dense")),
            new GpuModel("GB10", 121, List.of(new Variant("GB10", -1, 128 * GIB, 273)),
                    List.of("NVIDIA GB10"), "gb10\\b", null, 0, false, PcieGen.GEN5, 16, Map.of(),
                    new Sources("NVIDIA DGX Spark datasheet (no NVLink; ConnectX-7 on PCIe Gen5)",
                            "DGX Spark datasheet: 128 GB LPDDR5x, 273 GB/s", "datasheet gives FP4 only: none here")),
            new GpuModel("B300", 103, List.of(new Variant("B300-SXM6-288GB", -1, 288 * GIB, 8000)),
                    List.of("NVIDIA B300", "NVIDIA B300 SXM6 AC", "HGX B300"), "\\bb300", NvlinkGen.NVLINK5, 18, true,
                    PcieGen.GEN6, 16, flops(4.5e15, 2.25e15, 2.25e15, 1.125e15, 75e12),
                    new Sources("NVIDIA HGX B300 datasheet (NVLink5 1.8 TB/s per GPU, 18 links; PCIe Gen6)",
                            "HGX B300 datasheet: 2.3 TB HBM3e per 8 GPUs (288 GB each), 8 TB/s per GPU",
                            "HGX B300 datasheet per 8 GPUs with sparsity: FP8 72 P, BF16 36 P, TF32 18 P; FP32 600 T")),
            new GpuModel("B200", 100, List.of(new Variant("B200-180GB", -1, 180 * GIB, 8000)),
                    List.of("NVIDIA B200", "HGX B200"), "b200", NvlinkGen.NVLINK5, 18, true, PcieGen.GEN6, 16,
                    flops(4.5e15, 2.25e15, 2.25e15, 1.125e15, 75e12),
                    new Sources("NVIDIA HGX B200 datasheet (NVLink5 1.8 TB/s per GPU, 18 links; PCIe Gen6)",
                            "DGX B200 datasheet: 1,440 GB per 8 GPUs; HGX B200: 8 TB/s per GPU",
                            "HGX B200 datasheet per 8 GPUs with sparsity: FP8 72 P, BF16 36 P, TF32 18 P; FP32 600 T")),
            new GpuModel("GH200", 90, List.of(new Variant("GH200 96GB", -1, 96 * GIB, 4000),
                    new Variant("GH200 144GB", -1, 144 * GIB, 4900)),
                    List.of("NVIDIA GH200 120GB", "NVIDIA GH200 480GB"), "gh200", NvlinkGen.NVLINK4, 18, false,
                    PcieGen.GEN5, 16, flops(1979e12, 989e12, 989e12, 494.5e12, 67e12),
                    new Sources("NVIDIA GH200 Grace Hopper datasheet (18 NVLink4, 900 GB/s; NVLink-C2C to Grace)",
                            "GH200 datasheet: 96 GB HBM3 4 TB/s, 144 GB HBM3e 4.9 TB/s",
                            "GH200 datasheet with sparsity: FP8 3,958 T, BF16 1,979 T, TF32 989 T; FP32 67 T")),
            new GpuModel("H200 NVL (NVLink bridge)", 90, List.of(new Variant("H200-NVL-141GB", -1,
                    141 * GIB, 4800)), List.of("NVIDIA H200 NVL", "H200 NVL"), "h200 ?nvl", NvlinkGen.NVLINK4,
                    18, false, PcieGen.GEN5, 16, flops(1670.5e12, 835.5e12, 835.5e12, 417.5e12, 60e12),
                    new Sources("NVIDIA H200 datasheet, H200 NVL column (2- or 4-way NVLink bridge 900 GB/s per GPU;"
                            + " PCIe Gen5 128 GB/s)", "H200 datasheet: H200 NVL 141 GB HBM3e, 4.8 TB/s",
                            "H200 NVL datasheet with sparsity: FP8 3,341 T, BF16 1,671 T, TF32 835 T; FP32 60 T")),
            new GpuModel("H200", 90, List.of(new Variant("H200-SXM-141GB", 0x2335, 141 * GIB, 4800)),
                    List.of("NVIDIA H200", "H200-SXM5-141GB", "H200 SXM"), "h200", NvlinkGen.NVLINK4, 18, true,
                    PcieGen.GEN5, 16, flops(1979e12, 989e12, 989e12, 494.5e12, 67e12),
                    new Sources("NVIDIA H200 datasheet (NVLink4 900 GB/s, PCIe Gen5 128 GB/s)",
                            "H200 datasheet: 141 GB HBM3e, 4.8 TB/s; PCI ID database 10de:2335",
                            "H200 SXM datasheet with sparsity: FP8 3,958 T, BF16 1,979 T, TF32 989 T; FP32 67 T")),
            new GpuModel("H800 SXM", 90, List.of(new Variant("H800-SXM5-80GB", -1, 80 * GIB, 3350)),
                    List.of("NVIDIA H800", "NVIDIA H800 80GB HBM3", "H800 SXM"), "h800", NvlinkGen.NVLINK4, 8, true,
                    PcieGen.GEN5, 16, flops(1979e12, 989e12, 989e12, 494.5e12, 67e12),
                    new Sources("NVIDIA H800 datasheet, SXM column (NVLink 400 GB/s bidirectional: 8 NVLink4; PCIe"
                            + " Gen5)", "H800 datasheet: 80 GB HBM3, 3.35 TB/s",
                            "H800 SXM datasheet with sparsity: FP8 3,958 T, BF16 1,979 T, TF32 989 T; FP32 67 T")),
            new GpuModel("H20", 90, List.of(new Variant("H20", -1, 96 * GIB, 4000)),
                    List.of("NVIDIA H20", "NVIDIA H20-3e"), "h20\\b|h20-", NvlinkGen.NVLINK4, 18, true,
                    PcieGen.GEN5, 16, Map.of(),
                    new Sources("NVIDIA HGX H20 product brief (NVLink4 900 GB/s, PCIe Gen5)",
                            "HGX H20 product brief: 96 GB HBM3, 4.0 TB/s", "no public NVIDIA datasheet: none here")),
            new GpuModel("H100 PCIe (NVLink bridge)", 90,
                    List.of(new Variant("H100-PCIE-80GB", 0x2331, 80 * GIB, 2000)),
                    List.of("NVIDIA H100 PCIe", "H100 PCIe"), "h100[ -]?pcie", NvlinkGen.NVLINK4, 12, false,
                    PcieGen.GEN5, 16, flops(1513e12, 756e12, 756e12, 378e12, 51e12),
                    new Sources("NVIDIA H100 datasheet, H100 PCIe column (NVLink bridge 600 GB/s: 12 NVLink4)",
                            "H100 datasheet: H100 PCIe 80 GB HBM2e, 2 TB/s; PCI ID database 10de:2331",
                            "H100 PCIe datasheet with sparsity: FP8 3,026 T, BF16 1,513 T, TF32 756 T; FP32 51 T")),
            new GpuModel("H100 NVL (NVLink bridge)", 90,
                    List.of(new Variant("H100-NVL-94GB", -1, 94 * GIB, 3900)),
                    List.of("NVIDIA H100 NVL", "H100 NVL"), "h100 ?nvl", NvlinkGen.NVLINK4, 12, false,
                    PcieGen.GEN5, 16, flops(1670.5e12, 835e12, 835e12, 417.5e12, 60e12),
                    new Sources("NVIDIA H100 NVL datasheet (NVLink bridge 600 GB/s: 12 NVLink4; PCIe Gen5 128 GB/s)",
                            "H100 NVL datasheet: 94 GB HBM3, 3.9 TB/s",
                            "H100 NVL datasheet with sparsity: FP8 3,341 T, BF16 1,671 T, TF32 835 T; FP32 60 T")),
            new GpuModel("H100 SXM", 90, List.of(new Variant("H100-SXM5-80GB", 0x2330, 80 * GIB, 3350)),
                    List.of("NVIDIA H100 80GB HBM3", "NVIDIA H100", "H100-SXM5", "H100 SXM", "H100 80GB HBM3"),
                    "h100", NvlinkGen.NVLINK4, 18, true, PcieGen.GEN5, 16,
                    flops(1979e12, 989e12, 989e12, 494.5e12, 67e12),
                    new Sources("NVIDIA H100 datasheet, H100 SXM column (NVLink4 900 GB/s, 18 links; PCIe Gen5)",
                            "H100 datasheet: H100 SXM 80 GB HBM3, 3.35 TB/s; PCI ID database 10de:2330",
                            "H100 SXM datasheet with sparsity: FP8 3,958 T, BF16 1,979 T, TF32 989 T; FP32 67 T")),
            new GpuModel("A800 SXM", 80, List.of(new Variant("A800-SXM4-80GB", -1, 80 * GIB, 2039)),
                    List.of("NVIDIA A800-SXM4-80GB", "A800-SXM4", "A800 SXM"), "a800", NvlinkGen.NVLINK3, 8, true,
                    PcieGen.GEN4, 16, flops(NONE, 312e12, 312e12, 156e12, 19.5e12),
                    new Sources("NVIDIA A800 datasheet, SXM column (NVLink 400 GB/s bidirectional: 8 NVLink3; PCIe"
                            + " Gen4)", "A800 datasheet: 80 GB HBM2e, 2,039 GB/s",
                            "A800 datasheet: BF16/FP16 312 T, TF32 156 T (dense), FP32 19.5 T; no FP8")),
            new GpuModel("A100 PCIe (NVLink bridge pairs)", 80,
                    List.of(new Variant("A100-PCIE-80GB", 0x20b5, 80 * GIB, 1935),
                            new Variant("A100-PCIE-40GB", -1, 40 * GIB, 1555)),
                    List.of("NVIDIA A100 80GB PCIe", "NVIDIA A100-PCIE-40GB", "A100 PCIe"), "a100.*pcie|a100pcie",
                    NvlinkGen.NVLINK3, 12, false, PcieGen.GEN4, 16, flops(NONE, 312e12, 312e12, 156e12, 19.5e12),
                    new Sources("NVIDIA A100 datasheet, PCIe column (NVLink bridge 600 GB/s for 2 GPUs; PCIe Gen4)",
                            "A100 datasheet: 80 GB HBM2e 1,935 GB/s, 40 GB HBM2 1,555 GB/s; PCI ID database 10de:20b5",
                            "A100 datasheet: BF16/FP16 312 T, TF32 156 T (dense), FP32 19.5 T; no FP8")),
            new GpuModel("A100 SXM", 80, List.of(new Variant("A100-SXM4-80GB", 0x20b2, 80 * GIB, 2039),
                    new Variant("A100-SXM4-40GB", 0x20b0, 40 * GIB, 1555)),
                    List.of("NVIDIA A100-SXM4-80GB", "NVIDIA A100-SXM4-40GB", "A100-SXM4", "A100 SXM"), "a100",
                    NvlinkGen.NVLINK3, 12, true, PcieGen.GEN4, 16, flops(NONE, 312e12, 312e12, 156e12, 19.5e12),
                    new Sources("NVIDIA A100 datasheet, SXM column (NVLink3 600 GB/s, 12 links; PCIe Gen4)",
                            "A100 datasheet: 80 GB HBM2e 2,039 GB/s, 40 GB HBM2 1,555 GB/s; PCI ID database"
                                    + " 10de:20b2, 10de:20b0",
                            "A100 datasheet: BF16/FP16 312 T, TF32 156 T (dense), FP32 19.5 T; no FP8")),
            new GpuModel("A10", 86, List.of(new Variant("A10", 0x2236, 24 * GIB, 600), new Variant("A10G", 0x2237,
                    24 * GIB, 600)), List.of("NVIDIA A10", "NVIDIA A10G"), "\\ba10g?\\b", null, 0, false,
                    PcieGen.GEN4, 16, flops(NONE, 125e12, 125e12, 62.5e12, 31.2e12),
                    new Sources("NVIDIA A10 datasheet (PCIe Gen4 x16, no NVLink); A10G: AWS EC2 G5 instance page",
                            "A10 datasheet: 24 GB GDDR6, 600 GB/s; AWS G5: A10G 24 GB; PCI ID database 10de:2236,"
                                    + " 10de:2237",
                            "A10 datasheet with sparsity: BF16 250 T, TF32 125 T; FP32 31.2 T")),
            new GpuModel("V100 PCIe", 70, List.of(new Variant("V100-PCIE-16GB", -1, 16 * GIB, 900),
                    new Variant("V100-PCIE-32GB", -1, 32 * GIB, 900)),
                    List.of("Tesla V100-PCIE-16GB", "Tesla V100-PCIE-32GB", "V100 PCIe"), "v100[ -]?pcie", null, 0,
                    false, PcieGen.GEN3, 16, flops(NONE, NONE, 112e12, NONE, 14e12),
                    new Sources("NVIDIA Tesla V100 datasheet, PCIe column (PCIe Gen3 x16, 32 GB/s; no NVLink)",
                            "V100 datasheet: 16 or 32 GB HBM2, 900 GB/s",
                            "V100 datasheet PCIe: tensor (FP16) 112 T, FP32 14 T; no BF16, TF32 or FP8")),
            new GpuModel("V100 SXM2", 70, List.of(new Variant("V100-SXM2-32GB", 0x1db5, 32 * GIB, 900),
                    new Variant("V100-SXM2-16GB", 0x1db1, 16 * GIB, 900)),
                    List.of("Tesla V100-SXM2-32GB", "Tesla V100-SXM2-16GB", "Tesla V100 SXM2", "V100 SXM2"), "v100",
                    NvlinkGen.NVLINK2, 6, false, PcieGen.GEN3, 16, flops(NONE, NONE, 125e12, NONE, 15.7e12),
                    new Sources("NVIDIA Tesla V100 datasheet, SXM2 column (NVLink2 300 GB/s, 6 links; PCIe Gen3)",
                            "V100 datasheet: 16 or 32 GB HBM2, 900 GB/s; PCI ID database 10de:1db5, 10de:1db1",
                            "V100 datasheet SXM2: tensor (FP16) 125 T, FP32 15.7 T; no BF16, TF32 or FP8")),
            new GpuModel("RTX PRO 6000D", 120, List.of(new Variant("RTX PRO 6000D", -1, 84 * GIB, 1398)),
                    List.of("NVIDIA RTX PRO 6000D", "NVIDIA RTX 6000D"), "rtx ?(pro ?)?6000d", null, 0, false,
                    PcieGen.GEN5, 16, Map.of(),
                    new Sources("no NVIDIA datasheet; press reports of the China-market RTX PRO 6000 Blackwell"
                            + " variant (PCIe Gen5 x16, no NVLink)", "press reports: 84 GB GDDR7, 1.398 TB/s",
                            "no datasheet figures: none here")),
            new GpuModel("RTX PRO 5000 Blackwell", 120,
                    List.of(new Variant("RTX PRO 5000 Blackwell", -1, 48 * GIB, 1344)),
                    List.of("NVIDIA RTX PRO 5000 Blackwell"), "rtx ?pro ?5000", null, 0, false, PcieGen.GEN5, 16,
                    Map.of(), new Sources("NVIDIA RTX PRO 5000 Blackwell datasheet (PCIe Gen5 x16, no NVLink)",
                            "datasheet: 48 GB GDDR7, 1,344 GB/s", "datasheet gives FP4 AI TOPS only: none here")),
            new GpuModel("RTX PRO 6000 Blackwell", 120,
                    List.of(new Variant("RTX PRO 6000 Blackwell", -1, 96 * GIB, 1792)),
                    List.of("NVIDIA RTX PRO 6000 Blackwell Server Edition"), "rtx pro 6000|rtxpro6000", null, 0,
                    false, PcieGen.GEN5, 16, flops(NONE, 500e12, 500e12, NONE, 125e12),
                    new Sources("NVIDIA RTX PRO 6000 Blackwell Server Edition datasheet (PCIe Gen5 x16, no NVLink)",
                            "datasheet: 96 GB GDDR7, 1,792 GB/s",
                            "datasheet: FP4 4,000 T with sparsity, so BF16 about 500 T dense; FP32 125 T")),
            new GpuModel("GeForce RTX 5090", 120, List.of(new Variant("GeForce RTX 5090", -1, 32 * GIB, 1792)),
                    List.of("NVIDIA GeForce RTX 5090"), "5090", null, 0, false, PcieGen.GEN5, 16,
                    flops(NONE, NONE, NONE, NONE, 104.8e12),
                    new Sources("NVIDIA GeForce RTX 5090 specifications page (PCIe Gen5 x16, no NVLink)",
                            "RTX 5090 specifications: 32 GB GDDR7, 1,792 GB/s",
                            "RTX 5090 specifications give FP4 AI TOPS only; FP32 104.8 T (21,760 cores x 2.41 GHz"
                                    + " x 2)")),
            new GpuModel("RTX 6000 Ada", 89, List.of(new Variant("RTX 6000 Ada", -1, 48 * GIB, 960)),
                    List.of("NVIDIA RTX 6000 Ada Generation"), "rtx 6000 ada", null, 0, false, PcieGen.GEN4, 16,
                    flops(728.5e12, NONE, NONE, NONE, 91.1e12),
                    new Sources("NVIDIA RTX 6000 Ada Generation datasheet (PCIe Gen4 x16, no NVLink)",
                            "RTX 6000 Ada datasheet: 48 GB GDDR6, 960 GB/s",
                            "RTX 6000 Ada datasheet: tensor 1,457 T (FP8 with sparsity); FP32 91.1 T")),
            new GpuModel("GeForce RTX 4090", 89, List.of(new Variant("GeForce RTX 4090", 0x2684, 24 * GIB, 1008)),
                    List.of("NVIDIA GeForce RTX 4090"), "4090", null, 0, false, PcieGen.GEN4, 16,
                    flops(330.3e12, 165.2e12, 165.2e12, 82.6e12, 82.6e12),
                    new Sources("NVIDIA Ada Lovelace architecture whitepaper (PCIe Gen4 x16, no NVLink)",
                            "Ada whitepaper: 24 GB GDDR6X, 1,008 GB/s; PCI ID database 10de:2684",
                            "Ada whitepaper RTX 4090 dense, FP32 accumulate: FP8 330.3 T, BF16/FP16 165.2 T, TF32"
                                    + " 82.6 T; FP32 82.6 T")),
            new GpuModel("L40", 89, List.of(new Variant("L40", 0x26b5, 48 * GIB, 864)), List.of("NVIDIA L40"),
                    "\\bl40\\b", null, 0, false, PcieGen.GEN4, 16, flops(362e12, 181e12, 181e12, 90.5e12, 90.5e12),
                    new Sources("NVIDIA L40 datasheet (PCIe Gen4 x16, no NVLink)",
                            "L40 datasheet: 48 GB GDDR6, 864 GB/s; PCI ID database 10de:26b5",
                            "L40 datasheet with sparsity: FP8 724 T, BF16 362 T, TF32 181 T; FP32 90.5 T")),
            new GpuModel("L4", 89, List.of(new Variant("L4", 0x27b8, 24 * GIB, 300)), List.of("NVIDIA L4"), "\\bl4\\b",
                    null, 0, false, PcieGen.GEN4, 16, flops(242.5e12, 121e12, 121e12, 60e12, 30.3e12),
                    new Sources("NVIDIA L4 datasheet (PCIe Gen4 x16, no NVLink)",
                            "L4 datasheet: 24 GB GDDR6, 300 GB/s; PCI ID database 10de:27b8",
                            "L4 datasheet with sparsity: FP8 485 T, BF16 242 T, TF32 120 T; FP32 30.3 T")),
            new GpuModel("GeForce RTX 3090", 86, List.of(new Variant("GeForce RTX 3090", -1, 24 * GIB, 936)),
                    List.of("NVIDIA GeForce RTX 3090"), "3090", NvlinkGen.NVLINK3_GA10X_BRIDGE, 4, false,
                    PcieGen.GEN4, 16, flops(NONE, 71e12, 71e12, 35.6e12, 35.6e12),
                    new Sources("NVIDIA Ampere GA102 whitepaper (NVLink bridge 112.5 GB/s bidirectional; PCIe Gen4)",
                            "GA102 whitepaper: RTX 3090 24 GB GDDR6X, 936 GB/s",
                            "GA102 whitepaper RTX 3090 dense, FP32 accumulate: FP16/BF16 71 T, TF32 35.6 T; FP32"
                                    + " 35.6 T")),
            new GpuModel("L40S", 89, List.of(new Variant("L40S", 0x26b9, 48 * GIB, 864)), List.of("NVIDIA L40S"),
                    "l40s", null, 0, false, PcieGen.GEN4, 16, flops(733e12, 362.05e12, 362.05e12, 183e12, 91.6e12),
                    new Sources("NVIDIA L40S datasheet (PCIe Gen4 x16, no NVLink)",
                            "L40S datasheet: 48 GB GDDR6, 864 GB/s; PCI ID database 10de:26b9",
                            "L40S datasheet with sparsity: FP8 1,466 T, BF16 733 T, TF32 366 T; FP32 91.6 T")),
            new GpuModel("GeForce RTX 2080 Ti", 75, List.of(new Variant("GeForce RTX 2080 Ti", -1, 11 * GIB, 616)),
                    List.of("NVIDIA GeForce RTX 2080 Ti"), "2080 ?ti", null, 0, false, PcieGen.GEN3, 16,
                    flops(NONE, NONE, 107.6e12, NONE, 13.4e12),
                    new Sources("NVIDIA Turing architecture whitepaper (PCIe Gen3 x16; the optional NVLink bridge is"
                            + " not modelled)", "Turing whitepaper: 11 GB GDDR6, 616 GB/s",
                            "Turing whitepaper RTX 2080 Ti Founders Edition: FP16 tensor 107.6 T, FP32 13.4 T")),
            new GpuModel("T4", 75, List.of(new Variant("T4", 0x1eb8, 16 * GIB, 320)),
                    List.of("Tesla T4", "NVIDIA T4"),
                    "\\bt4\\b", null, 0, false, PcieGen.GEN3, 16, flops(NONE, NONE, 65e12, NONE, 8.1e12),
                    new Sources("NVIDIA T4 datasheet (PCIe Gen3 x16, no NVLink)",
                            "T4 datasheet: 16 GB GDDR6, 320 GB/s; PCI ID database 10de:1eb8",
                            "T4 datasheet: mixed precision (FP16/FP32) 65 T, FP32 8.1 T; no BF16, TF32 or FP8")),
            new GpuModel("Quadro RTX 8000", 75, List.of(new Variant("Quadro RTX 8000", -1, 48 * GIB, 672),
                    new Variant("Quadro RTX 6000", -1, 24 * GIB, 672)),
                    List.of("Quadro RTX 8000"), "quadro rtx [68]000", NvlinkGen.NVLINK2, 2,
                    false, PcieGen.GEN3, 16, flops(NONE, NONE, 130.5e12, NONE, 16.3e12),
                    new Sources("NVIDIA Quadro RTX 8000 and RTX 6000 datasheets (NVLink bridge 100 GB/s"
                            + " bidirectional: 2 NVLink2)", "Quadro RTX 8000 datasheet: 48 GB GDDR6, 672 GB/s;"
                            + " Quadro RTX 6000 datasheet: 24 GB GDDR6, 672 GB/s (same TU102 board otherwise)",
                            "Quadro RTX 8000 datasheet: tensor (FP16) 130.5 T, FP32 16.3 T")),
            new GpuModel("RTX A6000", 86, List.of(new Variant("RTX A6000", -1, 48 * GIB, 768)),
                    List.of("NVIDIA RTX A6000"), "rtx a6000", NvlinkGen.NVLINK3_GA10X_BRIDGE, 4, false,
                    PcieGen.GEN4, 16, flops(NONE, NONE, NONE, NONE, 38.7e12),
                    new Sources("NVIDIA RTX A6000 datasheet (NVLink bridge 112.5 GB/s bidirectional; PCIe Gen4 x16)",
                            "RTX A6000 datasheet: 48 GB GDDR6, 768 GB/s",
                            "RTX A6000 datasheet: FP32 38.7 T (tensor figures given with sparsity only)")),
            new GpuModel("P100 SXM2", 60, List.of(new Variant("P100-SXM2-16GB", -1, 16 * GIB, 732)),
                    List.of("Tesla P100-SXM2-16GB"), "p100", NvlinkGen.NVLINK1, 4, false, PcieGen.GEN3, 16,
                    flops(NONE, NONE, 21.2e12, NONE, 10.6e12),
                    new Sources("NVIDIA Tesla P100 datasheet, SXM2 (NVLink1 160 GB/s, 4 links; PCIe Gen3)",
                            "P100 datasheet: 16 GB HBM2, 732 GB/s",
                            "P100 datasheet SXM2: FP16 21.2 T, FP32 10.6 T; no tensor cores")));

    private GpuModelTable() {
    }

    /** FLOP/s by format; NaN for a format the model lacks or no datasheet states. */
    private static Map<Precision, Double> flops(double fp8, double bf16, double fp16, double tf32, double fp32) {
        Map<Precision, Double> m = new EnumMap<>(Precision.class);
        double[] v = {fp8, bf16, fp16, tf32, fp32};
        Precision[] p = {Precision.FP8, Precision.BF16, Precision.FP16, Precision.TF32, Precision.FP32};
        for (int i = 0; i < v.length; i++) {
            if (!Double.isNaN(v[i])) {
                m.put(p[i], v[i]);
            }
        }
        return m;
    }
}
