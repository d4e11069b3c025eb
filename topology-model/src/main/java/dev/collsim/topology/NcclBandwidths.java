package dev.collsim.topology;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.PcieGen;
import dev.collsim.units.Bandwidth;
import java.util.Locale;

/**
 * The bandwidths NCCL assigns to links when it builds its topology (NCCL 2.30 {@code src/graph/topo.h} and
 * {@code src/graph/topo.cc}; nccl-model.md sections 5.2 and 5.3). All values are GB/s (1e9 B/s) per direction.
 * These differ from datasheet bandwidths: NCCL counts 20.6 GB/s per NVLink4 link where the datasheet says 25, and
 * 12 GB/s for PCIe Gen3 x16 where the specification gives 15.75. The datasheet figures are in {@code
 * dev.collsim.hardware} ({@code NvlinkGen}, {@code PcieGen}, {@code GpuModels}); this class is the one home of NCCL's.
 */
public final class NcclBandwidths {

    /** LOC_BW: local or virtual links, GB/s (NCCL 2.30 {@code topo.h}). */
    public static final double LOC_BW = 5000.0;
    /** Inter-CPU bandwidth for AMD x86 CPUs, GB/s ({@code AMD_BW}). */
    public static final double AMD_BW = 16.0;
    /** Intel Broadwell QPI, GB/s ({@code BDW_QPI_BW}). */
    public static final double BDW_QPI_BW = 6.0;
    /** Intel Skylake (and Cascade Lake, Ice Lake) UPI, GB/s ({@code SKL_QPI_BW}). */
    public static final double SKL_QPI_BW = 10.0;
    /** Intel Sapphire Rapids (model >= 0x8F) UPI, GB/s ({@code SRP_QPI_BW}). */
    public static final double SRP_QPI_BW = 22.0;
    /** Intel Emerald Rapids (model >= 0xCF) UPI, GB/s ({@code ERP_QPI_BW}). */
    public static final double ERP_QPI_BW = 40.0;
    /** NIC speed NCCL assumes when a NIC reports none, Mb/s (NCCL 2.30 {@code topo.cc}: speed <= 0 gives 10000). */
    public static final int DEFAULT_NIC_MBPS = 10000;
    /** IBM POWER9, GB/s ({@code P9_BW}). */
    public static final double P9_BW = 32.0;
    /** ARM CPUs (e.g. Grace), GB/s ({@code ARM_BW}). */
    public static final double ARM_BW = 6.0;

    private NcclBandwidths() {
    }

    /**
     * NCCL's bandwidth of one NVLink by the GPU's compute capability ({@code ncclTopoNVLinkBw}): sm60 18.0, sm70 and
     * sm80 20.0, sm86 12.0, sm90 20.6, sm100 and newer 40.1 GB/s (NCCL 2.18 on for sm70/sm80; older releases'
     * figures: {@link #nvlinkPerLink(int, int)}).
     *
     * @param sm compute capability x 10
     * @return GB/s per link and direction
     */
    public static double nvlinkPerLink(int sm) {
        if (sm >= 100) {
            return 40.1;
        }
        if (sm >= 90) {
            return 20.6;
        }
        if (sm == 86) {
            return 12.0;
        }
        if (sm >= 70) {
            return 20.0;
        }
        if (sm >= 60) {
            return 18.0;
        }
        return 20.0;
    }

    /**
     * NCCL's bandwidth of one NVLink as a given release counts it in its graph search: sm70 and sm80 (not sm86) 21.0
     * GB/s before 2.10 ({@code SM70_NVLINK_WIDTH}, {@code SM80_NVLINK_WIDTH} in {@code src/graph/topo.h} at tags
     * v2.8.4-1 and v2.9.9-1; 2.5-2.7 {@code VOLTA_NVLINK_WIDTH} 21.0, 2.4 has no graph search), 22.0 in 2.10 to 2.17
     * (v2.10.3-1 to v2.13.4-1 {@code SM80_NVLINK_WIDTH}, v2.14.3-1 to v2.17.1-1 {@code SM80_NVLINK_BW}), 20.0 from
     * 2.18 (v2.18.1-1); every other sm as {@link #nvlinkPerLink(int)} (sm60 18.0 and sm86 12.0 at every tag from
     * 2.8). A search figure only: what a link moves is the same in every release.
     *
     * @param sm        compute capability x 10
     * @param ncclMinor NCCL 2 minor release, e.g. 10 for 2.10.3
     * @return GB/s per link and direction
     */
    public static double nvlinkPerLink(int sm, int ncclMinor) {
        if (sm < 70 || sm >= 90 || sm == 86 || ncclMinor >= 18) {
            return nvlinkPerLink(sm);
        }
        return ncclMinor < 10 ? 21.0 : 22.0;
    }

