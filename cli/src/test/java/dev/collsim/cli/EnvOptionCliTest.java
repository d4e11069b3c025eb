package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code --env KEY} without {@code =VALUE}, alone or with the value as a separate word, is one usage error (exit 2,
 * README "Input limits and exit codes") naming the option, what was found and the allowed KEY=VALUE, on every
 * command that takes --env.
 */
class EnvOptionCliTest {

    private static final String MESSAGE = "--env NCCL_ALGO: found no value (no '='); allowed: KEY=VALUE as you would"
            + " export it, one word, e.g. --env NCCL_ALGO=Ring";

    @Test
    void aKeyWithoutValueIsNamed() {
        for (String[] cmd : new String[][] {{"predict", "all_reduce", "--env", "NCCL_ALGO"},
            {"predict", "--env", "NCCL_ALGO", "all_reduce"}, {"plan", "--params", "7B", "--env", "NCCL_ALGO"},
            {"topo", "show", "--env", "NCCL_ALGO"}}) {
            CliRun r = CliRun.run(cmd);
            assertEquals(2, r.code(), String.join(" ", cmd) + ": " + r.out());
            assertTrue(r.err().contains(MESSAGE), String.join(" ", cmd) + ": " + r.err());
        }
    }

    /** {@code --env NCCL_ALGO Ring all_reduce}: picocli reads Ring as the collective; the message is still --env's. */
    @Test
    void theValueAsASeparateWordIsNamed() {
        CliRun r = CliRun.run("predict", "--env", "NCCL_ALGO", "Ring", "all_reduce");
        assertEquals(2, r.code(), r.out());
        assertTrue(r.err().contains(MESSAGE), r.err());
    }

    /** An explicit empty value stays the settings parser's to judge (NCCL_ALGO= names no algorithm). */
    @Test
    void anEmptyValueIsTheParsersToJudge() {
        CliRun r = CliRun.run("predict", "all_reduce", "--env", "NCCL_ALGO=");
        assertEquals(2, r.code(), r.out());
        assertTrue(r.err().contains("NCCL_ALGO='': empty value"), r.err());
        assertEquals(0, CliRun.run("predict", "all_reduce", "--env", "NCCL_ALGO=Ring", "-b", "1M", "-e", "1M").code());
    }
}
