package dev.collsim.topology.catalog;

import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.NicVendor;

/**
 * A kind of host (server, compute tray): the devices and links one host adds to a cluster. Implementations are
 * immutable.
 */
public interface HostType {

    /** @return the catalog name, e.g. {@code dgx-h100}; lower case, the key names are looked up by */
    String name();

    /**
     * @return the name as its maker spells it (a cloud instance type such as {@code Standard_ND96isr_H100_v5}), for
     *         what collsim prints; {@link #name()} unless the type says otherwise
     */
    default String displayName() {
        return name();
    }

    /**
     * The name of {@code count} hosts of this type, as a cluster built on a fabric is named ({@code collsim predict
     * --backend flow --fabric ...}): {@link #name()}{@code x}count, e.g. {@code dgx-h100x4}, as {@code -c NAMExN}
     * spells it.
     *
     * @param count hosts, at least 1
     * @return the name
     */
    default String hostsName(int count) {
        return name() + "x" + count;
    }

    /** @return one line describing the host and citing its main source */
    String description();

    /** @return GPUs per host */
    int gpusPerHost();

    /**
     * @return hosts that share one NVLink domain through a multi-host NVLink switch (18 for GB200 NVL72 compute trays),
     *         or 1 when NVLink stays inside the host
     */
    default int hostsPerNvlinkDomain() {
        return 1;
    }

    /**
     * @return the transport NCCL uses between hosts of this type: InfiniBand (the model's reference class) unless the
     *         type says otherwise (a cloud instance's EFA, TCPX/TCPXO, RoCE or socket network)
     */
    default NetworkClass networkClass() {
        return NetworkClass.INFINIBAND;
    }

    /**
     * @return the PCI vendor of this type's network interfaces, which sets NCCL's socket defaults: {@link
     *         NicVendor#OTHER} unless the type is a cloud instance ({@link SystemHost})
     */
    default NicVendor nicVendor() {
        return NicVendor.OTHER;
    }

    /**
     * Adds one host's devices and links.
     *
     * @param ctx where to add them (builder, host index, shared NVLink switches)
     */
    void addHost(HostContext ctx);
}
