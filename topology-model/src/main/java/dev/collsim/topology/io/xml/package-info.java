/**
 * NCCL's XML formats: topology XML ({@code NCCL_TOPO_FILE}, {@code NCCL_TOPO_DUMP_FILE}) and graph XML
 * ({@code NCCL_GRAPH_DUMP_FILE}), read through a located StAX tree (XXE and entity expansion refused).
 */
package dev.collsim.topology.io.xml;
