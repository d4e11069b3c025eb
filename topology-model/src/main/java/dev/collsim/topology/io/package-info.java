/**
 * Readers and writers of real machine descriptions: NCCL topology XML ({@code NCCL_TOPO_FILE} /
 * {@code NCCL_TOPO_DUMP_FILE}), NCCL graph XML ({@code NCCL_GRAPH_DUMP_FILE}) and {@code nvidia-smi topo -m} text.
 * Each reader implements {@link dev.collsim.io.TopologyReader} (or returns records, for the graph dump), reports
 * every problem with file, line and column through {@link dev.collsim.io.InputException}, and names every
 * assumption it had to make in {@link dev.collsim.topology.Topology#source()}. This package depends only on the
 * topology core, the units and the JDK (StAX for XML); it must not import the simulator or the CLI.
 */
package dev.collsim.topology.io;
