package dev.collsim.cli.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import dev.collsim.validation.tune.TunerConfigFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** collsim tune on the default cluster, a catalog host with the shipped profile, and measured files. */
class TuneCommandTest {

    private static final Path H200X2 = Path.of("../data/device/h200x2-2026-11-29");
    private static final Path PROFILE = Path.of("../configs/calibration/h200x2-nv18-nccl2.28.yaml");

    @Test
    void defaultClusterWritesFilesThePluginReads(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("tune");
        CliRun r = CliRun.run("tune", "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        // the default cluster: 4 hosts x 8 GPUs (configs/default.yaml)
        assertTrue(r.out().contains("32 ranks on 4 NCCL node(s)"), r.out());
        assertTrue(r.out().contains("band 10.1 %"), r.out());
        List<String> conf = Files.readAllLines(out.resolve("nccl_tuner.conf"));
        assertEquals(List.of(), TunerConfigFile.problems(conf));
        // every swept size of every collective has a line, since the example plugin gives an unmatched call one
        // channel: the sweep is 8 B..8 GiB (8589934592 B); AllReduce selects on the size itself
        assertTrue(conf.stream().anyMatch(l -> l.startsWith("allreduce,8,")), String.join("\n", conf));
        assertTrue(conf.stream().anyMatch(l -> l.startsWith("allreduce,") && l.contains(",8589934592,")),
                String.join("\n", conf));
        for (String c : List.of("allgather,", "reducescatter,", "broadcast,", "reduce,")) {
            assertTrue(conf.stream().anyMatch(l -> l.startsWith(c)), c + " has no line");
        }
        assertTrue(conf.stream().anyMatch(l -> l.contains("matches no line on ONE channel")), conf.get(2));
        assertTrue(Files.readString(out.resolve("nccl_env.sh")).contains("apply to every size"));
        assertTrue(Files.readString(out.resolve("tune.txt")).contains("keep NCCL's choice"));
    }

    @Test
    void catalogHostWithTheShippedProfileUsesItsResidualBand() {
        CliRun r = CliRun.run("tune", "-c", "dgx-h200", "--ranks", "2", "--calibration",
                PROFILE.toString(), "--nccl-version", "2.28", "allreduce");
        assertEquals(0, r.code(), r.err());
        // residualsPercent.p90 of the profile: 22.2217...
        assertTrue(r.out().contains("band 22.2 % (p90 of the calibration fit's residuals (91 points))"), r.out());
        assertTrue(r.out().contains("2 ranks on 1 NCCL node(s)"), r.out());
    }

    @Test
    void measuredFilesAreFittedAndShownAsEvidence() {
        // the files the shipped profile was fitted on, plus the NCCL_ALGO sweep (Ring and Tree forced)
        CliRun r = CliRun.run("tune", "-m", H200X2.resolve("collsim-all_reduce.json").toString(),
                H200X2.resolve("collsim-all_gather.json").toString(), H200X2.resolve("collsim-sendrecv.json").toString(),
                H200X2.resolve("collsim-sweep-NCCL_ALGO.json").toString(), "--nccl-version", "2.28", "allreduce");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("fitted on"), r.out());
        assertTrue(r.out().contains("(p90 of the calibration fit's residuals"), r.out());
        assertTrue(r.out().contains("measured gain"), r.out());
    }

    @Test
    void refusedFitFallsBackToTheUncalibratedBandAndSaysSo() {
        CliRun r = CliRun.run("tune", "-m", H200X2.resolve("collsim-all_reduce.json").toString(),
                H200X2.resolve("collsim-sweep-NCCL_ALGO.json").toString(), "--nccl-version", "2.28", "allreduce");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("no accepted fit of the measurements"), r.out());
        assertTrue(r.out().contains("band 10.1 %"), r.out());
    }

    @Test
    void refusesWhatThePluginCannotName() {
        CliRun r = CliRun.run("tune", "alltoall");
        assertEquals(2, r.code(), r.out());
        assertTrue(r.err().contains("cannot name AllToAll"), r.err());
        CliRun one = CliRun.run("tune", "--ranks", "1");
        assertEquals(2, one.code());
        assertTrue(one.err().contains("--ranks must be in [2, 32]"), one.err());
    }

    @Test
    void missingProfileIsAnInputError(@TempDir Path dir) {
        CliRun r = CliRun.run("tune", "--calibration", dir.resolve("none.yaml").toString());
        assertEquals(3, r.code(), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void mixedFolderReadsWhatItCanAndSkipsTheRestWithOneLineEach(@TempDir Path dir) throws Exception {
        // an nccl-tests log, an NCCL INFO log, a collsim run JSON and two files that are no measurement at all
        Files.copy(H200X2.resolve("nccl-tests-all_reduce.txt"), dir.resolve("nccl-tests-all_reduce.txt"));
        Files.copy(H200X2.resolve("nccl-info-allreduce.txt"), dir.resolve("nccl-info-allreduce.txt"));
        Files.copy(H200X2.resolve("collsim-all_gather.json"), dir.resolve("collsim-all_gather.json"));
        Files.writeString(dir.resolve("notes.txt"), "remember to re-run with NCCL 2.30\n");
        Files.writeString(dir.resolve("settings.json"), "{\"editor\": \"vim\"}\n");
        CliRun r = CliRun.run("tune", "-m", dir.toString(), "--nccl-version", "2.28", "allreduce");
        assertEquals(6, r.code(), r.err());
        assertTrue(r.err().contains("skipped " + dir.resolve("notes.txt")), r.err());
        assertTrue(r.err().contains("skipped " + dir.resolve("settings.json")), r.err());
        assertFalse(r.err().contains("skipped " + dir.resolve("collsim-all_gather.json")), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertTrue(r.out().contains("AllReduce"), r.out());
    }

    @Test
    void folderWithNothingUsableIsRefused(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "no table here\n");
        Files.writeString(dir.resolve("settings.json"), "{\"editor\": \"vim\"}\n");
        CliRun r = CliRun.run("tune", "-m", dir.toString(), "allreduce");
        assertEquals(3, r.code(), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }
}
