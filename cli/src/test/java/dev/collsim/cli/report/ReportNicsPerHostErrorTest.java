package dev.collsim.cli.report;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A what-if variant asking for more rails than its catalog host has is refused as every spec problem is:
 * {@code file:line:column: field: found ...; allowed: ...} and exit 3 (it used to read "16 is more than ...").
 */
class ReportNicsPerHostErrorTest {

    @Test
    void moreRailsThanTheHostHasIsAFoundAllowedProblem(@TempDir Path dir) throws IOException {
        Path spec = dir.resolve("w.yaml");
        Files.writeString(spec, "title: t\ncluster: dgx-h100x2\nvariants:\n  - {name: nic16, nics-per-host: 16}\n"
                + "sweeps:\n  - {collective: allreduce, min: 1G, max: 1G, factor: 2}\n");
        CliRun r = run("report", spec.toString(), "-o", dir.resolve("out").toString(), "--no-progress");
        assertEquals(3, r.code(), r.err());
        // By hand: the variant is on line 4; "  - {name: nic16, nics-per-host: " is 2 + 2 + 1 + 13 + 15 = 33
        // characters, so the value 16 starts at column 34. A DGX H100 has 8 ConnectX-7 compute NICs (DGX H100
        // User Guide), so 1 to 8 rails are allowed. The field is named as the spec reader names its own problems
        // (variants[0].nic-speed for a bad speed): variants[0], the list's first entry.
        assertTrue(r.err().contains(spec + ":4:34: variants[0].nics-per-host: found 16, more than the 8 compute"
                + " NICs a dgx-h100 host has; allowed: 1 to 8"), r.err());
        assertTrue(!r.err().contains("\tat "), "no stack trace: " + r.err());
    }
}
