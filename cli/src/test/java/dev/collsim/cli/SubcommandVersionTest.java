package dev.collsim.cli;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Every subcommand's --help lists {@code -V, --version}; each prints collsim's version as {@code collsim --version}
 * does (once an empty line: picocli gives a subcommand no version of its own), with exit code 0.
 */
class SubcommandVersionTest {

    @Test
    void subcommandsPrintTheRootsVersion() {
        CliRun root = run("--version");
        assertEquals(0, root.code(), root.err());
        assertTrue(root.out().startsWith("collsim "), root.out());
        for (String[] cmd : new String[][] {{"predict", "--version"}, {"plan", "-V"}, {"topo", "show", "--version"},
            {"diagnose", "--version"}}) {
            assertTrue(run(cmd[0], "--help").out().contains("--version"), cmd[0] + " --help lists --version");
            CliRun r = run(cmd);
            assertEquals(0, r.code(), r.err());
            assertEquals(root.out(), r.out(), String.join(" ", cmd));
        }
    }
}
