package dev.collsim.cli.validation;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workstation's own files: its {@code nvidia-smi topo -m} (4 GPUs on host bridges of one CPU, NODE, no GPU model in
 * the text) and an all_reduce log of its 4 L40S. Compared on the machine file without {@code --gpu-model}, the
 * cluster's GPUs are "unknown" with sm 80 assumed (the reader's rule for a matrix without NVLink), while the log's
 * ranks ran on L40S, sm 89 (CUDA C++ Programming Guide: Ada is compute capability 8.9); compare said nothing of it
 * and judged the errors with another class's band (ampere-1host-pcie). Now an assumed line names both and the hint.
 */
class CompareMachineFileGpuCliTest {

    @TempDir
    Path dir;

    @Test
    void aMachineFileWithoutGpuModelIsSaidWhenTheLogNamesOne() throws Exception {
        StringBuilder smi = new StringBuilder("\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n");
        for (int i = 0; i < 4; i++) {
            smi.append("GPU").append(i);
            for (int j = 0; j < 4; j++) {
                smi.append('\t').append(i == j ? " X " : "NODE");
            }
            smi.append("\t0-63\t0\t\tN/A\n");
        }
        smi.append("\nLegend:\n\n  X    = Self\n  NODE = Connection traversing PCIe as well as the interconnect between"
                + " PCIe Host Bridges within a NUMA node\n");
        Path machine = Files.writeString(dir.resolve("ws.txt"), smi.toString());
        StringBuilder log = new StringBuilder("# nThread 1 nGpus 4 minBytes 8 maxBytes 33554432 step: 4096(factor)"
                + " warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
        for (int r = 0; r < 4; r++) {
            log.append("#  Rank  ").append(r).append(" Group  0 Pid  77310 on  ws-lab01 device  ").append(r)
                    .append(" [0x").append(r + 1).append("1] NVIDIA L40S\n");
        }
        log.append("#       size         count      type   redop    root     time   algbw   busbw #wrong     time"
                + "   algbw   busbw #wrong\n#        (B)    (elements)                               (us)  (GB/s)"
                + "  (GB/s)            (us)  (GB/s)  (GB/s)\n");
        log.append("           8             2     float     sum      -1    14.80    0.00    0.00      0    14.80"
                + "    0.00    0.00      0\n    33554432       8388608     float     sum      -1   3605.8    9.31"
                + "   13.96      0   3605.8    9.31   13.96      0\n");
        log.append("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 6.98\n#\n");
        Path f = Files.writeString(dir.resolve("ws-allreduce.txt"), log.toString());
        CliRun r = run("compare", "-m", f.toString(), "-c", machine.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("assumed: the given cluster's GPUs have no model (sm 80 assumed), although the"
                + " file's ranks ran on NVIDIA L40S (L40S, sm 89): add --gpu-model 'L40S' to model them"), r.out());
        CliRun hinted = run("compare", "-m", f.toString(), "-c", machine.toString(), "--gpu-model", "L40S");
        assertEquals(0, hinted.code(), hinted.err());
        assertFalse(hinted.out().contains("have no model"), hinted.out());
        assertTrue(hinted.out().contains("ada-1host-pcie"), hinted.out());
    }
}