    /**
     * Most NVLinks NCCL probes on a GPU of an sm (NCCL 2.30 {@code src/graph/xml.cc}: {@code maxNvLinks} is 0 below
     * sm60, 4 below sm70, 6 below sm80, 12 below sm90, else 18).
     *
     * @param sm compute capability x 10, or 0 when unknown (then 18, the most any GPU has)
     * @return link count
     */
    public static int maxNvlinks(int sm) {
        if (sm == 0) {
            return 18;
        }
        return sm < 60 ? 0 : sm < 70 ? 4 : sm < 80 ? 6 : sm < 90 ? 12 : 18;
    }

    /** @param sm compute capability x 10; @param count links; @return count x {@link #nvlinkPerLink(int)} */
    public static Bandwidth nvlink(int sm, int count) {
        return Bandwidth.ofGBps(count * nvlinkPerLink(sm));
    }

    /** @param gpu a database GPU model; @return NCCL's bandwidth of all its NVLinks (zero without NVLink) */
    public static Bandwidth gpuNvlink(GpuModel gpu) {
        return nvlink(gpu.sm(), gpu.nvlinks());
    }

    /** @param gpu a database GPU model; @return NCCL's bandwidth of its PCIe host link */
    public static Bandwidth gpuPcie(GpuModel gpu) {
        return pcie(gpu.pcieGen(), gpu.pcieWidth());
    }

    /** @param gpu a database GPU model; @return NCCL's intra-host bandwidth of one GPU: NVLink if any, else PCIe */
    public static Bandwidth gpuIntraHost(GpuModel gpu) {
        return gpu.hasNvlink() ? gpuNvlink(gpu) : gpuPcie(gpu);
    }

    /**
     * NCCL's PCIe speed code per lane, in 100 Mb/s (NCCL 2.30 {@code src/graph/topo.cc} {@code kvDictPciGen}:
     * 2.5, 5, 8, 16, 32, 64 GT/s give 15, 30, 60, 120, 240, 480).
     *
     * @param gen generation
     * @return the code
     */
    public static int pciSpeedCode(PcieGen gen) {
        return switch (gen) {
            case GEN1 -> 15;
            case GEN2 -> 30;
            case GEN3 -> 60;
            case GEN4 -> 120;
            case GEN5 -> 240;
            case GEN6 -> 480;
        };
    }

    /**
     * NCCL's PCIe link bandwidth {@code width x speed code / 80} GB/s (NCCL 2.30 {@code topo.cc}): Gen3 x16 12,
     * Gen4 x16 24, Gen5 x16 48, Gen6 x16 96 GB/s.
     *
     * @param gen   generation
     * @param width lanes
     * @return the bandwidth per direction
     */
    public static Bandwidth pcie(PcieGen gen, int width) {
        return Bandwidth.ofGBps(width * pciSpeedCode(gen) / 80.0);
    }

    /**
     * Detail note of a PCIe link whose {@code link_speed} NCCL cannot read (absent, empty or {@code Unknown}, as in a
     * Hyper-V guest): NCCL's {@code kvDictPciGen} fallback {@code { NULL, 60 }}, 8 GT/s per lane (NCCL 2.22.3, 2.28.9
     * and 2.30.7 {@code src/graph/topo.cc ncclTopoAddPci}). The link's generation in its detail is the real one.
     */
    public static final String PCIE_SPEED_FALLBACK = "link_speed unset: NCCL assumes 8 GT/s";
    /**
     * Detail note of a PCIe link whose {@code link_width} is 0: NCCL takes 16 lanes ({@code if (width == 0) width =
     * 16;}, same versions and function). The link's width in its detail is the real one.
     */
    public static final String PCIE_WIDTH_FALLBACK = "link_width 0: NCCL assumes 16";

