package dev.collsim.topology.io;

import java.util.Locale;
import java.util.Map;

/**
 * NVIDIA GPU names by PCI device id (PCI ID database, pci-ids.ucw.cz, vendor 10de), for the {@code device}
 * attribute of NCCL XML {@code pci} elements. Ids not listed become {@code NVIDIA 0xNNNN}. Stateless.
 */
public final class GpuModels {

    private static final Map<Integer, String> BY_ID = Map.of(
            0x1db1, "V100-SXM2-16GB",
            0x1db5, "V100-SXM2-32GB",
            0x20b0, "A100-SXM4-40GB",
            0x20b2, "A100-SXM4-80GB",
            0x20b5, "A100-PCIE-80GB",
            0x2330, "H100-SXM5-80GB",
            0x2335, "H200-SXM-141GB");

    /** Model text used when the file has no device id. */
    public static final String UNKNOWN = "unknown";

    private GpuModels() {
    }

    /** @return the model name of a PCI device id such as {@code 0x20b5} */
    public static String name(int deviceId) {
        String n = BY_ID.get(deviceId);
        return n != null ? n : String.format(Locale.ROOT, "NVIDIA 0x%04x", deviceId);
    }

    /** @return the PCI device id for a model name written by {@link #name}, or -1 when it has none */
    public static int deviceId(String model) {
        for (Map.Entry<Integer, String> e : BY_ID.entrySet()) {
            if (e.getValue().equals(model)) {
                return e.getKey();
            }
        }
        if (model != null && model.startsWith("NVIDIA 0x")) {
            try {
                return Integer.parseInt(model.substring(9), 16);
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return -1;
    }
}
