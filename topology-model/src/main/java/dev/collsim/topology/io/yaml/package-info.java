/**
 * The collsim/v1 YAML cluster spec: {@link dev.collsim.topology.io.yaml.YamlClusterReader}, its field readers and
 * inline host types, on the shared located YAML tree of {@code dev.collsim.io.yaml}.
 */
package dev.collsim.topology.io.yaml;
