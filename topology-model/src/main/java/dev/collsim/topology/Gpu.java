package dev.collsim.topology;

import java.util.Objects;

/**
 * A GPU.
 *
 * @param id          unique id
 * @param host        host index (>= 0)
 * @param index       local device index on its host (CUDA/NVML order), >= 0
 * @param model       marketing name, e.g. {@code H100-SXM5-80GB}
 * @param sm          compute capability x 10, e.g. 90 for Hopper (NCCL's {@code sm} attribute)
 * @param memoryBytes device memory in bytes (0 if unknown)
 * @param busId       PCI bus id, e.g. {@code 0000:1b:00.0} (empty if unknown)
 */
public record Gpu(String id, int host, int index, String model, int sm, long memoryBytes, String busId)
        implements Device {

    /** @throws IllegalArgumentException on a negative index or host, or an sm below 30 */
    public Gpu {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(model, "model");
        busId = busId == null ? "" : busId;
        if (host < 0 || index < 0) {
            throw new IllegalArgumentException("GPU " + id + ": host and index must be >= 0");
        }
        if (sm < 30 || sm > 200) {
            throw new IllegalArgumentException("GPU " + id + ": sm must be a compute capability x10 in [30, 200], got " + sm);
        }
    }

    @Override
    public String ncclType() {
        return "GPU";
    }
}
