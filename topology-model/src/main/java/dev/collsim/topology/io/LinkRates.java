package dev.collsim.topology.io;

import dev.collsim.units.Bandwidth;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Physical link rates the readers use to turn what a file says (PCIe speed and width, NVLink counts and the
 * GPU's sm, the CPU vendor and model) into bandwidth per direction in GB/s (GB = 1e9 B). This class is stateless.
 *
 * <p>Sources: PCIe per-lane rates and encodings from the PCI-SIG base specifications (Gen1/Gen2 8b/10b,
 * Gen3-Gen5 128b/130b, Gen6 FLIT mode 242/256); NVLink per-link rates from the NVIDIA datasheets named at
 * {@link #nvlinkPerLink(int)}; inter-CPU bandwidths are NCCL's own (NCCL 2.30 {@code src/graph/topo.h}
 * {@code BDW_QPI_BW}, {@code SKL_QPI_BW}, {@code SRP_QPI_BW}, {@code ERP_QPI_BW}, {@code AMD_BW},
 * {@code P9_BW}, {@code ARM_BW}), because no vendor publishes one end-to-end figure per socket pair.
 */
public final class LinkRates {

    /** NCCL's bandwidth of local or virtual links, GB/s (NCCL 2.30 {@code src/graph/topo.h} {@code LOC_BW}). */
    public static final double NCCL_LOC_BW = 5000.0;

    /** NIC speed NCCL assumes when a NIC reports none, Mb/s (NCCL 2.30 {@code topo.cc}: speed <= 0 -> 10000). */
    public static final int NCCL_DEFAULT_NIC_MBPS = 10000;

    private static final Pattern PCIE_DETAIL = Pattern.compile("PCIe Gen(\\d) x(\\d+).*");

    private LinkRates() {
    }

    /**
     * Transfer rate per lane of a PCIe generation.
     *
     * @param gen PCIe generation 1..6
     * @return giga-transfers per second per lane
     * @throws IllegalArgumentException when {@code gen} is not 1..6
     */
    public static double pcieGTps(int gen) {
        return switch (gen) {
            case 1 -> 2.5;
            case 2 -> 5.0;
            case 3 -> 8.0;
            case 4 -> 16.0;
            case 5 -> 32.0;
            case 6 -> 64.0;
            default -> throw new IllegalArgumentException("PCIe generation must be 1..6, got " + gen);
        };
    }

    /**
     * Physical PCIe bandwidth per direction: {@code GT/s x encoding x width / 8}. Gen3 x16 = 15.754 GB/s,
     * Gen4 x16 = 31.508 GB/s, Gen5 x16 = 63.015 GB/s (PCI-SIG base specifications 3.0-5.0, 128b/130b encoding).
     *
     * @param gen   generation 1..6
     * @param width lanes, >= 1
     * @return bandwidth per direction
     * @throws IllegalArgumentException on a bad generation or width
     */
    public static Bandwidth pcie(int gen, int width) {
        if (width < 1) {
            throw new IllegalArgumentException("PCIe width must be >= 1, got " + width);
        }
        double encoding = gen <= 2 ? 8.0 / 10.0 : gen <= 5 ? 128.0 / 130.0 : 242.0 / 256.0;
        return Bandwidth.ofGBps(pcieGTps(gen) * encoding * width / 8.0);
    }

    /**
     * The generation whose per-lane rate is {@code gtps} GT/s.
     *
     * @param gtps transfer rate per lane, e.g. 16.0
     * @return the generation 1..6, or empty when the rate is not a PCIe rate
     */
    public static OptionalInt pcieGenOf(double gtps) {
        for (int g = 1; g <= 6; g++) {
            if (Math.abs(pcieGTps(g) - gtps) < 1e-9) {
                return OptionalInt.of(g);
            }
        }
        return OptionalInt.empty();
    }

    /** @return the link detail text for a PCIe link, {@code "PCIe Gen4 x16"} */
    public static String pcieDetail(int gen, int width) {
        return "PCIe Gen" + gen + " x" + width;
    }

    /**
     * Parses the generation and width back out of a link detail written by {@link #pcieDetail}.
     *
     * @param detail link detail text
     * @return {gen, width}, or null when the detail does not start with {@code PCIe GenN xW}
     */
    public static int[] parsePcieDetail(String detail) {
        Matcher m = PCIE_DETAIL.matcher(detail == null ? "" : detail);
        return m.matches() ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))} : null;
    }

    /**
     * Physical NVLink bandwidth of one link, per direction, by GPU compute capability.
     * <ul>
     * <li>sm60 (P100): NVLink1, 20 GB/s (P100 datasheet: 160 GB/s bidirectional over 4 links)</li>
     * <li>sm70 (V100), sm75 (Turing NVLink bridge): NVLink2, 25 GB/s (V100 datasheet: 300 GB/s over 6 links)</li>
     * <li>sm80 (A100): NVLink3, 25 GB/s (A100 datasheet: 600 GB/s over 12 links)</li>
     * <li>sm86 (GA10x NVLink bridge, RTX 3090 / RTX A6000 class): NVLink3 bridge, 14.0625 GB/s
     *     (112.5 GB/s bidirectional over 4 links)</li>
     * <li>sm90 (H100/H200): NVLink4, 25 GB/s (H100 datasheet: 900 GB/s over 18 links)</li>
     * <li>sm100, sm103 (B200/GB200/B300): NVLink5, 50 GB/s (B200 datasheet: 1.8 TB/s over 18 links)</li>
     * </ul>
     *
     * @param sm compute capability x 10
     * @return bandwidth of one link per direction, or null when GPUs of that sm have no NVLink
     */
    public static Bandwidth nvlinkPerLink(int sm) {
        return switch (sm) {
            case 60 -> Bandwidth.ofGBps(20.0);
            case 70, 72, 75, 80, 90 -> Bandwidth.ofGBps(25.0);
            case 86 -> Bandwidth.ofGBps(14.0625);
            case 100, 103 -> Bandwidth.ofGBps(50.0);
            default -> null;
        };
    }

    /** @return the NVLink generation name for an sm, e.g. {@code NVLink4} for 90, or empty when none */
    public static String nvlinkGeneration(int sm) {
        return switch (sm) {
            case 60 -> "NVLink1";
            case 70, 72, 75 -> "NVLink2";
            case 80, 86 -> "NVLink3";
            case 90 -> "NVLink4";
            case 100, 103 -> "NVLink5";
            default -> "";
        };
    }

    /**
     * Most NVLinks one GPU of that sm has (datasheets above; NCCL 2.30 {@code topo.cc} probes 6, 12 and 18
     * links for sm below 80, below 90 and from 90).
     *
     * @param sm compute capability x 10, or 0 when unknown (then 18, the most any GPU has)
     * @return link count
     */
    public static int maxNvlinks(int sm) {
        return sm == 0 ? 18 : sm < 80 ? 6 : sm < 90 ? 12 : 18;
    }

    /**
     * Inter-CPU (SMP link) bandwidth NCCL uses between two CPUs of a host (NCCL 2.30 {@code src/graph/topo.h},
     * {@code topo.cc} {@code ncclTopoGetInterCpuBw}): Intel by model (family 6: model >= 0xCF Emerald Rapids
     * 40, >= 0x8F Sapphire Rapids 22, >= 0x55 Skylake 10, else Broadwell 6), AMD 16, POWER9 32, arm64 6.
     *
     * @param arch     {@code x86_64}, {@code arm64} or {@code ppc64}
     * @param vendor   {@code GenuineIntel}, {@code AuthenticAMD} or other
     * @param familyId CPU family, or -1 when unknown
     * @param modelId  CPU model, or -1 when unknown
     * @return bandwidth per direction, with the name of the NCCL constant
     */
    public static Smp interCpu(String arch, String vendor, int familyId, int modelId) {
        if ("ppc64".equals(arch)) {
            return new Smp(Bandwidth.ofGBps(32.0), "POWER9 X-Bus (NCCL P9_BW)");
        }
        if ("arm64".equals(arch)) {
            return new Smp(Bandwidth.ofGBps(6.0), "arm64 (NCCL ARM_BW)");
        }
        if ("GenuineIntel".equals(vendor)) {
            if (familyId == 6 && modelId >= 0xCF) {
                return new Smp(Bandwidth.ofGBps(40.0), "UPI, Emerald Rapids (NCCL ERP_QPI_BW)");
            }
            if (familyId == 6 && modelId >= 0x8F) {
                return new Smp(Bandwidth.ofGBps(22.0), "UPI, Sapphire Rapids (NCCL SRP_QPI_BW)");
            }
            if (familyId == 6 && modelId >= 0x55) {
                return new Smp(Bandwidth.ofGBps(10.0), "UPI, Skylake (NCCL SKL_QPI_BW)");
            }
            return new Smp(Bandwidth.ofGBps(6.0), "QPI, Broadwell (NCCL BDW_QPI_BW)");
        }
        if ("AuthenticAMD".equals(vendor)) {
            return new Smp(Bandwidth.ofGBps(16.0), "Infinity Fabric (NCCL AMD_BW)");
        }
        return new Smp(Bandwidth.ofGBps(10.0),
                "SMP, CPU vendor unknown: NCCL SKL_QPI_BW assumed");
    }

    /**
     * An inter-CPU link rate.
     *
     * @param bandwidth per direction
     * @param detail    link name and the NCCL constant it comes from
     */
    public record Smp(Bandwidth bandwidth, String detail) {
    }

    /** @return {@code x} printed without a trailing {@code .0}, for XML attributes */
    public static String number(double x) {
        if (x == Math.rint(x) && Math.abs(x) < 1e15) {
            return Long.toString((long) x);
        }
        return String.format(Locale.ROOT, "%s", x);
    }
}
