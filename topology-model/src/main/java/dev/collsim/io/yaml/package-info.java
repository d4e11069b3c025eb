/**
 * Located YAML: {@link dev.collsim.io.yaml.YamlTree} reads a document into {@link dev.collsim.io.yaml.YamlNode}s
 * that keep every value's (and key's) line and column, so readers of YAML inputs (the collsim/v1 cluster spec, the
 * what-if report spec) report problems as {@code file:line:col: field: message}.
 */
package dev.collsim.io.yaml;
