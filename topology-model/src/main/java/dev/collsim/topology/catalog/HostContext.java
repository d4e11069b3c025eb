package dev.collsim.topology.catalog;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.NvlinkGen;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.Objects;

/**
 * Adds the devices of one host to a {@link TopologyBuilder} under the project's id convention, and links them. Not
 * thread-safe.
 */
public final class HostContext {

    private final TopologyBuilder builder;
    private final int host;
    private final int domainHosts;

    /**
     * A host whose NVLink stays inside it (an NVLink domain of one host).
     *
     * @param builder the cluster being built
     * @param host    host index, >= 0
     * @throws IllegalArgumentException on a negative host
     */
    public HostContext(TopologyBuilder builder, int host) {
        this(builder, host, 1);
    }

    /**
     * @param builder     the cluster being built
     * @param host        host index, >= 0
     * @param domainHosts hosts per NVLink domain in the cluster being built ({@link HostType#hostsPerNvlinkDomain()}
     *                    of its host type), >= 1
     * @throws IllegalArgumentException on a negative host or a domain of no host
     */
    public HostContext(TopologyBuilder builder, int host, int domainHosts) {
        this.builder = Objects.requireNonNull(builder, "builder");
        if (host < 0 || domainHosts < 1) {
            throw new IllegalArgumentException("host must be >= 0 and hosts per NVLink domain >= 1, got " + host
                    + " and " + domainHosts);
        }
        this.host = host;
        this.domainHosts = domainHosts;
    }

    /** @return the host index */
    public int host() {
        return host;
    }

    /** @return the builder */
    public TopologyBuilder builder() {
        return builder;
    }

    /** @param local e.g. {@code gpu3}; @return the device id, e.g. {@code h0/gpu3} */
    public String id(String local) {
        return "h" + host + "/" + local;
    }

    /**
     * @param index       local GPU index
     * @param model       model name
     * @param sm          compute capability x 10
     * @param memoryBytes device memory, bytes
     * @return the added GPU
     */
    public Gpu gpu(int index, String model, int sm, long memoryBytes) {
        return builder.add(new Gpu(id("gpu" + index), host, index, model, sm, memoryBytes, ""));
    }

    /**
     * A GPU of a database SKU: its name, sm and memory from {@link GpuModels}.
     *
     * @param index local GPU index
     * @param sku   the model and memory variant
     * @return the added GPU
     */
    public Gpu gpu(int index, GpuModels.Sku sku) {
        return gpu(index, sku.variant().name(), sku.model().sm(), sku.variant().memoryBytes());
    }

    /**
     * @param numa   NUMA node id
     * @param arch   {@code x86_64} or {@code arm64}
     * @param vendor {@code GenuineIntel}, {@code AuthenticAMD} or {@code NVIDIA}
     * @param model  model text
     * @return the added CPU
     */
    public Cpu cpu(int numa, String arch, String vendor, String model) {
        return builder.add(new Cpu(id("cpu" + numa), host, numa, arch, vendor, model));
    }

    /**
     * Adds the two x86_64 sockets of a two-socket host (NUMA nodes 0 and 1, {@code cpu0} and {@code cpu1}) and joins
     * them by one SMP link at the CPU family's socket-to-socket bandwidth per direction
     * ({@link CpuModel#interSocket}: the family's datasheet links x GB/s per link, {@code CpuModels}).
     *
     * @param cpu    the CPU family, whose vendor string ({@code GenuineIntel}, {@code AuthenticAMD}) both CPUs carry
     * @param model  model text of both CPUs, e.g. {@code Xeon Gold 6148}
     * @param detail the SMP link's text, e.g. {@code UPI 3x 10.4 GT/s}
     * @return the two CPUs, socket 0 first
     */
    public Cpu[] twoSockets(CpuModel cpu, String model, String detail) {
        Cpu[] cpus = {cpu(0, "x86_64", cpu.vendor(), model), cpu(1, "x86_64", cpu.vendor(), model)};
        smp(cpus[0], cpus[1], cpu.interSocket().orElseThrow(), detail);
        return cpus;
    }

    /**
     * Adds the 8 NUMA nodes of a two-socket host in NPS4 mode (4 per socket, {@code cpu0} to {@code cpu7}, nodes 0-3
     * on socket 0) and joins every pair by one SMP link at the CPU family's socket-to-socket bandwidth per direction
     * ({@link CpuModel#interSocket}), named {@code Infinity Fabric} inside a socket and {@code acrossDetail} between
     * sockets: the EPYC Rome hosts of the catalog (DGX A100 User Guide: 2x EPYC 7742 in NPS4, 8 NUMA nodes).
     *
     * @param cpu          the CPU family, whose vendor string all nodes carry
     * @param model        model text of every node, e.g. {@code EPYC 7742}
     * @param acrossDetail the text of a link between sockets, e.g. {@code xGMI 4x16}
     * @return the 8 nodes, node 0 first
     */
    public Cpu[] twoSocketsNps4(CpuModel cpu, String model, String acrossDetail) {
        Cpu[] cpus = new Cpu[8];
        for (int n = 0; n < 8; n++) {
            cpus[n] = cpu(n, "x86_64", cpu.vendor(), model);
        }
        for (int a = 0; a < 8; a++) {
            for (int b = a + 1; b < 8; b++) {
                smp(cpus[a], cpus[b], cpu.interSocket().orElseThrow(), a / 4 == b / 4 ? "Infinity Fabric"
                        : acrossDetail);
            }
        }
        return cpus;
    }

