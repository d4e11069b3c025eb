package dev.collsim.cli;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.CpuModels;
import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.io.HardwareHints;
import dev.collsim.units.Bandwidth;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/**
 * Options for facts a machine file may not contain ({@code nvidia-smi topo -m} has no GPU model, NIC speed, PCIe
 * generation or CPU vendor; an NCCL topology XML {@code pci} element may lack its {@code gpu} or {@code net}
 * child). Used as a picocli {@code @Mixin}; see {@link HardwareHints}.
 */
public final class HardwareHintsOptions {

    @Option(names = "--gpu-model", paramLabel = "NAME",
            description = "GPU model for machine files that do not name it, such as H100-SXM5-80GB.")
    String gpuModel;

    @Option(names = "--gpu-sm", paramLabel = "SM",
            description = "GPU compute capability x10 for machine files that do not give it, e.g. 90.")
    int gpuSm;

    @Option(names = "--nic-speed", paramLabel = "SPEED",
            description = "NIC port speed for machine files that do not give it, with its unit, e.g. '400 Gb/s'.")
    String nicSpeed;

    @Option(names = "--pcie-gen", paramLabel = "GEN", description = "PCIe generation (1-6) of GPU and NIC links.")
    int pcieGen;

    @Option(names = "--nvlink", paramLabel = "SPEC",
            description = "NVLinks a machine file leaves out (NCCL finds them at run time): 'nvswitch' joins every GPU"
                    + " without NVLink to the host's NVSwitch with the GPU model's own link count, 'nvswitch:N' with N"
                    + " links (1-64). NCCL topology XML only.")
    String nvlink;

    @Option(names = "--cpu-vendor", paramLabel = "VENDOR",
            description = "CPU vendor (GenuineIntel or intel, AuthenticAMD or amd; case ignored) for the SMP link"
                    + " bandwidth.")
    String cpuVendor;

    @Option(names = "--cpu-model", paramLabel = "NAME",
            description = "CPU model or family for machine files, looked up in the CPU database, e.g. 'Xeon Platinum"
                    + " 8480' or 'Sapphire Rapids': sets the vendor and the generation NCCL's SMP link figure is"
                    + " chosen by (--cpu-vendor intel alone gets Broadwell's).")
    String cpuModel;

    /**
     * Refuses a GPU model the hardware database does not know by one of its names ({@link GpuModels#sku}: a model,
     * variant or alias), offering the nearest ({@link GpuModels#nearest}); before, {@code A100-SXM9} was taken as the
     * A100 SXM family by its text rule and printed as a model of its own. A GPU the database lacks is described by
     * its name together with {@code --gpu-sm}, which is then taken as given.
     *
     * @param name the --gpu-model value, null when not given
     * @param sm   the --gpu-sm value, 0 when not given
     * @throws UserError (exit 2) naming the value and the nearest known names
     */
    static void requireKnownGpu(String name, int sm) {
        if (name == null || sm != 0 || GpuModels.sku(name).isPresent()) {
            return;
        }
        throw new UserError("--gpu-model: found '" + name + "', which the GPU database does not know; did you mean "
                + String.join(", ", GpuModels.nearest(name, 5)) + "? (allowed: a model, variant or nvidia-smi name of"
                + " the database, e.g. H100-SXM5-80GB, A100-SXM4-40GB, L40S; for a GPU it lacks, add --gpu-sm)",
                ExitCodes.USAGE);
    }

    /**
     * @return the hints
     * @throws UserError (exit 2) when a value is out of range, the NIC speed has no unit or the GPU model is unknown
     */
    public HardwareHints hints() {
        requireKnownGpu(gpuModel, gpuSm);
        Bandwidth speed = null;
        if (nicSpeed != null) {
            try {
                speed = Bandwidth.parse(nicSpeed);
            } catch (IllegalArgumentException e) {
                throw new UserError("--nic-speed: " + e.getMessage(), ExitCodes.USAGE);
            }
        }
        try {
            String vendor = cpuVendor();
            if (cpuModel == null) {
                return new HardwareHints(gpuModel, gpuSm, speed, pcieGen, vendor, -1, -1, nvswitchLinks());
            }
            CpuModel cpu = cpuModel();
            if (vendor != null && !vendor.equals(cpu.vendor())) {
                throw new UserError("--cpu-vendor: found '" + cpuVendor + "' but --cpu-model '" + cpuModel + "' is "
                        + cpu.family() + " (" + cpu.vendor() + "); give one of them, or both agreeing",
                        ExitCodes.USAGE);
            }
            int[] id = CpuModels.cpuid(cpu);
            return new HardwareHints(gpuModel, gpuSm, speed, pcieGen, cpu.vendor(), id[0], id[1], nvswitchLinks(),
                    cpu.family());
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage(), ExitCodes.USAGE);
        }
    }

    /**
     * The CPU vendor as CPUID names it, the form NCCL's {@code ncclTopoGetInterCpuBw} compares (NCCL 2.30
     * {@code src/graph/topo.cc}); any other text would silently fall back to the unknown vendor's rate.
     *
     * @return {@code GenuineIntel}, {@code AuthenticAMD}, or null when not given
     * @throws UserError (exit 2) on any other value
     */
    private String cpuVendor() {
        if (cpuVendor == null) {
            return null;
        }
        String v = cpuVendor.trim().toLowerCase(Locale.ROOT);
        if (v.equals("genuineintel") || v.equals("intel")) {
            return "GenuineIntel";
        }
        if (v.equals("authenticamd") || v.equals("amd")) {
            return "AuthenticAMD";
        }
        throw new UserError("--cpu-vendor: found '" + cpuVendor + "'; allowed: GenuineIntel (or intel), AuthenticAMD"
                + " (or amd)", ExitCodes.USAGE);
    }

    /**
     * @return the CPU database's family that --cpu-model names
     * @throws UserError (exit 2) when the database has none, listing its families
     */
    private CpuModel cpuModel() {
        return CpuModels.find(cpuModel).orElseThrow(() -> new UserError("--cpu-model: found '" + cpuModel
                + "', which names no family of the CPU database; allowed: a model or family text of one of "
                + CpuModels.all().stream().map(CpuModel::family).collect(Collectors.joining("; ")), ExitCodes.USAGE));
    }

    /** @return the NVLink hint: 0 none, -1 the model's count, else the count given */
    private int nvswitchLinks() {
        if (nvlink == null) {
            return 0;
        }
        String v = nvlink.trim().toLowerCase(Locale.ROOT);
        if (v.equals("nvswitch")) {
            return -1;
        }
        if (v.matches("nvswitch:\\d{1,2}")) {
            int n = Integer.parseInt(v.substring("nvswitch:".length()));
            if (n >= 1 && n <= 64) {
                return n;
            }
        }
        throw new UserError("--nvlink: found '" + nvlink + "'; allowed: nvswitch (the GPU model's own NVLink count) or"
                + " nvswitch:N with N in 1..64", ExitCodes.USAGE);
    }
}
