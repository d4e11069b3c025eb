package dev.collsim.topology.io.xml;

import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.Link;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.io.Decimals;
import dev.collsim.units.Bandwidth;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What the NCCL topology XML reader collects from a file before it builds the graph: one record per device and
 * per PCIe link. Package-private value types.
 */
public final class PciSpecs {

    /** NCCL's PCI class codes (NCCL 2.30 {@code topo.cc} {@code kvDictPciClass}). */
    public static final String CLASS_BRIDGE = "0x060400";
    public static final String CLASS_NVSWITCH = "0x068000";
    public static final String CLASS_CPU = "0x068001";
    public static final String CLASS_GPU = "0x030200";
    public static final String CLASS_NIC = "0x020700";
    /**
     * collsim's own attribute on a {@code pci} bridge: the index of the CPU host bridge it hangs off, so that
     * {@code nvidia-smi}'s NODE and PHB can be told apart after a round trip. NCCL looks attributes up by name and
     * ignores this one (NCCL 2.30 {@code src/graph/xml.cc}); NCCL 2.28.9 loaded such a file on the lent H200 and
     * kept the attribute in its own dump (test resource {@code C-topodump-device-h200-nccl2.28.9-from-collsim-file.xml}).
     */
    public static final String HOST_BRIDGE_ATTR = "collsim_host_bridge";
    /**
     * collsim's own attribute on a {@code net}: the NIC's rail (-1 for a storage or management NIC), so that a round
     * trip keeps which NICs are on the compute fabric. NCCL ignores it.
     */
    public static final String RAIL_ATTR = "collsim_rail";

    private static final Pattern BUS_ID = Pattern.compile("[0-9a-fA-F]{1,8}:[0-9a-fA-F]{1,4}:[0-9a-fA-F]{1,2}\\.[0-9a-fA-F]");
    private static final Pattern PCI_CLASS = Pattern.compile("0x[0-9a-fA-F]{6}");

    private PciSpecs() {
    }

    /** @return true for a PCI bus id {@code dddd:bb:dd.f} (hex) */
    public static boolean isBusId(String s) {
        return s != null && BUS_ID.matcher(s.trim()).matches();
    }

    /** @return true for a PCI class {@code 0xcccccc} */
    public static boolean isPciClass(String s) {
        return s != null && PCI_CLASS.matcher(s.trim()).matches();
    }

    /** @return true for NCCL's invisible-device bus id ({@code fffffff:ff:ff.0}, NVSwitch hidden in a VM) */
    public static boolean isInvisible(String busId) {
        return busId != null && busId.trim().toLowerCase(Locale.ROOT).startsWith("fffffff");
    }

    /** @return a comparable key of a bus id: its hex digits as a number, as NCCL's {@code busIdToInt64} */
    public static long key(String busId) {
        StringBuilder hex = new StringBuilder();
        for (char c : busId.trim().toCharArray()) {
            if (Character.digit(c, 16) >= 0) {
                hex.append(c);
            }
        }
        return hex.length() == 0 ? -1 : Long.parseUnsignedLong(hex.toString(), 16);
    }

    /**
     * The {@code link_speed} and {@code link_width} attributes that read back as this PCIe link: from its
     * {@code PCIe GenN xW} detail (NCCL-default notes give back an empty speed or width 0), else the generation whose
     * physical x-lane bandwidth is nearest to the link's.
     *
     * @param l a PCIe link
     * @return {speed, width} attribute values, e.g. {"32.0 GT/s PCIe", "16"}
     */
    public static String[] linkAttributes(Link l) {
        int[] gw = PcieGen.parseDetail(l.detail());
        if (gw == null) {
            int width = Math.max(1, Math.min(32, l.count()));
            PcieGen best = PcieGen.GEN3;
            for (PcieGen g : PcieGen.values()) {
                if (Math.abs(g.physical(width).gbps() - l.bandwidth().gbps())
                        < Math.abs(best.physical(width).gbps() - l.bandwidth().gbps())) {
                    best = g;
                }
            }
            gw = new int[] {best.number(), width};
        }
        double rate = PcieGen.of(gw[0]).gtPerSecond();
        String speed = l.detail().contains(PcieLink.SPEED_UNSET) ? ""
                : (rate == Math.rint(rate) ? Decimals.plain(rate) + ".0" : Decimals.plain(rate)) + " GT/s PCIe";
        return new String[] {speed, l.detail().contains(PcieLink.WIDTH_ZERO) ? "0" : Integer.toString(gw[1])};
    }