    /** @param k switch index; @param hostBridge host bridge index or -1; @return the added PCIe switch */
    public PcieSwitch pcieSwitch(int k, int hostBridge) {
        return builder.add(new PcieSwitch(id("pcisw" + k), host, "", hostBridge));
    }

    /**
     * @param k     NIC index (rail index for compute NICs)
     * @param name  device name, e.g. {@code mlx5_0}
     * @param speed port speed
     * @param gdr   GPUDirect RDMA capable
     * @param rail  rail index, or -1 for NICs not on the compute fabric (storage, management)
     * @return the added NIC
     */
    public Nic nic(int k, String name, Bandwidth speed, boolean gdr, int rail) {
        return builder.add(new Nic(id("nic" + k), host, name, speed, 1, gdr, rail, ""));
    }

    /** @param k index; @param chips NVSwitch chips it stands for; @return the added NVSwitch node */
    public NvSwitch nvSwitch(int k, int chips) {
        return builder.add(new NvSwitch(id("nvs" + k), host, host, chips));
    }

    /**
     * The shared NVLink switch of a multi-host NVLink domain, {@code nvl{domain}/nvs0}, created on first use.
     *
     * @param domain domain index
     * @param chips  NVSwitch chips it stands for
     * @return the switch
     */
    public NvSwitch sharedNvSwitch(int domain, int chips) {
        String sid = "nvl" + domain + "/nvs0";
        return (NvSwitch) builder.device(sid).orElseGet(() -> builder.add(new NvSwitch(sid, -1, domain, chips)));
    }

    /**
     * The NVLink switch of this host's NVLink domain: the shared {@code nvl{host / domainHosts}/nvs0} when several
     * hosts share a domain (a rack's NVLink switch trays), the host's own {@code h{host}/nvs0} when its domain holds
     * only this host (a tray whose rack mates are not in the cluster: NCCL then sees its GPUs as one node, joined to
     * the others by the network).
     *
     * @param chips NVSwitch chips it stands for
     * @return the switch
     */
    public NvSwitch domainNvSwitch(int chips) {
        return domainHosts > 1 ? sharedNvSwitch(host / domainHosts, chips) : nvSwitch(0, chips);
    }

    /** Connects two devices with PCIe of the given generation and width (physical and NCCL bandwidth derived). */
    public void pcie(Device a, Device b, PcieGen gen, int width) {
        // the NCCL bandwidth NcclBandwidths.derive would read back from the detail text, without parsing it per link
        builder.connect(a, b, LinkType.PCIE, width, Bandwidth.ofGBps(gen.gbpsPerLane() * width),
                NcclBandwidths.pcie(gen, Math.max(width, 1)), Latency.ZERO, gen.detail(width));
    }

    /**
     * Connects two devices with PCIe of the given generation and width whose speed NCCL cannot read (its topology
     * shows {@code link_speed} empty, as a Hyper-V guest's or an {@code NCCL_TOPO_FILE} that leaves it empty): NCCL's
     * bandwidth is its 8 GT/s fallback ({@code kvDictPciGen { NULL, 60 }}, NCCL 2.22.3, 2.28.9 and 2.30.7
     * {@code src/graph/topo.cc ncclTopoAddPci}: 12 GB/s for x16), the physical one and the detail's generation the
     * real link's; the detail carries {@link NcclBandwidths#PCIE_SPEED_FALLBACK}, as a link read from such an XML does.
     */
    public void pcieSpeedUnset(Device a, Device b, PcieGen gen, int width) {
        builder.connect(a, b, LinkType.PCIE, width, Bandwidth.ofGBps(gen.gbpsPerLane() * width),
                NcclBandwidths.pcie(PcieGen.GEN3, Math.max(width, 1)), Latency.ZERO,
                gen.detail(width) + " (" + NcclBandwidths.PCIE_SPEED_FALLBACK + ")");
    }

    /**
     * Connects two devices with {@code count} NVLinks of {@code perLinkGBps} each per direction.
     *
     * @param generation e.g. {@code NVLink4}
     */
    public void nvlink(Device a, Device b, int count, double perLinkGBps, String generation) {
        builder.connect(a, b, LinkType.NVLINK, count, Bandwidth.ofGBps(count * perLinkGBps), Latency.ZERO,
                generation + " x" + count);
    }

    /**
     * Connects two devices with {@code count} NVLinks of a generation, at its datasheet rate per link.
     *
     * @param gen the generation (its label becomes the link detail)
     */
    public void nvlink(Device a, Device b, int count, NvlinkGen gen) {
        nvlink(a, b, count, gen.perLink().gbps(), gen.label());
    }

    /** Connects two CPUs (NUMA nodes) with an SMP link of the given physical bandwidth per direction. */
    public void smp(Cpu a, Cpu b, Bandwidth physical, String detail) {
        builder.connect(a, b, LinkType.SMP, 1, physical, Latency.ZERO, detail);
    }

    /** Connects a GPU and a CPU with NVLink-C2C of the given bandwidth per direction. */
    public void c2c(Device a, Device b, Bandwidth physical) {
        builder.connect(a, b, LinkType.C2C, 1, physical, Latency.ZERO, "NVLink-C2C");
    }
}
