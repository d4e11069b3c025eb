package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.perf.PerfJson;
import dev.collsim.topology.io.export.NcclTopoXmlWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every file writer goes through {@link AtomicFiles#write(Path, AtomicFiles.Content)}: a write that fails half way
 * leaves the old content, and the temporary file a killed run left ({@code .NAME<digits>.tmp}, the name
 * {@link AtomicFiles#tempFile} makes) is removed by the next write of the same target. The writers checked are those
 * of run --json ({@link PerfJson}) and topo export --format nccl-xml ({@link NcclTopoXmlWriter}); calibrate's profile
 * and the CLI's CSV outputs use the same call.
 */
class AtomicWritersTest {

    /** What a SIGKILL between the temporary file's creation and the move leaves behind. */
    private static Path leftover(Path target) throws IOException {
        return Files.writeString(target.resolveSibling("." + target.getFileName() + "8123456789.tmp"), "half");
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void failedWriteKeepsTheOldContentAndLeavesNothing(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("out.csv");
        Files.writeString(f, "old\n");
        assertThrows(IOException.class, () -> AtomicFiles.write(f, out -> {
            out.write("new, half".getBytes());
            throw new IOException("disk full");
        }));
        assertEquals("old\n", Files.readString(f));
        assertEquals(List.of("out.csv"), names(dir));
    }

    @Test
    void runJsonRemovesLeftoversAndReplacesWhole(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("run.json");
        Path left = leftover(f);
        PerfJson.write(Map.of("tool", "collsim-run"), f);
        assertFalse(Files.exists(left));
        assertTrue(Files.readString(f).contains("\"tool\""), Files.readString(f));
        assertEquals(List.of("run.json"), names(dir));
    }

    @Test
    void ncclXmlExportRemovesLeftovers(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("topo.xml");
        Path left = leftover(f);
        new NcclTopoXmlWriter().write(ClusterLoader.load("dgx-h100"), f);
        assertFalse(Files.exists(left));
        assertTrue(Files.readString(f).startsWith("<system version=\"1\">"), Files.readString(f));
        assertEquals(List.of("topo.xml"), names(dir));
    }
}
