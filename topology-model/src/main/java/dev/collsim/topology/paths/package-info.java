/**
 * Paths between devices as NCCL computes them (NCCL 2.30 {@code src/graph/paths.cc}, nccl-model.md section 5.1):
 * path type, bottleneck bandwidth in two views (physical datasheet or NCCL's own constants), hop count and links,
 * plus the {@code nvidia-smi topo -m} label. Paths inside a host are computed per host, lazily, and cached; paths
 * across hosts are composed on demand (GPU to NIC, fabric route, NIC to GPU).
 *
 * <p>This package reads {@code dev.collsim.topology}, {@code dev.collsim.nccl.env} (NCCL_* settings to
 * {@link dev.collsim.topology.paths.PathFinder.Options}) and JGraphT only; it must not import io, catalog or fabric.
 * {@link dev.collsim.topology.paths.HopIndex} numbers the hops of a set of hosts for callers that keep per-link state
 * (the channel search).
 */
package dev.collsim.topology.paths;
