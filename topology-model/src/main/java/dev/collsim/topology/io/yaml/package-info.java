/**
 * The collsim/v1 YAML cluster spec: {@link dev.collsim.topology.io.yaml.YamlClusterReader}, the located YAML tree
 * ({@code YamlTree}, {@code YamlNode}: every value keeps its line and column), field readers and inline host types.
 */
package dev.collsim.topology.io.yaml;
