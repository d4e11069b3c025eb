package dev.collsim.topology.catalog;

import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.NetworkClass;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One cloud instance type, bare-metal shape or vendor system as the provider's public page describes it: a row of the
 * catalog's data file {@code dev/collsim/topology/catalog/systems.tsv} (read by {@link SystemTable}), built into hosts
 * by {@link SystemHost}. Immutable.
 *
 * @param name         the name as the provider spells it (e.g. {@code p5.48xlarge}, {@code BM.GPU.H100.8}); the
 *                     {@code -c} name in any case
 * @param aliases      other names: {@code -c} names and names recognised in a data file's header (e.g. {@code A3 Mega})
 * @param provider     AWS, GCP, Azure, OCI or NVIDIA
 * @param gpu          the GPU SKU from the GPU database
 * @param gpus         GPUs per host (8, or 4 for a GB200 NVL72 compute tray)
 * @param layout       how the GPUs meet: NVSwitch board or NVL72 tray
 * @param nvSwitchChips NVSwitch chips per host (18 NVLink switch chips of the rack for an NVL72 tray)
 * @param nics         compute NICs (network cards used by NCCL) per host
 * @param nicGbits     port speed per compute NIC, Gb/s (1e9 bit/s)
 * @param network      the transport NCCL uses between hosts
 * @param gpuDirect    true when the NIC reads and writes GPU memory directly (GPUDirect RDMA, or GPUDirect-TCPX/TCPXO)
 * @param cpu          CPU model text
 * @param cpuLinkGBps  CPU-to-CPU link (UPI, xGMI) bandwidth per direction, GB/s (1e9 B/s)
 * @param source       the provider's page(s) and the figures read there
 * @param note         what the model assumes beyond the page
 */
public record SystemEntry(String name, List<String> aliases, String provider, GpuModels.Sku gpu, int gpus,
        Layout layout, int nvSwitchChips, int nics, double nicGbits, NetworkClass network, boolean gpuDirect,
        String cpu, double cpuLinkGBps, String source, String note) {

    /** How a system's GPUs are joined. */
    public enum Layout {
        /** 8 SXM GPUs on the board's NVSwitch chips (HGX/DGX board). */
        HGX,
        /** One GB200 NVL72 compute tray: 4 GPUs in a 72-GPU NVLink domain. */
        NVL72
    }

    /** Validates and copies. */
    public SystemEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(gpu, "gpu");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(network, "network");
        aliases = List.copyOf(aliases);
        if (gpus < 1 || nics < 1 || nicGbits <= 0 || nvSwitchChips < 1 || cpuLinkGBps <= 0) {
            throw new IllegalArgumentException(name + ": GPUs, NICs, NIC speed, NVSwitch chips and CPU link must be"
                    + " positive");
        }
    }

    /** @return the catalog key: the name in lower case */
    public String key() {
        return name.toLowerCase(Locale.ROOT);
    }

    /** @return the provider and the name, e.g. {@code AWS p5.48xlarge} */
    public String label() {
        return provider + " " + name;
    }

    /** @return CPU vendor string as NCCL's topology names it */
    public String cpuVendor() {
        String c = cpu.toLowerCase(Locale.ROOT);
        return c.contains("amd") || c.contains("epyc") ? "AuthenticAMD" : c.contains("grace") ? "NVIDIA" : "GenuineIntel";
    }

    /**
     * @return one line: provider and name, GPUs, NVLink, NICs, transport, GPUDirect, and the source page
     */
    public String describe() {
        return String.format(Locale.ROOT, "%s: %dx %s, %s, %dx %.0f Gb/s %s%s (source: %s)", label(), gpus,
                gpu.variant().name(), layout == Layout.NVL72 ? "NVL72 tray (72-GPU NVLink domain)"
                        : nvSwitchChips + " NVSwitch (NV" + gpu.model().nvlinks() + ")",
                nics, nicGbits, network.label(), gpuDirect ? ", GPUDirect" : ", no GPUDirect", source);
    }
}
