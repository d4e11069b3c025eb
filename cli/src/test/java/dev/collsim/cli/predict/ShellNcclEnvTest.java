package dev.collsim.cli.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** predict names the shell's NCCL_* variables it does not read, so "NCCL env: (defaults)" is not a silent surprise. */
class ShellNcclEnvTest {

    @Test
    void namesTheShellsNcclVariablesNotGiven() {
        Map<String, String> shell = Map.of("NCCL_PROTO", "Simple", "NCCL_ALGO", "Rnig", "PATH", "/usr/bin");
        assertEquals("collsim predict: note: NCCL_ALGO, NCCL_PROTO set in the shell are not read (predict models only"
                + " what --env, --algo and --proto give); pass them as --env NCCL_X=V to model them",
                ShellNcclEnv.note(shell, Map.of()).orElseThrow());
        // NCCL_ALGO given with --env: only NCCL_PROTO is named, in the singular
        String one = ShellNcclEnv.note(shell, Map.of("NCCL_ALGO", "Ring")).orElseThrow();
        assertTrue(one.contains(": NCCL_PROTO set in the shell is not read"), one);
    }

    @Test
    void silentWithoutNcclVariables() {
        assertTrue(ShellNcclEnv.note(Map.of("PATH", "/usr/bin", "CUDA_VISIBLE_DEVICES", "0"), Map.of()).isEmpty());
        assertTrue(ShellNcclEnv.note(Map.of("NCCL_ALGO", "Ring"), Map.of("NCCL_ALGO", "Ring")).isEmpty());
    }
}
