/**
 * Reader of InfraGraph files (github.com/Keysight/infragraph, schema 2.4.0: {@code schema/infrastructure.yaml},
 * {@code device.yaml}, {@code component.yaml}, {@code instance.yaml}, {@code link.yaml}, {@code edge.yaml},
 * {@code annotation.yaml}), YAML or JSON, into a collsim {@link dev.collsim.topology.Topology}. The writer is
 * {@link dev.collsim.topology.io.export.InfraGraphWriter}.
 */
package dev.collsim.topology.io.infragraph;
