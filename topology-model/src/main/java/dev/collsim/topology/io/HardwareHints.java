package dev.collsim.topology.io;

import dev.collsim.units.Bandwidth;

/**
 * Facts a file may not contain that a reader needs to build a topology: the GPU model and sm (not in
 * {@code nvidia-smi topo -m}, and not in an NCCL XML {@code pci} element that has no {@code gpu} child), the NIC
 * speed, the PCIe generation and the CPU vendor. Every value a reader takes from here, or assumes because it is
 * absent, is written into {@code Topology.source()}. This record is immutable.
 *
 * @param gpuModel  GPU model name, or null when unknown
 * @param gpuSm     compute capability x 10, or 0 when unknown
 * @param nicSpeed  NIC port speed per direction, or null when unknown
 * @param pcieGen   PCIe generation 1..6 of GPU and NIC links, or 0 when unknown
 * @param cpuVendor {@code GenuineIntel}, {@code AuthenticAMD}, or null when unknown
 * @param cpuFamily CPU family id (e.g. 6 for Intel Xeon), or -1 when unknown
 * @param cpuModel  CPU model id (e.g. 143 for Sapphire Rapids), or -1 when unknown
 * @param nvswitchLinks NVLinks per GPU to the host's NVSwitch fabric for GPUs the file gives no NVLink (NCCL finds
 *                  them at run time through NVML, so vendor topology files such as Azure's ND H100 v5 XML leave them
 *                  out): 0 none declared, -1 the GPU model's own count ({@code GpuModel.nvlinks}), else 1..64
 * @param cpuName   the CPU database family {@code --cpu-model} named ({@code CpuModel.family}, e.g. {@code AMD EPYC
 *                  7003 (Milan)}), whose socket links give a machine file's inter-CPU link its physical bandwidth; null
 *                  when not named
 */
public record HardwareHints(String gpuModel, int gpuSm, Bandwidth nicSpeed, int pcieGen, String cpuVendor,
        int cpuFamily, int cpuModel, int nvswitchLinks, String cpuName) {

    /** Model text readers give a GPU whose model neither the file nor a hint names. */
    public static final String UNKNOWN_GPU_MODEL = "unknown";

    /**
     * The words every machine-file reader puts in {@code Topology.source()} when a NIC's speed is neither in the file
     * nor hinted and it takes NCCL's fallback ({@code NcclBandwidths.DEFAULT_NIC_MBPS}); {@code -c FILE:N} warns on
     * them, since its hosts then talk at that speed.
     */
    public static final String NIC_SPEED_FALLBACK = "NCCL's fallback for a NIC without speed";

    /** No hints: readers assume and say so. */
    public static final HardwareHints NONE = new HardwareHints(null, 0, null, 0, null, -1, -1, 0, null);

    /** Hints without declared NVLinks (the form every reader but the NVLink declaration uses). */
    public HardwareHints(String gpuModel, int gpuSm, Bandwidth nicSpeed, int pcieGen, String cpuVendor, int cpuFamily,
            int cpuModel) {
        this(gpuModel, gpuSm, nicSpeed, pcieGen, cpuVendor, cpuFamily, cpuModel, 0, null);
    }

    /** Hints without a CPU database family (the form of every caller but {@code --cpu-model}). */
    public HardwareHints(String gpuModel, int gpuSm, Bandwidth nicSpeed, int pcieGen, String cpuVendor, int cpuFamily,
            int cpuModel, int nvswitchLinks) {
        this(gpuModel, gpuSm, nicSpeed, pcieGen, cpuVendor, cpuFamily, cpuModel, nvswitchLinks, null);
    }

    /** @throws IllegalArgumentException on an sm outside [30, 200] (0 allowed) or a generation outside 0..6 */
    public HardwareHints {
        if (gpuSm != 0 && (gpuSm < 30 || gpuSm > 200)) {
            throw new IllegalArgumentException("gpuSm must be 0 (unknown) or a compute capability x10 in [30, 200], got "
                    + gpuSm);
        }
        if (pcieGen < 0 || pcieGen > 6) {
            throw new IllegalArgumentException("pcieGen must be 0 (unknown) or 1..6, got " + pcieGen);
        }
        if (nvswitchLinks < -1 || nvswitchLinks > 64) {
            throw new IllegalArgumentException("NVLinks per GPU must be 1..64 (or the model's own count), got "
                    + nvswitchLinks);
        }
    }

    /** @return a copy with the GPU model and sm set */
    public HardwareHints withGpu(String model, int sm) {
        return new HardwareHints(model, sm, nicSpeed, pcieGen, cpuVendor, cpuFamily, cpuModel, nvswitchLinks, cpuName);
    }

    /** @return a copy with the NIC speed set */
    public HardwareHints withNicSpeed(Bandwidth speed) {
        return new HardwareHints(gpuModel, gpuSm, speed, pcieGen, cpuVendor, cpuFamily, cpuModel, nvswitchLinks,
                cpuName);
    }

    /** @return a copy with the PCIe generation set */
    public HardwareHints withPcieGen(int gen) {
        return new HardwareHints(gpuModel, gpuSm, nicSpeed, gen, cpuVendor, cpuFamily, cpuModel, nvswitchLinks,
                cpuName);
    }

    /** @return a copy with the CPU vendor, family and model ids set */
    public HardwareHints withCpu(String vendor, int family, int model) {
        return new HardwareHints(gpuModel, gpuSm, nicSpeed, pcieGen, vendor, family, model, nvswitchLinks, cpuName);
    }
}
