package dev.collsim.topology;

/**
 * Marks a {@link Topology#derived} key whose value depends only on the cluster's devices and links, not on its
 * network class: {@link Topology#withNetworkClass} carries such values over to the copy (other derived values, such as
 * NCCL's paths, may change with the class and are computed again). Example: the fabric spec a cluster was built from.
 */
public interface StructuralKey {
}
