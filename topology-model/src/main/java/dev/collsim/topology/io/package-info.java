/**
 * Reading and writing cluster descriptions: the YAML cluster spec ({@code collsim/v1}), the {@link ClusterLoader}
 * that resolves a file path or a config/catalog name and detects the format by content, and DOT/GraphML exporters
 * (jgrapht-io). Bad input is reported as {@link dev.collsim.io.InputException} listing every problem with file,
 * line, column and field.
 */
package dev.collsim.topology.io;
