package dev.collsim.cli;

import dev.collsim.topology.io.HardwareHints;
import dev.collsim.units.Bandwidth;
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

    @Option(names = "--cpu-vendor", paramLabel = "VENDOR",
            description = "CPU vendor (GenuineIntel, AuthenticAMD) for the SMP link bandwidth.")
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
            return new HardwareHints(gpuModel, gpuSm, speed, pcieGen, cpuVendor, -1, -1);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage(), ExitCodes.USAGE);
        }
    }
}
