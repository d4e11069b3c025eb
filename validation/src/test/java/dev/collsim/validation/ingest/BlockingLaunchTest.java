package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Blocking calls (nccl-tests {@code -z} above 0: each call waits for the GPUs before the next) are read wherever a
 * file says so: the line nccl-tests prints under its {@code # nThread} line (2.19.6 {@code src/util.cu
 * writeDeviceReport}: "# Blocking Enabled: wait and barrier after each inner iteration (-m)" for -z 1, "... no
 * barrier" for 2, "... after each outer iteration (-n); time excludes barrier" for 3; before 2.19 {@code
 * src/common.cu}: "# Blocking Enabled: wait for completion and barrier after each collective"), {@code -z} or
 * {@code --blocking} on a command line, and a JSON result's {@code config.blocking_collectives} (nccl-tests writes a
 * boolean, collsim run its -z value).
 */
class BlockingLaunchTest {

    private static final Path DATA = Path.of("src/test/resources/data");

    /** The dkh file (one run; line 15 "# nThread 1 nGpus 8 ... iters: 20 agg iters: 1") with a line added under it. */
    private static LaunchShape dkhWith(String added) throws Exception {
        String text = Files.readString(DATA.resolve("A-allreduce-1x8xA100-80GB-sxm-dkh-g8-nccl2.19-8B-128M.txt"));
        int eol = text.indexOf('\n', text.indexOf("# nThread"));
        List<Dataset> ds = MeasurementReader.read("z.txt", text.substring(0, eol + 1) + added + text.substring(eol + 1));
        assertEquals(1, ds.size());
        return ds.get(0).launch();
    }

    @Test
    void blockingLineUnderTheNThreadLine() throws Exception {
        assertEquals(new LaunchShape(1, 8, 0, 20, false), dkhWith(""));
        for (String line : List.of("# Blocking Enabled: wait and barrier after each inner iteration (-m) \n",
                "# Blocking Enabled: wait after each inner iteration (-m), no barrier \n",
                "# Blocking Enabled: wait and barrier after each outer iteration (-n); time excludes barrier \n",
                "# Blocking Enabled: wait for completion and barrier after each collective \n")) {
            assertEquals(new LaunchShape(1, 8, 0, 20, true), dkhWith(line), line);
        }
    }

    @Test
    void blockingOnTheCommandLine() {
        assertTrue(LaunchShape.fromCommand("./build/all_reduce_perf -b 8 -e 1G -f 2 -g 8 -z 1").blocking());
        assertTrue(LaunchShape.fromCommand("all_reduce_perf -g 1 --blocking=3 -n 50").blocking());
        assertEquals(new LaunchShape(1, 8, 0, 20, false), LaunchShape.fromCommand("all_reduce_perf -g 8 -z 0"));
        assertFalse(LaunchShape.fromCommand("mpirun -np 8 ./build/all_reduce_perf -b 8 -e 8G -g 1").blocking());
    }

    private static LaunchShape jsonConfig(String blocking) throws Exception {
        return JsonMeasurementReaderTest.launchOf("\"iterations\":20" + blocking);
    }

    @Test
    void blockingInAJsonConfig() throws Exception {
        assertTrue(jsonConfig(",\"blocking_collectives\":true").blocking(), "nccl-tests -J: jsonBool(blocking_coll)");
        assertTrue(jsonConfig(",\"blocking_collectives\":2").blocking(), "collsim run's RunConfig: the -z value");
        assertFalse(jsonConfig(",\"blocking_collectives\":false").blocking());
        assertEquals(new LaunchShape(1, 8, 0, 20, false), jsonConfig(""));
    }
}
