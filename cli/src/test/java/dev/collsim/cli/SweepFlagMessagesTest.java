package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every command with nccl-tests' size options (predict, tune, run) names {@code -f}, {@code -b}, {@code -e} as the user
 * typed them, short or long. What {@code -f} takes, from nccl-tests 2.19.6 {@code src/common.cu}: {@code case 'f':
 * stepFactor = strtol(optarg, NULL, 0)} (a whole number) and the size loop {@code (args->stepfactor > 1) ?
 * size*args->stepfactor : size+args->stepbytes} (above 1 multiplies, 0 or 1 adds {@code -i}).
 */
class SweepFlagMessagesTest {

    private static final String ALLOWED = "allowed: a whole number, as nccl-tests reads it: above 1 it multiplies"
            + " each size, 0 or 1 adds the step bytes instead";

    private static String firstErrLine(String... args) {
        CliRun r = CliRun.run(args);
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        return r.err().lines().findFirst().orElse("");
    }

    @Test
    void aFractionalFactorNamesTheFlagTypedInEveryCommand() {
        for (String cmd : List.of("predict", "tune", "run")) {
            for (String flag : List.of("-f", "--stepfactor")) {
                assertEquals("collsim " + cmd + ": Invalid value for option '" + flag + "': '0.5'; " + ALLOWED,
                        firstErrLine(cmd, "allreduce", flag, "0.5"), cmd + " " + flag);
            }
        }
        assertEquals("collsim predict: Invalid value for option '-f': '0.5'; " + ALLOWED,
                firstErrLine("predict", "allreduce", "-f=0.5"));
        assertEquals("collsim predict: Missing required parameter for option '-f' (FACTOR)",
                firstErrLine("predict", "allreduce", "-f"));
    }

    @Test
    void aSweepRefusedAfterParsingNamesTheFlagsTyped() {
        assertEquals("collsim: --stepfactor -1 is below 0; " + ALLOWED,
                firstErrLine("predict", "allreduce", "--stepfactor", "-1"));
        assertEquals("collsim: -f -1 is below 0; " + ALLOWED, firstErrLine("tune", "allreduce", "-f", "-1"));
        assertEquals("collsim: --stepfactor 2 needs --minbytes > 0: a multiplicative sweep from 0 bytes never grows"
                + " (nccl-tests would repeat size 0 forever); use --minbytes 1 or more",
                firstErrLine("predict", "allreduce", "--minbytes", "0", "--stepfactor", "2"));
        assertEquals("collsim: minimum size 2048 (-b) is larger than maximum size 1024 (--maxbytes)",
                firstErrLine("run", "allreduce", "-b", "2K", "--maxbytes", "1K"));
    }
}
