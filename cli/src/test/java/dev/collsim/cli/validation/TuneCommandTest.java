package dev.collsim.cli.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import dev.collsim.validation.compare.PredictionBand;
import dev.collsim.validation.tune.TunerConfigFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        // 4 DGX H100 over InfiniBand: no profile shipped, so the class's bare band printed on the calibration line
        assertTrue(r.out().contains("(the class band printed on the calibration line)"), r.out());
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
    void catalogHostWithTheShippedProfileUsesItsResidualBand() throws Exception {
        CliRun r = CliRun.run("tune", "-c", "dgx-h200", "--ranks", "2", "--calibration",
                PROFILE.toString(), "--nccl-version", "2.28", "allreduce");
        assertEquals(0, r.code(), r.err());
        // the band is the residualsPercent p90 and n that the profile file states
        Matcher m = Pattern.compile("(?m)^residualsPercent:\\n  \"n\": (\\d+)\\n  median: \\S+\\n  p90: (\\S+)\\n")
                .matcher(Files.readString(PROFILE));
        assertTrue(m.find(), "the profile states its residuals");
        String band = String.format(Locale.ROOT, "band %.1f %% (p90 of the calibration fit's residuals (%s points))",
                Double.parseDouble(m.group(2)), m.group(1));
        assertTrue(r.out().contains(band), band + "\n" + r.out());
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

    /**
     * A refused fit says nothing of the model's error on this cluster, so tune judges the bare model with its class
     * band (the one the calibration line prints, as without -m), not with the narrower typical error
     * (PredictionBand.UNCALIBRATED, a median over datasets), which would advise changes the model cannot vouch for.
     */
    @Test
    void refusedFitFallsBackToTheClassBandAndSaysSo() {
        CliRun r = CliRun.run("tune", "-m", H200X2.resolve("collsim-all_reduce.json").toString(),
                H200X2.resolve("collsim-sweep-NCCL_ALGO.json").toString(), "--nccl-version", "2.28", "allreduce");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("no accepted fit of the measurements"), r.out());
        assertTrue(r.out().contains("the bare model's class band are used"), r.out());
        Matcher m = Pattern.compile("band factor [0-9.]+ \\(-[0-9.]+ % \\.\\. \\+([0-9.]+) %\\) below 1 MiB, "
                + "factor [0-9.]+ \\(-[0-9.]+ % \\.\\. \\+([0-9.]+) %\\) at >= 1 MiB").matcher(r.out());
        assertTrue(m.find(), r.out());
        assertTrue(r.out().contains(String.format(Locale.ROOT, "band %.1f %% below 1 MiB, %.1f %% at >= 1 MiB"
                + " (the class band printed on the calibration line)", Double.parseDouble(m.group(1)),
                Double.parseDouble(m.group(2)))), r.out());
        assertTrue(!r.out().contains(String.format(Locale.ROOT, "band %.1f %% ",
                PredictionBand.UNCALIBRATED.atLeastMiBPercent())), r.out());
    }

    /**
     * -m takes every word after it (arity 1..*), so a collective after the files reaches -m: the message names the word
     * as a collective and says where it goes (exit 2, README/docs/input-limits.md "2 usage error"); compare and
     * calibrate share the check with their own advice. A missing path that is not a bare collective name still reads
     * "no such file" (exit 3).
     */
    @Test
    void collectiveAfterMeasuredFilesIsNamedAsMisplaced() {
        String file = H200X2.resolve("collsim-all_reduce.json").toString();
        CliRun r = CliRun.run("tune", "-c", "dgx-h200", "-m", file, "allreduce");
        assertEquals(2, r.code(), r.err());
        assertEquals("collsim: 'allreduce' is a collective, not a file: put the collectives before -m (-m takes every"
                + " word after it)", r.err().strip());
        CliRun c = CliRun.run("compare", "-m", file, "all_reduce_perf");
        assertEquals(2, c.code(), c.err());
        assertEquals("collsim: 'all_reduce_perf' is a collective, not a file: compare reads every collective in the"
                + " files (-m takes every word after it)", c.err().strip());
        CliRun p = CliRun.run("tune", "-m", file, "nodir/allreduce");
        assertEquals(3, p.code(), p.err());
        assertTrue(p.err().contains("nodir/allreduce: no such file"), p.err());
    }

    /**
     * The h200x2 file ran 2 ranks ("n_ranks" : 2 on its line 4) and a DGX H200 has 8 GPUs (NVIDIA DGX H200 datasheet),
     * so advice for the whole host is for 8 ranks, where none of the file's times is evidence: tune says so once.
     * With --ranks 2 the advice is for the measured ranks, and no note is printed.
     */
    @Test
    void measuredRanksOtherThanTheAdvisedOnesAreNoted() {
        String file = H200X2.resolve("collsim-all_reduce.json").toString();
        CliRun r = CliRun.run("tune", "-c", "dgx-h200", "--nccl-version", "2.28", "allreduce", "-m", file);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("note: advice for 8 ranks; the -m files measured 2 ranks: their points are used "
                + "for the fit, and shown as measured evidence only at 2 ranks (--ranks 2 tunes for those)"), r.out());
        CliRun two = CliRun.run("tune", "-c", "dgx-h200", "--ranks", "2", "--nccl-version", "2.28", "allreduce",
                "-m", file);
        assertEquals(0, two.code(), two.err());
        assertFalse(two.out().contains("note: advice for"), two.out());
    }

    /**
     * A hand-made 16-rank AllReduce (two DGX H100 hosts, 8 "#  Rank" lines each) tuned for one DGX H100 (8 GPUs,
     * DGX H100 User Guide): a fit of a run across two hosts is refused for advice on one host (its network terms mean
     * nothing there; NCCL tunes each nNodes apart), naming both shapes and what is allowed (exit 2); on -c
     * dgx-h100:2, the measured shape, the advice is written (exit 0) with no rank note (16 ranks advised, 16 measured).
     */
    @Test
    void aTwoHostFitIsRefusedForOneHost(@TempDir Path tmp) throws Exception {
        StringBuilder f = new StringBuilder("# nThread 1 nGpus 1 minBytes 1048576 maxBytes 1073741824 step: 32(factor)"
                + " warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
        for (int r = 0; r < 16; r++) {
            f.append(String.format(Locale.ROOT, "#  Rank %2d Group  0 Pid %d on node%d device %2d [0x%02x] NVIDIA H100"
                    + " 80GB HBM3%n", r, 100 + r, r / 8, r % 8, 16 + r % 8));
        }
        f.append("""
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                     1048576        262144     float     sum      -1    60.12   17.44   32.70      0    59.80   17.53   32.87      0
                    33554432       8388608     float     sum      -1   1000.0   33.55   62.91      0   1000.0   33.55   62.91      0
                  1073741824     268435456     float     sum      -1    10205  105.22  197.28      0    10210  105.17  197.19      0
                """);
        Path file = Files.writeString(tmp.resolve("ar16.txt"), f.toString());
        CliRun r = CliRun.run("tune", "-c", "dgx-h100", "allreduce", "-m", file.toString());
        assertEquals(2, r.code(), r.err() + r.out());
        assertTrue(r.err().contains("tune -m: the files measured 16 ranks on 2 hosts; the advice would be for 8 ranks"
                + " on 1 host of -c dgx-h100: a fit of runs on 2 host(s) does not hold on 1 (across hosts it is a fit"
                + " of the network; NCCL tunes each shape apart); allowed: a cluster of the measured hosts (a catalog"
                + " type as -c NAME:2), --ranks that span 2 host(s), or -m files measured on 1 host"), r.err());
        CliRun two = CliRun.run("tune", "-c", "dgx-h100:2", "allreduce", "-m", file.toString());
        assertEquals(0, two.code(), two.err() + two.out());
        assertFalse(two.out().contains("note: advice for"), two.out());
    }

    @Test
    void judgesWithTheClassBandTheCalibrationLinePrints() {
        CliRun r = CliRun.run("tune", "-c", "dgx-h100", "broadcast");
        assertEquals(0, r.code(), r.err());
        // the band is read back from the calibration line (ProfileSelector's class band), not from the code
        // the band reaches above the prediction by the "+" percentage of each factor (PredictionBand.words)
        Matcher m = Pattern.compile("band factor [0-9.]+ \\(-[0-9.]+ % \\.\\. \\+([0-9.]+) %\\) below 1 MiB, "
                + "factor [0-9.]+ \\(-[0-9.]+ % \\.\\. \\+([0-9.]+) %\\) at >= 1 MiB").matcher(r.out());
        assertTrue(m.find(), r.out());
        double below = Double.parseDouble(m.group(1));
        double above = Double.parseDouble(m.group(2));
        assertTrue(r.out().contains(String.format(Locale.ROOT, "band %.1f %% below 1 MiB, %.1f %% at >= 1 MiB"
                + " (the class band printed on the calibration line)", below, above)), r.out());
        // every row: the gain and band cells speak of the same points (an advised row: the points it changes), so a
        // row of one band is advised exactly where its smallest predicted gain exceeds that band; a row of two bands
        // (sizes both sides of 1 MiB) is advised only where its smallest gain exceeds the narrower one
        for (String row : r.out().lines().filter(l -> l.startsWith("Broadcast ")).toList()) {
            String[] cells = row.split("\\s{2,}");
            String gain = cells[5].replace(" %", "");
            double minGain = Double.parseDouble(gain.contains("-") ? gain.substring(0, gain.indexOf('-')) : gain);
            List<Double> bands = Arrays.stream(cells[6].replace(" %", "").split(", ")).map(Double::parseDouble)
                    .toList();
            bands.forEach(b -> assertTrue(b == below || b == above, row));
            double narrowest = bands.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            if (bands.size() == 1) {
                assertEquals(minGain > bands.get(0), cells[7].startsWith("use "), row);
            } else {
                assertTrue(!cells[7].startsWith("use ") || minGain > narrowest, row);
            }
        }
    }

    @Test
    void theTunerFileHoldsExactlyTheTablesRows(@TempDir Path dir) throws Exception {
        // the default cluster (4 DGX H100, a plain tree: channel.TreePattern): NCCL's own choice changes between two
        // swept sizes (2M and 4M: Tree/LL128, NVLSTree/Simple just below 4 MiB, Tree/LL128 again at 4 MiB, NCCL's
        // treeCorrectionFactor stepping there); the file restates it, so the table must show it too
        Path out = dir.resolve("tune");
        CliRun r = CliRun.run("tune", "allreduce", "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        List<String[]> table = Files.readAllLines(out.resolve("tune.txt")).stream()
                .filter(l -> l.startsWith("AllReduce ")).map(l -> l.split("\\s{2,}")).toList();
        List<String[]> file = Files.readAllLines(out.resolve("nccl_tuner.conf")).stream()
                .filter(l -> !l.startsWith("#")).map(l -> l.split(",")).toList();
        assertEquals(file.size(), table.size(), r.out());
        for (int i = 0; i < file.size(); i++) {
            String[] f = file.get(i);
            String[] t = table.get(i);
            assertEquals(f[0], norm(t[0]));
            assertEquals(f[1] + ".." + f[2], t[1]);
            String set = t[7].startsWith("use ") ? t[7].substring(4).split(" ")[0] : t[3];
            assertEquals(norm(f[3]) + "/" + norm(f[4]), norm(set.split("/")[0]) + "/" + norm(set.split("/")[1]),
                    String.join("  ", t));
            if (!t[7].startsWith("use ")) {
                assertEquals("keep NCCL's choice", t[7]);
                assertEquals("0", f[5], "a kept line leaves NCCL its own channel count");
            }
        }
        // the line inside (2M, 4M) holds no swept size: its sizes cell is the one size it was read at, strictly
        // between 2 MiB and 4 MiB (the swept sizes around it), and a note after the table, not the cell, says so
        String[] between = table.stream().filter(t -> !t[2].contains("..")).findFirst().orElseThrow();
        long at = Long.parseLong(between[2]);
        assertTrue(at > 2L << 20 && at < 4L << 20, String.join("  ", between));
        assertTrue(Files.readAllLines(out.resolve("tune.txt")).contains("# " + between[0] + " bytes " + between[1]
                + ": no swept size falls in this line; its sizes cell is the size it was read at, " + between[2]
                + ", between two swept sizes"), r.out());
    }

    /** @return lower case letters and digits only: {@code NVLSTree} and {@code nvls_tree} both {@code nvlstree} */
    private static String norm(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
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
        // the collective before -m: after it, "allreduce" would be read as a missing file and the folder never read
        CliRun r = CliRun.run("tune", "allreduce", "-m", dir.toString());
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains(dir.resolve("notes.txt").toString()), r.err());
        assertTrue(r.err().contains(dir.resolve("settings.json").toString()), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    /**
     * Without --nccl-version, tune models the release the -m measurements ran, as compare does: the 2x H200 run
     * states NCCL 2.28.3 (docs/device-runs.md; the JSON's NCCL version), which collsim models with its 2.28.9 entry
     * (the newest carried release not newer than 2.28: NcclVersion.modelling). It modelled 2.30 whatever the files
     * said. --nccl-version still wins.
     */
    @Test
    void theMeasuredReleaseIsModelledUnlessOneIsGiven() {
        String file = H200X2.resolve("collsim-all_reduce.json").toString();
        CliRun r = CliRun.run("tune", "-c", "dgx-h200", "--ranks", "2", "allreduce", "-m", file);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("note: NCCL 2.28.9 modelled (file states 2.28.3), as compare models the -m"
                + " measurements; --nccl-version to tune for another release"), r.out());
        assertTrue(r.out().contains("NCCL 2.28.9 model"), r.out());
        CliRun given = CliRun.run("tune", "-c", "dgx-h200", "--ranks", "2", "--nccl-version", "2.30", "allreduce",
                "-m", file);
        assertEquals(0, given.code(), given.err());
        assertFalse(given.out().contains("as compare models the -m measurements"), given.out());
        assertTrue(given.out().contains("NCCL 2.30.7 model"), given.out());
    }

    /**
     * An older release is named as predict and compare name it: NCCL 2.20 is modelled with the 2.28.9 tables and
     * 2.19-2.20's own rules (docs/nccl-releases.md); the table's header named "NCCL 2.19.4 model", a release the user
     * did not run and collsim does not model in full.
     */
    @Test
    void anOlderReleaseIsNamedAsPredictNamesIt() {
        CliRun r = CliRun.run("tune", "-c", "dgx-h100x2", "--nccl-version", "2.20", "allreduce");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("NCCL 2.28.9 model, the oldest release collsim models in full, with NCCL"
                + " 2.19-2.20's own bandwidth factors, latencies and allowed algorithms and protocols where they differ"
                + " (docs/nccl-releases.md); "), r.out());
        assertFalse(r.out().contains("2.19.4"), r.out());
    }
}
