package dev.collsim.topology;

import java.util.Objects;

/**
 * A CPU socket or NUMA domain (NCCL's CPU node).
 *
 * @param id     unique id
 * @param host   host index
 * @param numaId NUMA node id
 * @param arch   {@code x86_64}, {@code arm64} or {@code ppc64}
 * @param vendor {@code GenuineIntel}, {@code AuthenticAMD}, {@code NVIDIA} (Grace) or other text
 * @param model  model text, e.g. {@code Xeon Platinum 8480C}
 */
public record Cpu(String id, int host, int numaId, String arch, String vendor, String model) implements Device {

    /** Validates the id. */
    public Cpu {
        Objects.requireNonNull(id, "id");
        arch = arch == null ? "x86_64" : arch;
        vendor = vendor == null ? "" : vendor;
        model = model == null ? "" : model;
    }

    @Override
    public String ncclType() {
        return "CPU";
    }
}