    /**
     * The PCIe link of a {@code pci} element to its parent: what NCCL reads from the file and what the link is. They
     * differ only where the file hides the link (empty {@code link_speed} or {@code link_width} 0, as a Hyper-V guest
     * shows): NCCL then takes its fallback for its own paths, and the link's real generation and width come from
     * elsewhere (the GPU database for a GPU, {@code XmlGpuCollector}).
     *
     * @param gen        generation NCCL uses (3 when the file gives none, NCCL's fallback)
     * @param width      lanes NCCL uses (16 when the file gives 0, NCCL's fallback)
     * @param speedUnset true when link_speed was absent, empty or {@code Unknown}
     * @param widthZero  true when link_width was absent or 0
     * @param realGen    the link's generation: the file's, else the one found elsewhere, else NCCL's
     * @param realWidth  the link's lanes: the file's, else the ones found elsewhere, else NCCL's
     */
    public record PcieLink(int gen, int width, boolean speedUnset, boolean widthZero, int realGen, int realWidth) {

        /** Detail suffix marking NCCL's default link speed. */
        static final String SPEED_UNSET = NcclBandwidths.PCIE_SPEED_FALLBACK;
        /** Detail suffix marking NCCL's default link width. */
        public static final String WIDTH_ZERO = NcclBandwidths.PCIE_WIDTH_FALLBACK;

        /** A link whose real generation and width are what NCCL uses. */
        PcieLink(int gen, int width, boolean speedUnset, boolean widthZero) {
            this(gen, width, speedUnset, widthZero, gen, width);
        }

        /** @return this link with its real generation and width */
        PcieLink withReal(int generation, int lanes) {
            return new PcieLink(gen, width, speedUnset, widthZero, generation, lanes);
        }

        /** @return the link detail, e.g. {@code PCIe Gen4 x16} (the real link) plus the NCCL fallback notes */
        String detail() {
            List<String> notes = new ArrayList<>();
            if (speedUnset) {
                notes.add(SPEED_UNSET);
            }
            if (widthZero) {
                notes.add(WIDTH_ZERO);
            }
            return PcieGen.of(realGen).detail(realWidth) + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")");
        }

        /** @return the real link's physical bandwidth per direction ({@link PcieGen#physical}) */
        Bandwidth physical() {
            return PcieGen.of(realGen).physical(realWidth);
        }

        /** @return NCCL's bandwidth of the link as NCCL reads it ({@link NcclBandwidths#pcie}), per direction */
        Bandwidth nccl() {
            return NcclBandwidths.pcie(PcieGen.of(gen), width);
        }
    }

    /** One nvlink element: target bus id, link count, target class. */
    public record NvLinkElement(String target, int count, String tclass, XmlNode node) {
    }

    /**
     * The model name for a {@code pci} element's {@code device} id: the database's SKU name (e.g. {@code
     * H100-SXM5-80GB} for 0x2330), else {@code NVIDIA 0xNNNN}.
     *
     * @param deviceId PCI device id of vendor 0x10de
     * @return the model name
     */
    public static String gpuModelName(int deviceId) {
        return GpuModels.byPciDeviceId(deviceId).map(s -> s.variant().name())
                .orElse(String.format(Locale.ROOT, "NVIDIA 0x%04x", deviceId));
    }

    /**
     * The PCI device id to write for a GPU model name: the id of the database SKU of exactly that name, or the id in a
     * name {@link #gpuModelName} wrote as {@code NVIDIA 0xNNNN}.
     *
     * @param model GPU model name
     * @return the id, or -1 when it has none
     */
    public static int gpuDeviceId(String model) {
        int id = GpuModels.sku(model).filter(s -> s.variant().name().equals(model)).map(s -> s.variant().pciDeviceId())
                .orElse(-1);
        if (id < 0 && model != null && model.startsWith("NVIDIA 0x")) {
            try {
                return Integer.parseInt(model.substring(9), 16);
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return id;
    }

    /** A GPU found in the file. {@code dev} is -1 when the file has no {@code gpu} child. */
    public record GpuElement(int host, String busId, int dev, int sm, String model, String parentId, String cpuId,
            PcieLink link, List<NvLinkElement> nvlinks, List<double[]> c2c, XmlNode node) {
    }

    /** A NIC port found in the file. {@code dev} is -1 when the file has no {@code net} element. */
    public record NicElement(int host, String busId, int dev, String name, double speedMbps, int port, boolean gdr, int rail,
            String parentId, PcieLink link, XmlNode node) {
    }

    /** A PCIe switch or bridge. */
    public record SwitchElement(String id, int host, String busId, int hostBridge, String parentId, PcieLink link) {
    }
}
