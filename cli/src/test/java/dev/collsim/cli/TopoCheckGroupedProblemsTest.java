package dev.collsim.cli;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * topo check on a contradictory {@code nvidia-smi topo -m} prints a screen, not a wall. By hand: GPU0's row puts it
 * below one PCIe switch (PIX) with each of GPU1-GPU5, so all six share that switch, and every SYS label of rows
 * GPU1-GPU5 contradicts it: 5 rows x 5 GPU columns = 25 problems of one kind, 3 printed and "22 more" (rows on file
 * lines 3-7), the count line still 25.
 */
class TopoCheckGroupedProblemsTest {

    @TempDir
    Path dir;

    @Test
    void oneContradictionSeenFromEveryPairIsGrouped() throws Exception {
        Path f = dir.resolve("topo.txt");
        StringBuilder m = new StringBuilder("        GPU0    GPU1    GPU2    GPU3    GPU4    GPU5    CPU Affinity"
                + "    NUMA Affinity\n");
        for (int g = 0; g < 6; g++) {
            m.append("GPU").append(g);
            for (int c = 0; c < 6; c++) {
                m.append("    ").append(c == g ? " X " : g == 0 ? "PIX" : "SYS");
            }
            m.append("    0-15    0\n");
        }
        Files.writeString(f, m.toString());
        CliRun r = run("topo", "check", "-c", f.toString());
        assertEquals(ExitCodes.INPUT, r.code(), r.err());
        String[] lines = r.err().strip().split("\n");
        assertEquals(5, lines.length, r.err());
        assertTrue(lines[0].startsWith(f + ":3:9: GPU1/GPU0: found 'SYS'"), r.err());
        assertEquals("  ... and 22 more of the same kind (lines 3-7)", lines[3]);
        assertEquals("25 problems in " + f, lines[4]);
    }
}
