package dev.collsim.cli.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The built-in report's 2:1 fat-tree variant (4 DGX H100, 8 ports per leaf, flow backend): NCCL picks Tree at 8 MiB
 * and NVLSTree at 16 MiB. The 8 MiB call moves half the bytes of the 16 MiB one over at least as good a schedule
 * (NCCL's Tree pipelines chunks shrunk to 32 KiB at this size and overlaps its broadcast with its reduce, NCCL 2.30.7
 * src/enqueue.cc calcCollChunking and the TreeUpDown pattern), so it must not take longer. Before, the Tree moved
 * one 512 KiB chunk per channel hop by hop and broadcast only after the reduce: 268 us at 8 MiB against 245 us at
 * 16 MiB.
 */
class FlowFatTreeMonotoneTest {

    @Test
    void treeAtEightMiBIsNotSlowerThanNvlsTreeAtSixteen() {
        CliRun r = CliRun.run("predict", "allreduce", "-c", "default", "--backend", "flow", "--fabric", "fat-tree",
                "--oversubscription", "2:1", "--leaf-radix", "8", "-d", "bfloat16", "-b", "8M", "-e", "16M", "-f", "2");
        assertEquals(0, r.code(), r.err());
        List<List<String>> rows = r.out().lines().filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> List.of(l.trim().split("\\s+"))).toList();
        assertEquals(2, rows.size(), r.out());
        assertEquals("Tree", rows.get(0).get(9), r.out());
        assertEquals("NVLSTree", rows.get(1).get(9), r.out());
        assertTrue(Double.parseDouble(rows.get(0).get(5)) <= Double.parseDouble(rows.get(1).get(5)), r.out());
    }
}
