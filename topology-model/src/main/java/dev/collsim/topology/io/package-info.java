/**
 * Reading and writing cluster descriptions, one subpackage per format ({@code yaml}, {@code smi}, {@code xml},
 * {@code export}); this package holds what they share. The YAML cluster spec ({@code collsim/v1}), the {@link ClusterLoader}
 * that resolves a file path or a config/catalog name and detects the format by content, DOT/GraphML exporters
 * (jgrapht-io), and real machine descriptions: NCCL topology XML ({@code NCCL_TOPO_FILE} /
 * {@code NCCL_TOPO_DUMP_FILE}, read and written), NCCL graph XML ({@code NCCL_GRAPH_DUMP_FILE}) and
 * {@code nvidia-smi topo -m} text. Bad input is reported as {@link dev.collsim.io.InputException} listing every
 * problem with file, line, column and field; machine-file readers name every assumption they had to make in
 * {@link dev.collsim.topology.Topology#source()}. This package depends on the topology core, the catalog, the
 * units, Jackson and the JDK (StAX for XML); it must not import the simulator or the CLI.
 */
package dev.collsim.topology.io;
