package dev.collsim.topology.catalog;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.NicModel;
import dev.collsim.topology.NetworkClass;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One cloud instance type, bare-metal shape or vendor system as the provider's public page describes it: a row of the
 * catalog's data file {@code dev/collsim/topology/catalog/systems.tsv} (read by {@link SystemTable}), built into hosts
 * by {@link SystemHost}. Immutable.
 *
 * @param name         the name as the provider spells it (e.g. {@code p5.48xlarge}, {@code BM.GPU.H100.8}); the
 *                     {@code -c} name in any case
 * @param aliases      other names: {@code -c} names and names recognised in a data file's header (e.g. {@code A3 Mega})
 * @param provider     AWS, GCP, Azure, OCI, NVIDIA, or the site of an HPC system (NREL)
 * @param gpu          the GPU SKU from the GPU database
 * @param gpus         GPUs per host (8, or 4 for a GB200 NVL72 compute tray or an HGX 4-GPU board)
 * @param layout       how the GPUs meet: NVSwitch board, NVL72 tray or directly joined 4-GPU board
 * @param nvSwitchChips NVSwitch chips per host (18 NVLink switch chips of the rack for an NVL72 tray; 0 on a board
 *                      whose GPUs are joined directly)
 * @param nics         compute NICs (network cards used by NCCL) per host
 * @param nicGbits     port speed per compute NIC, Gb/s (1e9 bit/s)
 * @param nicModel     the compute NICs' family from the NIC database ({@code hardware.NicModels}: PCIe generation and
 *                     lanes of its host interface); empty where the provider's page names none
 * @param network      the transport NCCL uses between hosts
 * @param gpuDirect    true when the NIC reads and writes GPU memory directly (GPUDirect RDMA, or GPUDirect-TCPX/TCPXO)
 * @param cpu          CPU model text
 * @param cpuModel     the CPU's family from the CPU database ({@code hardware.CpuModels}): root-port PCIe generation
 *                     and the socket-to-socket (UPI, xGMI) links
 * @param source       the provider's page(s) and the figures read there
 * @param note         what the model assumes beyond the page
 */
public record SystemEntry(String name, List<String> aliases, String provider, GpuModels.Sku gpu, int gpus,
        Layout layout, int nvSwitchChips, int nics, double nicGbits, Optional<NicModel> nicModel, NetworkClass network, boolean gpuDirect,
        String cpu, CpuModel cpuModel, String source, String note) {

    /** How a system's GPUs are joined. */
    public enum Layout {
        /** 8 SXM GPUs on the board's NVSwitch chips (HGX/DGX board). */
        HGX,
        /** One GB200 NVL72 compute tray: 4 GPUs in a 72-GPU NVLink domain. */
        NVL72,
        /**
         * HGX 4-GPU board: 4 SXM GPUs joined directly by NVLink, no NVSwitch, each GPU's links shared equally among
         * its 3 peers (HGX H100 4-GPU: 18 NVLink4 per GPU, so 6 per pair, {@code NV6} in {@code nvidia-smi topo -m});
         * each GPU and NIC on a CPU root port of its own (no PCIe switch on the board).
         */
        HGX4,
        /**
         * HGX 4-GPU board as {@link #HGX4}, but with one NIC per GPU and each GPU with its NIC under one PCIe switch
         * on a CPU root port (a GPU and its NIC PXB apart, as on the 8-GPU boards): GPU Direct RDMA at NCCL's
         * default level (PXB), and PXN through the NIC's GPU for the other GPUs.
         */
        HGX4_SWITCHED;

        /** @return true for a 4-GPU board whose GPUs are joined directly by NVLink ({@link #HGX4}, {@link #HGX4_SWITCHED}) */
        public boolean direct() {
            return this == HGX4 || this == HGX4_SWITCHED;
        }
    }

    /** Validates and copies. */
    public SystemEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(gpu, "gpu");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(cpuModel, "cpuModel");
        Objects.requireNonNull(nicModel, "nicModel");
        aliases = List.copyOf(aliases);
        if (gpus < 1 || nics < 1 || nicGbits <= 0 || nvSwitchChips < (layout.direct() ? 0 : 1)) {
            throw new IllegalArgumentException(name + ": GPUs, NICs, NIC speed and NVSwitch chips must be positive");
        }
        if (layout.direct() && (gpus != 4 || nvSwitchChips != 0)) {
            throw new IllegalArgumentException(name + ": an HGX 4-GPU board has 4 GPUs and no NVSwitch");
        }
        if (layout == Layout.HGX4_SWITCHED && nics != gpus) {
            throw new IllegalArgumentException(name + ": hgx4_switched puts one NIC beside each GPU: 4 NICs");
        }
        if (layout != Layout.NVL72 && cpuModel.interSocket().isEmpty()) {
            throw new IllegalArgumentException(name + ": CPU '" + cpu + "' (" + cpuModel.family() + ") has no"
                    + " socket-to-socket link in the CPU database; an HGX host has two sockets");
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

    /** @return CPU vendor string as NCCL's topology names it (the CPU database's) */
    public String cpuVendor() {
        return cpuModel.vendor();
    }

    /**
     * @return one line: provider and name, GPUs, NVLink, NICs, transport, GPUDirect, and the source page
     */
    public String describe() {
        return describe(layout == Layout.NVL72 ? Gb200Nvl72Tray.DOMAIN_GPUS / gpus : 1);
    }

    /**
     * @param traysPerDomain for an NVL72 tray, the trays that share one NVLink domain in the cluster (the rack's
     *                       72 / GPUs per tray when whole; fewer with {@code --trays-per-domain}); ignored otherwise
     * @return {@link #describe()} with that NVLink domain: {@code NVL72 tray (72-GPU NVLink domain)} for a whole rack,
     *         {@code NVL72 tray, in an NVLink domain of 1 tray (4 GPUs; the rack's is 72)} for a smaller one
     */
    public String describe(int traysPerDomain) {
        int domainGpus = traysPerDomain * gpus;
        String nvlink = layout.direct()
                ? "direct NVLink, no NVSwitch (NV" + gpu.model().nvlinks() / (gpus - 1) + " per GPU pair)"
                : layout != Layout.NVL72 ? nvSwitchChips + " NVSwitch (NV" + gpu.model().nvlinks() + ")"
                : domainGpus >= Gb200Nvl72Tray.DOMAIN_GPUS ? "NVL72 tray (72-GPU NVLink domain)"
                : "NVL72 tray, in an NVLink domain of " + traysPerDomain + (traysPerDomain == 1 ? " tray (" : " trays (")
                + domainGpus + " GPUs; the rack's is " + Gb200Nvl72Tray.DOMAIN_GPUS + ")";
        return String.format(Locale.ROOT, "%s: %dx %s, %s, %dx %.0f Gb/s %s%s (source: %s)", label(), gpus,
                gpu.variant().name(), nvlink, nics, nicGbits, network.label(), gpuDirect ? ", GPUDirect"
                : ", no GPUDirect", source);
    }
}
