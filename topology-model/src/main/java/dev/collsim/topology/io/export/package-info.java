/** Writers: NCCL topology XML (round trip with the reader), DOT and GraphML (jgrapht-io). */
package dev.collsim.topology.io.export;
