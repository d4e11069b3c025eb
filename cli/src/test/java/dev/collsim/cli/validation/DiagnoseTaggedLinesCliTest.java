package dev.collsim.cli.validation;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code collsim diagnose} cites the file's own lines as evidence also when every line carries mpirun
 * {@code --tag-output}'s prefix {@code [1,0]<stdout>:}: such a file opens with '[' but is text, not JSON (its
 * evidence lines were once empty, as for JSON, whose rows share one line).
 */
class DiagnoseTaggedLinesCliTest {

    private static final Path DATA = Path.of("../validation/src/test/resources/data");

    @TempDir
    Path dir;

    /**
     * The 2x2 DGX H100 log without its {@code #@} lines, tagged line by line and cut inside the 1 GiB row: its lines
     * 1-38 are the file's first 38 lines without {@code #@} (line 38 the 512 MiB row), line 39 the cut row.
     */
    @Test
    void cutShortEvidenceQuotesTheTaggedRow() throws Exception {
        List<String> lines = Files.readString(DATA.resolve("A-allreduce-2x2xH100-dgx-ib.txt")).lines()
                .filter(l -> !l.startsWith("#@")).limit(38).collect(Collectors.toList());
        lines.add("  1073741824     268435456     float     sum      -1    109");
        Path f = dir.resolve("tagged.log");
        Files.writeString(f, lines.stream().map(l -> "[1,0]<stdout>:" + l).collect(Collectors.joining("\n")));
        CliRun r = run("diagnose", "-c", "dgx-h100:2", f.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("output cut short"), r.out());
        assertTrue(r.out().contains("evidence tagged.log:38: [1,0]<stdout>:   536870912     134217728     float"),
                r.out());
        assertTrue(r.out().contains("evidence tagged.log:39: [1,0]<stdout>:  1073741824     268435456     float"),
                r.out());
    }
}
