package dev.collsim.validation.diagnose;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What one GPU can move, per direction, for the bounds diagnose compares against.
 *
 * <p>{@code nvlinkModel} is NCCL's own figure (links x per-link bandwidth, NCCL 2.30 {@code src/graph/topo.h}: SM70
 * and SM80 20 GB/s, SM90 20.6 GB/s, SM100 40.1 GB/s per link) — what NCCL's search can reach and what well-tuned
 * runs reach (about 230 GB/s A100, 370 GB/s H100 ring). {@code nvlinkPeak} is the datasheet figure (NVIDIA V100,
 * A100, H100, H200, H20, B200, GB200 datasheets: 25 GB/s per link per direction for NVLink 2-4, 50 GB/s for
 * NVLink 5); a measurement above the peak-based bound cannot be true. PCIe: NCCL's model uses 12, 24, 48, 96 GB/s
 * for Gen3-Gen6 x16 ({@code topo.cc}); datasheet peaks are 15.75, 31.5, 63, 121 GB/s. {@code memoryBw} is the
 * datasheet HBM/GDDR bandwidth (GB/s), the ceiling of any copy on one GPU.
 *
 * @param name        catalog name
 * @param nvlinks     NVLink links per GPU (0 = none)
 * @param nvlinkModel per-GPU NVLink bandwidth in NCCL's model, GB/s
 * @param nvlinkPeak  per-GPU NVLink datasheet bandwidth per direction, GB/s
 * @param nvSwitch    true when GPUs of a host meet in NVSwitches (all-to-all NVLink), false for pairs/meshes
 * @param nvls        true when NVLink SHARP (NVLS) is possible (NVSwitch and sm90+)
 * @param pcieGen     PCIe generation of the GPU's x16 link
 * @param memoryBw    device memory bandwidth, GB/s (datasheet)
 */
public record GpuSpec(String name, int nvlinks, double nvlinkModel, double nvlinkPeak, boolean nvSwitch,
        boolean nvls, int pcieGen, double memoryBw) {

    private record Entry(Pattern pattern, GpuSpec spec) {
    }

    private static final List<Entry> CATALOG = List.of(
            e("gb300", new GpuSpec("GB300", 18, 721.8, 900, true, true, 6, 8000)),
            e("gb200|graphics device", new GpuSpec("GB200", 18, 721.8, 900, true, true, 6, 8000)),
            e("gb10\\b", new GpuSpec("GB10", 0, 0, 0, false, false, 5, 273)),
            e("b200", new GpuSpec("B200", 18, 721.8, 900, true, true, 6, 8000)),
            e("gh200", new GpuSpec("GH200", 18, 370.8, 450, false, false, 5, 4000)),
            e("h200", new GpuSpec("H200", 18, 370.8, 450, true, true, 5, 4800)),
            e("h20\\b|h20-", new GpuSpec("H20", 18, 370.8, 450, true, true, 5, 4000)),
            e("h100 nvl|h100 pcie|h100-pcie|h100pcie", new GpuSpec("H100 PCIe/NVL (NVLink bridge)", 12, 247.2, 300,
                    false, false, 5, 3900)),
            e("h100", new GpuSpec("H100 SXM", 18, 370.8, 450, true, true, 5, 3350)),
            e("a100.*pcie|a100pcie", new GpuSpec("A100 PCIe (NVLink bridge pairs)", 12, 240, 300, false, false, 4,
                    1935)),
            e("a100", new GpuSpec("A100 SXM", 12, 240, 300, true, false, 4, 2039)),
            e("v100", new GpuSpec("V100 SXM2", 6, 120, 150, false, false, 3, 900)),
            e("rtx pro 6000|rtxpro6000", new GpuSpec("RTX PRO 6000 Blackwell", 0, 0, 0, false, false, 5, 1792)),
            e("4090", new GpuSpec("GeForce RTX 4090", 0, 0, 0, false, false, 4, 1008)),
            e("l40s", new GpuSpec("L40S", 0, 0, 0, false, false, 4, 864)),
            e("2080 ?ti", new GpuSpec("GeForce RTX 2080 Ti", 0, 0, 0, false, false, 3, 616)));

    private static Entry e(String regex, GpuSpec s) {
        return new Entry(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), s);
    }

    /**
     * @param model GPU name as printed by nccl-tests or a header's hardware text
     * @return the spec of the first catalog entry matching, if any
     */
    public static Optional<GpuSpec> lookup(String model) {
        String m = model == null ? "" : model.toLowerCase(Locale.ROOT);
        for (Entry en : CATALOG) {
            if (en.pattern().matcher(m).find()) {
                return Optional.of(en.spec());
            }
        }
        return Optional.empty();
    }

    /** @return NCCL's PCIe x16 bandwidth for the generation, GB/s (12 x 2^(gen-3)) */
    public double pcieModel() {
        return 12.0 * Math.pow(2, pcieGen - 3);
    }

    /** @return datasheet PCIe x16 bandwidth per direction, GB/s (15.75 x 2^(gen-3)) */
    public double pciePeak() {
        return 15.75 * Math.pow(2, pcieGen - 3);
    }

    /** @return true when the GPU has NVLink */
    public boolean hasNvlink() {
        return nvlinks > 0;
    }

    /** @return the per-GPU intra-host bandwidth in NCCL's model: NVLink if any, else PCIe, GB/s */
    public double intraModel() {
        return hasNvlink() ? nvlinkModel : pcieModel();
    }

    /** @return the per-GPU intra-host datasheet bandwidth, GB/s */
    public double intraPeak() {
        return hasNvlink() ? nvlinkPeak : pciePeak();
    }
}
