package dev.collsim.topology;

import java.util.Objects;

/**
 * An NVSwitch (or the set of NVSwitch chips of one NVLink domain seen as one node, as NCCL models it:
 * NCCL 2.30 {@code src/graph/topo.cc} connects every GPU's switch links to a single NVS node).
 *
 * @param id     unique id
 * @param host   host index, or -1 when the switch is shared by several hosts (multi-node NVLink, e.g. NVL72)
 * @param domain NVLink domain index (GPUs that reach each other over NVLink share one)
 * @param chips  number of NVSwitch chips this node stands for (e.g. 6 in a DGX A100, 4 in a DGX H100), >= 1
 */
public record NvSwitch(String id, int host, int domain, int chips) implements Device {

    /** One NVSwitch node standing for one chip. */
    public NvSwitch(String id, int host, int domain) {
        this(id, host, domain, 1);
    }

    /** Validates the id. */
    public NvSwitch {
        Objects.requireNonNull(id, "id");
        if (chips < 1) {
            throw new IllegalArgumentException("NVSwitch " + id + ": chips must be >= 1, got " + chips);
        }
    }

    @Override
    public String ncclType() {
        return "NVS";
    }
}
