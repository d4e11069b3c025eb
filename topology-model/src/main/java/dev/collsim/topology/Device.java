package dev.collsim.topology;

/**
 * A vertex of the topology graph: one device. Implementations are records, so devices compare by value;
 * every device id is unique within a {@link Topology}.
 *
 * <p>Device kinds map to NCCL's node types (NCCL 2.30 {@code src/graph/topo.h}): {@link Gpu} = GPU,
 * {@link NvSwitch} = NVS, {@link PcieSwitch} = PCI, {@link Cpu} = CPU (one NUMA domain), {@link Nic} = NIC,
 * {@link NetSwitch} = a network switch (NCCL sees the whole network as one NET node).
 */
public sealed interface Device permits Gpu, NvSwitch, PcieSwitch, Cpu, Nic, NetSwitch {

    /** @return unique id, e.g. {@code h0/gpu3}, {@code leaf2} */
    String id();

    /** @return index of the host (server, NCCL "node") this device sits in, or -1 for fabric devices */
    int host();

    /** @return the NCCL node type name: GPU, NVS, PCI, CPU, NIC or NET */
    String ncclType();
}
