package dev.collsim.cli;

import dev.collsim.topology.io.HardwareHints;
import dev.collsim.units.Bandwidth;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Options for facts a machine file may not contain ({@code nvidia-smi topo -m} has no GPU model, NIC speed, PCIe
 * generation or CPU vendor; an NCCL topology XML {@code pci} element may lack its {@code gpu} or {@code net}
 * child). Used as a picocli {@code @Mixin}; see {@link HardwareHints}.
 */
public final class HardwareHintsOptions {

    /**
     * A CPUID model number (family 6) of each Intel server generation, the value NCCL 2.30 {@code src/graph/topo.cc
     * ncclTopoGetInterCpuBw} compares: Broadwell-EP 0x4F, Skylake-SP and Cascade Lake 0x55, Ice Lake-SP 0x6A,
     * Sapphire Rapids 0x8F, Emerald Rapids 0xCF, Granite Rapids 0xAD (Intel SDM vol. 4, table 2-1, CPUID signatures).
     */
    private static final Map<String, Integer> INTEL_MODELS = intelModels();

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
                    + " bandwidth; an Intel generation as intel:GEN (broadwell, skylake, cascadelake, icelake,"
                    + " sapphirerapids, emeraldrapids, graniterapids): NCCL picks Intel's rate by it. Plain intel:"
                    + " Skylake's assumed.")
    String cpuVendor;

    /**
     * @return the hints
     * @throws UserError (exit 2) when a value is out of range or the NIC speed has no unit
     */
    public HardwareHints hints() {
        Bandwidth speed = null;
        if (nicSpeed != null) {
            try {
                speed = Bandwidth.parse(nicSpeed);
            } catch (IllegalArgumentException e) {
                throw new UserError("--nic-speed: " + e.getMessage(), ExitCodes.USAGE);
            }
        }
        try {
            int model = intelModel();
            return new HardwareHints(gpuModel, gpuSm, speed, pcieGen, cpuVendor(), model < 0 ? -1 : 6, model,
                    nvswitchLinks());
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
        if (v.equals("genuineintel") || v.equals("intel") || v.startsWith("intel:") && intelModel() >= 0) {
            return "GenuineIntel";
        }
        if (v.equals("authenticamd") || v.equals("amd")) {
            return "AuthenticAMD";
        }
        throw new UserError("--cpu-vendor: found '" + cpuVendor + "'; allowed: GenuineIntel (or intel, or intel:GEN"
                + " with GEN one of " + String.join(", ", INTEL_MODELS.keySet()) + "), AuthenticAMD (or amd)",
                ExitCodes.USAGE);
    }

    private static Map<String, Integer> intelModels() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("broadwell", 0x4F);
        m.put("skylake", 0x55);
        m.put("cascadelake", 0x55);
        m.put("icelake", 0x6A);
        m.put("sapphirerapids", 0x8F);
        m.put("emeraldrapids", 0xCF);
        m.put("graniterapids", 0xAD);
        return Collections.unmodifiableMap(m);
    }

    /** @return the CPUID model of {@code intel:GEN}, -1 when no generation is named or it is not one known */
    private int intelModel() {
        if (cpuVendor == null) {
            return -1;
        }
        String v = cpuVendor.trim().toLowerCase(Locale.ROOT).replaceAll("[\\s_-]", "");
        return v.startsWith("intel:") ? INTEL_MODELS.getOrDefault(v.substring("intel:".length()), -1) : -1;
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
