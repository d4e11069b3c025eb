package dev.collsim.cli.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code benchmarks/nccl-tuner-check.sh}'s checks before anything runs (it needs GPUs, an NCCL checkout and
 * nccl-tests to go further): the tuner file must cover every size the run sweeps for its collective and rank count,
 * because NCCL's example plugin runs an uncovered call on one channel. The NCCL checkout and nccl-tests binary are
 * stand-ins; a run that passes the checks stops at the plugin build (no NCCL source), which proves the checks passed.
 */
class TunerCheckScriptTest {

    private static final Path SCRIPT = Path.of("..", "benchmarks", "nccl-tuner-check.sh");

    @TempDir
    Path dir;

    private record Result(int rc, String err) {
    }

    @BeforeEach
    void standIns() throws IOException {
        Files.createDirectories(dir.resolve("nccl/plugins/tuner/example"));
        Files.writeString(dir.resolve("nccl/plugins/tuner/example/Makefile"), "all:\n\t@true\n");
        Path perf = dir.resolve("tests/all_reduce_perf");
        Files.createDirectories(perf.getParent());
        Files.writeString(perf, "#!/bin/sh\nexit 0\n");
        assertTrue(perf.toFile().setExecutable(true));
        Files.createDirectories(dir.resolve("tune"));
    }

    private Result run(String conf, String... extra) throws IOException, InterruptedException {
        Files.writeString(dir.resolve("tune/nccl_tuner.conf"), conf);
        List<String> cmd = new ArrayList<>(List.of("bash", SCRIPT.toString(), dir.resolve("nccl").toString(),
                dir.resolve("tests").toString(), dir.resolve("tune").toString(), dir.resolve("out").toString()));
        cmd.addAll(List.of(extra));
        Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve("o.txt").toFile())
                .redirectError(dir.resolve("e.txt").toFile()).start();
        return new Result(p.waitFor(), Files.readString(dir.resolve("e.txt")));
    }

    private static final String HEADER = "# collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,"
            + "nRanks,numPipeOps,regBuff\n";

    @Test
    void missingArgumentsAreRefused() throws Exception {
        Process p = new ProcessBuilder("bash", SCRIPT.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor() != 0, out);
        assertTrue(out.contains("NCCL source checkout"), out);
    }

    @Test
    void fileThatLeavesSizesUncoveredIsRefusedBeforeAnythingRuns() throws Exception {
        // covers 8 B..1 GiB only; the default sweep is 8..8G (8G = 8589934592 B)
        Result r = run(HEADER + "allreduce,8,1073741824,ring,simple,0,1,2,-1,-1\n");
        assertEquals(2, r.rc(), r.err());
        assertTrue(r.err().contains("sizes 8..8589934592 B are not all covered") && r.err().contains("8..1073741824 B"),
                r.err());
        assertTrue(Files.notExists(dir.resolve("out")), "nothing ran");
    }

    @Test
    void fileForOtherRanksOrCollectivesIsRefused() throws Exception {
        Result ranks = run(HEADER + "allreduce,8,8589934592,ring,simple,0,1,8,-1,-1\n");
        assertEquals(2, ranks.rc(), ranks.err());
        assertTrue(ranks.err().contains("no allreduce line for 2 ranks"), ranks.err());
        Result coll = run(HEADER + "allgather,8,8589934592,ring,simple,0,1,2,-1,-1\n");
        assertEquals(2, coll.rc(), coll.err());
        Result size = run(HEADER + "allreduce,8,8589934592,ring,simple,0,1,2,-1,-1\n", "all_reduce", "2", "8", "9X");
        assertEquals(2, size.rc(), size.err());
        assertTrue(size.err().contains("got '9X'"), size.err());
    }

    @Test
    void coveringFileWithAChannelsColumnPassesTheChecks() throws Exception {
        // two lines (NCCL's own count, then a forced 4 channels) covering 8 B..8 GiB, plus a -1 line that is warned of
        Result r = run(HEADER + "allreduce,8,1048575,ring,ll,0,1,2,-1,-1\n"
                + "allreduce,1048576,8589934592,ring,simple,4,1,2,-1,-1\n"
                + "allgather,8,8,ring,ll,-1,1,2,-1,-1\n", "all_reduce", "2", "8", "8G");
        assertTrue(r.err().contains("warning: lines with channels -1 run on one channel"), r.err());
        // past the checks: the stand-in plugin folder builds nothing, which the script reports with exit 1
        assertTrue(Files.exists(dir.resolve("out/plugin-build.txt")), r.err());
        assertEquals(1, r.rc(), r.err());
        assertTrue(r.err().contains("plugin build produced no libnccl-tuner"), r.err());
    }
}
