/**
 * {@code nvidia-smi topo -m} text: the matrix parser, the PCIe tree inferred from its labels, and
 * {@link dev.collsim.topology.io.smi.NvidiaSmiTopoReader}, which names every assumption it had to make.
 */
package dev.collsim.topology.io.smi;