    /**
     * NCCL's PCIe formula ({@link #pcie(PcieGen, int)}) on a link as it is built, its generation and width read from
     * its detail ({@code PCIe GenN xW}) instead of NCCL's fallbacks: the rate collsim times bytes over a GPU's PCIe
     * link with (a GPU moves about NCCL's figure of a link whose speed NCCL read: the channel package's {@code
     * CpuPathRates}). Equal to {@link Link#ncclBandwidth()} wherever NCCL read the link's speed and width; it differs
     * only on a link whose detail carries {@link #PCIE_SPEED_FALLBACK} or {@link #PCIE_WIDTH_FALLBACK}: an NC A100
     * v4 VM's Gen4 x16 GPU link is 24 GB/s here and NCCL's fallback 12 GB/s in {@code ncclBandwidth}.
     *
     * @param link a link
     * @return GB/s per direction: the formula on the real generation and width for a PCIe link NCCL read with a
     *         fallback, else the link's NCCL bandwidth
     */
    public static Bandwidth asBuilt(Link link) {
        boolean fallback = link.detail().contains(PCIE_SPEED_FALLBACK) || link.detail().contains(PCIE_WIDTH_FALLBACK);
        int[] gw = link.type() == LinkType.PCIE && fallback ? PcieGen.parseDetail(link.detail()) : null;
        return gw == null ? link.ncclBandwidth() : pcie(PcieGen.of(gw[0]), gw[1]);
    }

    /**
     * NCCL's NIC bandwidth {@code speed_Mbps / 8000} GB/s, which equals the port speed in GB/s.
     *
     * @param portSpeed the port speed per direction
     * @return the NCCL bandwidth (400 Gb/s gives 50 GB/s)
     */
    public static Bandwidth net(Bandwidth portSpeed) {
        return Bandwidth.ofGBps(portSpeed.gbits() * 1000.0 / 8000.0);
    }

    /**
     * NCCL's inter-CPU (SYS link) bandwidth for a CPU, chosen from its vendor and model text the way NCCL chooses it
     * from the CPUID family and model ({@code ncclTopoConnectCpus}): AMD 16; Intel Broadwell 6, Skylake to Ice Lake 10,
     * Sapphire/Granite Rapids 22, Emerald Rapids 40; POWER9 32; ARM (Grace) 6; otherwise LOC_BW.
     *
     * @param cpu the CPU (vendor {@code AuthenticAMD}/{@code GenuineIntel}/..., model text)
     * @return GB/s per direction
     */
    public static Bandwidth smp(Cpu cpu) {
        String vendor = cpu.vendor().toLowerCase(Locale.ROOT);
        String model = cpu.model().toLowerCase(Locale.ROOT);
        String arch = cpu.arch().toLowerCase(Locale.ROOT);
        if (arch.startsWith("ppc")) {
            return Bandwidth.ofGBps(P9_BW);
        }
        if (arch.startsWith("arm") || arch.startsWith("aarch") || vendor.contains("nvidia")) {
            return Bandwidth.ofGBps(ARM_BW);
        }
        if (vendor.contains("amd")) {
            return Bandwidth.ofGBps(AMD_BW);
        }
        if (vendor.contains("intel")) {
            return Bandwidth.ofGBps(intelQpi(model));
        }
        return Bandwidth.ofGBps(LOC_BW);
    }

