package dev.collsim.topology;

import dev.collsim.units.Bandwidth;
import java.util.Locale;

/**
 * The bandwidths NCCL assigns to links when it builds its topology (NCCL 2.30 {@code src/graph/topo.h} and
 * {@code src/graph/topo.cc}; nccl-model.md sections 5.2 and 5.3). All values are GB/s (1e9 B/s) per direction.
 * These differ from datasheet bandwidths: NCCL counts 20.6 GB/s per NVLink4 link where the datasheet says 25.
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
    /** IBM POWER9, GB/s ({@code P9_BW}). */
    public static final double P9_BW = 32.0;
    /** ARM CPUs (e.g. Grace), GB/s ({@code ARM_BW}). */
    public static final double ARM_BW = 6.0;

    private NcclBandwidths() {
    }

    /**
     * NCCL's bandwidth of one NVLink by the GPU's compute capability ({@code ncclTopoNVLinkBw}): sm60 18.0, sm70 and
     * sm80 20.0, sm86 12.0, sm90 20.6, sm100 and newer 40.1 GB/s.
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

    /** @param sm compute capability x 10; @param count links; @return count x {@link #nvlinkPerLink(int)} */
    public static Bandwidth nvlink(int sm, int count) {
        return Bandwidth.ofGBps(count * nvlinkPerLink(sm));
    }

    /** @param gen generation; @param width lanes; @return {@code width x speedcode / 80} GB/s */
    public static Bandwidth pcie(PcieGen gen, int width) {
        return Bandwidth.ofGBps(width * gen.ncclSpeedCode() / 80.0);
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
     * physical per-lane rate); SMP from the CPU; NET equals the port speed; C2C and LOC as given (NCCL reads C2C
     * bandwidth from NVML, which reports the physical rate).
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
                PcieGen gen = PcieGen.fromDetail(detail);
                if (gen == null) {
                    gen = PcieGen.nearest(physical.gbps() / count);
                }
                return pcie(gen, count);
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
