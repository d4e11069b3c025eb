package dev.collsim.cli;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code --nic-speed} only fills in a machine file's missing NIC speed; on a catalog cluster it is a usage error (exit
 * 2) whose hint names only what the command itself can do: {@code predict} has {@code --backend flow --link-speed},
 * {@code plan} has neither (its --help lists no such option), so plan's hint names the report variant alone.
 */
class NicSpeedWhatIfHintCliTest {

    @Test
    void planIsPointedToAReportVariantOnly() {
        CliRun r = run("plan", "-c", "hgx-b200x4", "--nic-speed", "800 Gb/s", "--model", "llama3-70b", "--tp", "8",
                "--pp", "4");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("For a NIC-speed what-if use a report variant's nic-speed"), r.err());
        assertFalse(r.err().contains("--link-speed"), r.err());
        CliRun help = run("plan", "--help");
        assertFalse(help.out().contains("--link-speed"), "plan has no --link-speed: the hint must not name it");
    }

    @Test
    void predictIsPointedToTheFlowBackendToo() {
        CliRun r = run("predict", "-c", "hgx-b200x4", "--nic-speed", "800 Gb/s", "allreduce");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("use --backend flow --fabric KIND --link-speed BW, or a report variant's"
                + " nic-speed"), r.err());
        assertTrue(run("predict", "--help").out().contains("--link-speed"));
    }
}
