/**
 * Topology edits for what-ifs: {@link dev.collsim.topology.edit.ClusterEdits} (host type and count, NIC speed, rails,
 * NVLink bandwidth, fabric, oversubscription, leaf radix) applied to a cluster's
 * {@link dev.collsim.topology.fabric.ClusterSpec} by {@link dev.collsim.topology.edit.ClusterEditor}. Used by the
 * report's variants, {@code plan}'s scaling search and {@code predict --rails}.
 */
package dev.collsim.topology.edit;
