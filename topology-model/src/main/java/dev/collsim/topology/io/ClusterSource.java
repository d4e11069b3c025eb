package dev.collsim.topology.io;

import dev.collsim.topology.Topology;
import dev.collsim.topology.fabric.ClusterSpec;
import java.util.Objects;

/**
 * A cluster as every command's {@code -c} names it, resolved once by {@link ClusterLoader#resolve}: the topology,
 * its {@link ClusterSpec} when it is built from a host type, of the catalog or described inline in YAML (what-if
 * edits, other host counts and other fabrics apply to the spec), and where it came from. Immutable.
 *
 * @param name     what the user gave (trimmed), or {@link ClusterLoader#DEFAULT}
 * @param origin   where it came from
 * @param topology the validated cluster
 * @param spec     its spec: a catalog host type NAME (one host, no fabric), NAMExN / NAME:N, or a YAML cluster
 *                 (file or shipped config), whose {@code hosts} is a catalog name or an inline host description, or
 *                 FILE:N (N copies of a machine file's host); null for a machine file read as it is (nvidia-smi topo
 *                 -m text, NCCL topology XML, InfraGraph)
 */
public record ClusterSource(String name, Origin origin, Topology topology, ClusterSpec spec) {

    /** Where a cluster came from. */
    public enum Origin {
        /** A file the user named (YAML, nvidia-smi topo -m text, NCCL topology XML; format by content). */
        FILE,
        /** A shipped config, {@code configs/NAME.yaml}. */
        CONFIG,
        /** A bare catalog host type name: one host, no fabric. */
        HOST_TYPE,
        /** {@code NAMExN} or {@code NAME:N}: N hosts of a catalog type ({@link ClusterLoader#shorthand}). */
        HOSTS
    }

    /** @throws NullPointerException on a null name, origin or topology */
    public ClusterSource {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(topology, "topology");
    }

    /** @return true when the cluster has a spec, so edits (host count, fabric, NICs) can be applied */
    public boolean editable() {
        return spec != null;
    }

    /** @return GPUs per host: from the spec, else those of host 0 */
    public int gpusPerHost() {
        return spec != null ? spec.hostType().gpusPerHost() : topology.gpusOf(0).size();
    }
}
