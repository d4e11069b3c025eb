package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * nccl-tests 2.19.6 {@code src/common.cu}: {@code -p/--parallel_init} 0/1 and {@code -R/--local_register} 0 none,
 * 1 local, 2 symmetric. {@code collsim run} accepts them so a pasted line runs; neither acts in the executor (one
 * thread inits every communicator; buffers are not registered), so each non-default value is named in the header.
 * Parsing only: the executor cannot run here.
 */
class NcclTestsInitFlagsTest {

    @Test
    void acceptedAndNamedInTheHeader() {
        RunSpec plain = OptionsAndSettingsTest.spec("allreduce", "-p", "0", "-R", "0");
        assertEquals(List.of(), plain.notes());
        RunSpec s = OptionsAndSettingsTest.spec("allreduce", "-p", "1", "-R", "2");
        assertEquals(2, s.notes().size(), s.notes().toString());
        assertTrue(s.notes().get(0).startsWith("-p 1 (parallel init) has no effect here"), s.notes().get(0));
        assertTrue(s.notes().get(1).startsWith("-R 2 (symmetric buffer registration) has no effect here"),
                s.notes().get(1));
        String header = NcclTestsTable.deviceReport("0.1.0", 23007, 23007, s.programName(), s, List.of());
        assertTrue(header.contains("# -R 2 (symmetric buffer registration) has no effect here"), header);
        assertTrue(OptionsAndSettingsTest.spec("allreduce", "--local_register", "1").notes().get(0)
                .startsWith("-R 1 (local buffer registration)"));
    }

    @Test
    void outOfRangeValuesAreUsageErrors() {
        for (String[] bad : new String[][] {{"allreduce", "-p", "2"}, {"allreduce", "-R", "3"},
            {"allreduce", "-R", "-1"}}) {
            ExecutorException e = assertThrows(ExecutorException.class, () -> OptionsAndSettingsTest.spec(bad));
            assertEquals(ExecutorException.USAGE, e.exitCode());
            assertTrue(e.getMessage().startsWith(bad[1] + " "), e.getMessage());
        }
    }

    @Test
    void workerArgsCarryThem() {
        RunOptions o = new RunOptions();
        new CommandLine(o).parseArgs("allreduce", "-p", "1", "-R", "1");
        RunOptions again = new RunOptions();
        new CommandLine(again).parseArgs(o.workerArgs().toArray(String[]::new));
        assertEquals(o.toSpec().notes(), again.toSpec().notes());
    }
}