    /**
     * NCCL's inter-CPU (SYS link) bandwidth from CPUID values, as {@code ncclTopoGetInterCpuBw} chooses it (NCCL 2.30
     * {@code src/graph/topo.cc}): POWER9 {@code P9_BW}; arm64 {@code ARM_BW}; Intel by model (family 6: model >= 0xCF
     * Emerald Rapids {@code ERP_QPI_BW}, >= 0x8F Sapphire Rapids {@code SRP_QPI_BW}, >= 0x55 Skylake {@code
     * SKL_QPI_BW}, else Broadwell {@code BDW_QPI_BW}); AMD {@code AMD_BW}; an unknown vendor is given {@code
     * SKL_QPI_BW} and says so.
     *
     * @param arch     {@code x86_64}, {@code arm64} or {@code ppc64}
     * @param vendor   {@code GenuineIntel}, {@code AuthenticAMD} or other
     * @param familyId CPU family, or -1 when unknown
     * @param modelId  CPU model, or -1 when unknown
     * @return bandwidth per direction, with the name of the NCCL constant
     */
    public static Smp interCpu(String arch, String vendor, int familyId, int modelId) {
        if ("ppc64".equals(arch)) {
            return new Smp(Bandwidth.ofGBps(P9_BW), "POWER9 X-Bus (NCCL P9_BW)");
        }
        if ("arm64".equals(arch)) {
            return new Smp(Bandwidth.ofGBps(ARM_BW), "arm64 (NCCL ARM_BW)");
        }
        if ("GenuineIntel".equals(vendor)) {
            if (familyId == 6 && modelId >= 0xCF) {
                return new Smp(Bandwidth.ofGBps(ERP_QPI_BW), "UPI, Emerald Rapids (NCCL ERP_QPI_BW)");
            }
            if (familyId == 6 && modelId >= 0x8F) {
                return new Smp(Bandwidth.ofGBps(SRP_QPI_BW), "UPI, Sapphire Rapids (NCCL SRP_QPI_BW)");
            }
            if (familyId == 6 && modelId >= 0x55) {
                return new Smp(Bandwidth.ofGBps(SKL_QPI_BW), "UPI, Skylake (NCCL SKL_QPI_BW)");
            }
            return new Smp(Bandwidth.ofGBps(BDW_QPI_BW), "QPI, Broadwell (NCCL BDW_QPI_BW)");
        }
        if ("AuthenticAMD".equals(vendor)) {
            return new Smp(Bandwidth.ofGBps(AMD_BW), "Infinity Fabric (NCCL AMD_BW)");
        }
        return new Smp(Bandwidth.ofGBps(SKL_QPI_BW), "SMP, CPU vendor unknown: NCCL SKL_QPI_BW assumed");
    }

    /**
     * An inter-CPU link rate.
     *
     * @param bandwidth per direction
     * @param detail    link name and the NCCL constant it comes from
     */
    public record Smp(Bandwidth bandwidth, String detail) {
    }

    private static double intelQpi(String model) {
        if (model.contains("emerald") || model.matches(".*\\b[3-8]5\\d\\d[a-z]*\\b.*")) {
            return ERP_QPI_BW;
        }
        if (model.contains("sapphire") || model.contains("granite") || model.matches(".*\\b[3-8]4\\d\\d[a-z]*\\b.*")
                || model.matches(".*\\b69\\d\\d[a-z]*\\b.*")) {
            return SRP_QPI_BW;
        }
        if (model.contains("broadwell") || model.contains("haswell") || model.matches(".*\\be5-\\d{4}.*")) {
            return BDW_QPI_BW;
        }
        return SKL_QPI_BW;
    }

    /**
     * Derives the NCCL bandwidth of a link from its type, lane count and physical bandwidth, using the devices at its
     * ends: NVLink from the GPU's sm; PCIe from the generation in {@code detail} (or the nearest generation to the
     * physical per-lane rate), with NCCL's 8 GT/s and x16 where the detail notes NCCL's fallback ({@link
     * #PCIE_SPEED_FALLBACK}, {@link #PCIE_WIDTH_FALLBACK}); SMP from the CPU; NET equals the port speed; C2C and LOC
     * as given (NCCL reads C2C bandwidth from NVML, which reports the physical rate).
     *
     * @param type     link type
     * @param count    lanes or links, >= 1
     * @param physical physical bandwidth per direction
     * @param detail   generation text, may be empty
     * @param a        one end
     * @param b        other end
     * @return the NCCL bandwidth per direction
     */
    public static Bandwidth derive(LinkType type, int count, Bandwidth physical, String detail, Device a, Device b) {
        switch (type) {
            case NVLINK: {
                Integer sm = a instanceof Gpu ga ? Integer.valueOf(ga.sm()) : b instanceof Gpu gb ? gb.sm() : null;
                return sm == null ? physical : nvlink(sm, count);
            }
            case PCIE: {
                String d = detail == null ? "" : detail;
                PcieGen gen = d.contains(PCIE_SPEED_FALLBACK) ? PcieGen.GEN3 : PcieGen.fromDetail(d);
                if (gen == null) {
                    gen = PcieGen.nearest(physical.gbps() / count);
                }
                return pcie(gen, d.contains(PCIE_WIDTH_FALLBACK) ? 16 : count);
            }
            case SMP:
                return a instanceof Cpu ca ? smp(ca) : b instanceof Cpu cb ? smp(cb) : physical;
            case NET:
                return net(physical);
            case LOC:
                return Bandwidth.ofGBps(LOC_BW);
            default:
                return physical;
        }
    }
}
