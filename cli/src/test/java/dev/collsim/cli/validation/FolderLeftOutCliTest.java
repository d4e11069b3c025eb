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
 * A folder given to a batch command: every file that can hold a measurement is read, whatever its prefix (a B- file of
 * nccl-tests output is read), and each file left out is named with why on stderr; before, B-* and C-* files and any
 * name outside A-/D-/.txt/.log/.json were dropped without a word.
 */
class FolderLeftOutCliTest {

    private static final Path DATA = Path.of("../validation/src/test/resources/data");
    private static final String RUN = "A-allreduce-2x2xH100-dgx-ib.txt";
    private static final Path TOPO = Path.of("../topology-model/src/test/resources/data/B-topo-dgx-a100.txt");

    @Test
    void diagnoseNamesEveryFileItLeavesOutAndReadsTheRest(@TempDir Path dir) throws Exception {
        Files.copy(DATA.resolve(RUN), dir.resolve("B-my-run.txt")); // a measurement, whatever its prefix
        Files.copy(DATA.resolve(RUN), dir.resolve("slurm-1234.out")); // Slurm's job output
        Files.copy(TOPO, dir.resolve("B-topo.txt"));
        Files.copy(TOPO, dir.resolve("topo.txt")); // a topo -m under a measurement's name
        Files.writeString(dir.resolve("notes.md"), "how I ran it");
        Files.writeString(dir.resolve("C-system.xml"), "<system version=\"1\">\n</system>\n");
        Files.createDirectory(dir.resolve("run2"));
        CliRun r = run("diagnose", dir.toString());
        assertEquals(0, r.code(), r.err());
        String machine = ": holds nvidia-smi topo -m text, a machine, not a measurement (give it to -c/--cluster)";
        assertTrue(r.err().contains("collsim: left out " + dir.resolve("B-topo.txt") + machine), r.err());
        assertTrue(r.err().contains("collsim: left out " + dir.resolve("topo.txt") + machine), r.err());
        assertTrue(r.err().contains("collsim: left out " + dir.resolve("C-system.xml") + ": holds NCCL topology XML,"
                + " a machine, not a measurement (give it to -c/--cluster)"), r.err());
        assertTrue(r.err().contains("collsim: left out " + dir.resolve("notes.md") + ": not a measurement file's name;"
                + " allowed: *.txt, *.log, *.out, *.json and A-* to D-* that are not machine files"), r.err());
        // both copies of the run are read and diagnosed under their own names
        assertTrue(r.err().contains("collsim: left out " + dir.resolve("run2") + ": a folder inside the folder (not"
                + " read: give it on its own to read its files)"), r.err());
        // (the table header is line 19 of the file, after 9 '#@' lines and 9 of launch, devices and column titles)
        assertTrue(r.out().contains("B-my-run.txt:19 (table at line 19)"), r.out());
        assertTrue(r.out().contains("slurm-1234.out:19 (table at line 19)"), r.out());
        assertFalse(r.err().contains("skipped"), r.err());
    }

    @Test
    void aFolderOfMachineFilesOnlyIsRefusedNamingThem(@TempDir Path dir) throws Exception {
        Files.copy(TOPO, dir.resolve("B-topo.txt"));
        CliRun r = run("compare", "-m", dir.toString());
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains(dir + ": a folder with no measurement files (looked for *.txt, *.log, *.out,"
                + " *.json and A-* to D-* that are not machine files; 1 file(s) left out: " + dir.resolve("B-topo.txt")
                + ": holds nvidia-smi topo -m text"), r.err());
    }
}
