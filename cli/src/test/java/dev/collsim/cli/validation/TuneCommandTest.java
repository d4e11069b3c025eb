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
        assertTrue(r.out().contains("band 13.0 %"), r.out());
        List<String> conf = Files.readAllLines(out.resolve("nccl_tuner.conf"));
        assertEquals(List.of(), TunerConfigFile.problems(conf));
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
        assertTrue(r.out().contains("band 13.0 %"), r.out());
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
}
