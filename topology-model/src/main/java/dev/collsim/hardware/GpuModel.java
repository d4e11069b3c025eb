package dev.collsim.hardware;

import dev.collsim.units.Bandwidth;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.regex.Pattern;

/**
 * One GPU model of the database ({@link GpuModels}): what every board of the model shares (SM, NVLink, PCIe, peak
 * FLOP/s) and its memory variants (SKUs, each with its own name, PCI device id and memory). Immutable.
 *
 * @param name       the model's name as collsim prints it, e.g. {@code H100 SXM}
 * @param sm         compute capability x 10 (NCCL's {@code sm}), e.g. 90
 * @param variants   memory variants, the default (the one figures without a variant refer to) first; at least one
 * @param aliases    further exact spellings (nvidia-smi, NCCL logs, nccl-tests headers), e.g.
 *                   {@code NVIDIA H100 80GB HBM3}; variant names are aliases too
 * @param textRule   regular expression (case-insensitive, found anywhere) that recognises the model in free text such
 *                   as a data file's hardware header; {@link GpuModels} tries the rules in database order
 * @param nvlink     NVLink generation, or null when the model has no NVLink
 * @param nvlinks    NVLinks per GPU (0 without NVLink)
 * @param nvSwitch   true when GPUs of the model meet in NVSwitches (all-to-all NVLink), false for bridges, meshes or none
 * @param pcieGen    PCIe generation of the GPU's host link
 * @param pcieWidth  PCIe lanes of the GPU's host link
 * @param denseFlops peak dense (no sparsity) FLOP/s per number format; formats the model lacks or no datasheet states
 *                   are absent
 * @param sources    where the figures come from
 */
public record GpuModel(String name, int sm, List<Variant> variants, List<String> aliases, String textRule,
        NvlinkGen nvlink, int nvlinks, boolean nvSwitch, PcieGen pcieGen, int pcieWidth,
        Map<Precision, Double> denseFlops, Sources sources) {

    /**
     * One memory variant (SKU) of a model.
     *
     * @param name        the SKU name, as the PCI ID database or nvidia-smi spell it, e.g. {@code H100-SXM5-80GB}
     * @param pciDeviceId PCI device id (vendor 0x10de), or -1 when not recorded
     * @param memoryBytes device memory, bytes: the datasheet's "GB" as the JEDEC gigabyte, 2^30 B ({@code
     *                    GpuModelTable} gives the sources)
     * @param memoryGBps  device memory bandwidth, GB/s (1e9 B/s), datasheet
     */
    public record Variant(String name, int pciDeviceId, long memoryBytes, double memoryGBps) {
        /** @throws NullPointerException on a null name */
        public Variant {
            Objects.requireNonNull(name, "name");
        }
    }

    /**
     * Where a model's figures come from.
     *
     * @param links  NVLink and PCIe figures (datasheet name)
     * @param memory memory sizes and bandwidths
     * @param flops  peak FLOP/s (datasheet; "with sparsity" figures halved to dense)
     */
    public record Sources(String links, String memory, String flops) {
    }

    /** Validates and copies the lists. */
    public GpuModel {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pcieGen, "pcieGen");
        Objects.requireNonNull(sources, "sources");
        variants = List.copyOf(variants);
        aliases = List.copyOf(aliases);
        if (variants.isEmpty()) {
            throw new IllegalArgumentException(name + ": at least one variant");
        }
        if ((nvlink == null) != (nvlinks == 0)) {
            throw new IllegalArgumentException(name + ": an NVLink generation goes with a link count > 0");
        }
        denseFlops = denseFlops.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(denseFlops));
        Pattern.compile(textRule);
    }

    /** @return the default variant (the first) */
    public Variant defaultVariant() {
        return variants.get(0);
    }

    /** @return the model's architecture from its compute capability ({@link GpuArchitecture#of}), e.g. Ada for L40S */
    public GpuArchitecture architecture() {
        return GpuArchitecture.of(sm);
    }

    /** @return memory of the default variant, bytes */
    public long memoryBytes() {
        return defaultVariant().memoryBytes();
    }

    /** @return memory bandwidth of the default variant, GB/s (datasheet) */
    public double memoryGBps() {
        return defaultVariant().memoryGBps();
    }

    /**
     * The same model on a board without its NVLink bridge (an H100 NVL or A100 PCIe pair is bridged only where the
     * bridge is fitted: NVIDIA H100 NVL product brief, "NVLink bridge" an option): no NVLink, every other figure kept.
     *
     * @return this model without NVLink; this model when it has none
     */
    public GpuModel withoutNvlink() {
        return hasNvlink() ? new GpuModel(name, sm, variants, aliases, textRule, null, 0, false, pcieGen, pcieWidth,
                denseFlops, sources) : this;
    }

    /** @return true when the model has NVLink */
    public boolean hasNvlink() {
        return nvlinks > 0;
    }

    /**
     * @return true for the Grace Hopper superchip (GH200): one Hopper GPU joined to its own Grace CPU by NVLink-C2C,
     *         which is its only host link, so the host's PCIe devices (NICs) hang off the Grace's PCIe Gen5 root ports
     *         (NVIDIA GH200 Grace Hopper Superchip datasheet and architecture whitepaper: the GPU's 900 GB/s NVLink-C2C
     *         to Grace; PCIe Gen5 lanes on the Grace only)
     */
    public boolean graceHopper() {
        return name.equals("GH200");
    }

    /** @return true when NVLink SHARP (NVLS) is possible: NVSwitch (multicast) and sm90 or newer (Hopper and later) */
    public boolean nvls() {
        return nvSwitch && sm >= 90;
    }

    /** @return the datasheet NVLink bandwidth of one GPU (all its links) per direction; zero without NVLink */
    public Bandwidth nvlinkPhysical() {
        return nvlink == null ? Bandwidth.ofGBps(0) : nvlink.links(nvlinks);
    }

    /** @return the datasheet bandwidth of the GPU's PCIe host link per direction */
    public Bandwidth pciePhysical() {
        return pcieGen.physical(pcieWidth);
    }

    /** @return the datasheet bandwidth one GPU has inside its host, per direction: NVLink if any, else PCIe */
    public Bandwidth intraHostPhysical() {
        return hasNvlink() ? nvlinkPhysical() : pciePhysical();
    }

    /**
     * @param p a number format
     * @return peak dense FLOP/s in that format, empty when the model lacks it or no datasheet states it
     */
    public OptionalDouble flops(Precision p) {
        Double v = denseFlops.get(p);
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    /** @return peak dense 16-bit tensor FLOP/s: BF16, or FP16 where the model has no BF16 (V100, Turing) */
    public OptionalDouble halfPrecisionFlops() {
        OptionalDouble bf16 = flops(Precision.BF16);
        return bf16.isPresent() ? bf16 : flops(Precision.FP16);
    }
}
