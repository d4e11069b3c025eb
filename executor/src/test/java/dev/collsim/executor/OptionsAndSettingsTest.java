package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.SizeSweep;
import dev.collsim.nccl.env.NcclSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class OptionsAndSettingsTest {

    static RunSpec spec(String... args) {
        RunOptions o = new RunOptions();
        new CommandLine(o).parseArgs(args);
        return o.toSpec();
    }

    /** nccl-tests 2.19.6 defaults (src/common.cu): -b 32M -e 32M -i 1M -n 20 -w 1 -m 1 -c 1 -o sum -d float -r 0. */
    @Test
    void defaultsAreNcclTests() {
        RunSpec s = spec("allreduce");
        assertEquals(Collective.ALL_REDUCE, s.collective());
        assertEquals(new SizeSweep(32L << 20, 32L << 20, 1L << 20, 1), s.sweep());
        assertEquals(20, s.iters());
        assertEquals(1, s.warmupIters());
        assertEquals(1, s.aggIters());
        assertEquals(1, s.check());
        assertEquals(List.of(RedOp.SUM), s.ops());
        assertEquals(List.of(DataType.FLOAT), s.types());
        assertEquals(0, s.root());
        assertEquals(1, s.average());
        assertFalse(s.useInitAll());
        assertTrue(s.captureNccl());
    }

    @Test
    void allValuesAndWorkerArgsRoundTrip() {
        RunOptions o = new RunOptions();
        new CommandLine(o).parseArgs("reduce", "-b", "8", "-e", "1G", "-f", "2", "-o", "all", "-d", "all", "-r", "all",
                "-G", "4", "-z", "3", "-a", "2", "-T", "30", "-g", "8", "-J", "out.json", "--env", "NCCL_PROTO=Simple",
                "--sweep-env", "NCCL_ALGO=Ring,Tree", "--comm-init", "all");
        RunSpec s = o.toSpec();
        assertEquals(5, s.ops().size());
        assertEquals(DataType.values().length, s.types().size());
        assertEquals(-1, s.root());
        assertEquals(Path.of("out.json"), s.json());
        assertEquals(Map.of("NCCL_PROTO", "Simple"), s.env());
        assertTrue(s.useInitAll());
        RunOptions again = new RunOptions();
        new CommandLine(again).parseArgs(o.workerArgs().toArray(String[]::new));
        RunSpec w = again.toSpec();
        assertEquals(s.sweep(), w.sweep());
        assertEquals(s.ops(), w.ops());
        assertEquals(s.graphLaunches(), w.graphLaunches());
        assertEquals(s.timeoutSec(), w.timeoutSec());
        assertEquals(s.nGpus(), w.nGpus());
        assertEquals(s.useInitAll(), w.useInitAll());
    }

    @Test
    void badValuesNameTheOption() {
        for (String[] bad : new String[][] {{"allreduce", "-z", "4"}, {"allreduce", "-d", "float128"},
            {"allreduce", "-o", "xor"}, {"allreduce", "-r", "first"}, {"allreduce", "-b", "8X"},
            {"allreduce", "-n", "0"}, {"allreduce", "-t", "2"}, {"allgatherv"},
            {"allreduce", "--env", "NCCL_ALGO"}, {"allreduce", "--sweep-env", "NCCL_ALGO="},
            {"allreduce", "--comm-init", "split"}, {"allreduce", "-b", "64", "-e", "8"},
            {"allreduce", "-b", "8", "-e", "64", "-i", "0"}, {"allreduce", "-b", "0", "-e", "16", "-f", "2"},
            {"allreduce", "-e", "1T"}, {"allreduce", "--env", "NCCL_ALOG=Ring"},
            {"allreduce", "--env", "NCCL_PROTO=Simpel"}, {"allreduce", "--sweep-env", "NCCL_ALGO=Ring,Rnig"},
            {"allreduce", "--sweep-env", "NCCL_MAX_CTA=2,4"}}) {
            ExecutorException e = assertThrows(ExecutorException.class, () -> spec(bad), String.join(" ", bad));
            assertEquals(ExecutorException.USAGE, e.exitCode());
        }
        assertTrue(assertThrows(ExecutorException.class, () -> spec("allreduce", "-z", "4")).getMessage()
                .startsWith("-z 4"));
        // -C 1 with -J is accepted as nccl-tests 2.17+ accepts it (src/common.cu reads both; -J then keys the time
        // cpu_time, src/util.cu writeBenchmarkLineBody; PerfRunTest checks the writer)
        RunSpec both = spec("allreduce", "-C", "1", "-J", "o.json");
        assertTrue(both.cpuTime());
        assertEquals(Path.of("o.json"), both.json());
        assertFalse(spec("allreduce", "-J", "o.json").cpuTime(), "-C defaults to 0, as nccl-tests' report_cputime");
        assertThrows(ExecutorException.class, () -> spec("allreduce", "-C", "2"), "nccl-tests documents -C <0/1>");
    }

    /** NCCL 2.30.7 reads NCCL_IB_HCA and NCCL_SOCKET_IFNAME (env.rst); collsim does not model them, NCCL will. */
    @Test
    void envNamesAreCheckedAsPredictChecksThem() {
        RunSpec s = spec("allreduce", "--env", "NCCL_IB_HCA=mlx5_0", "--env", "NCCL_TESTS_DEVICE=1", "--env",
                "CUDA_VISIBLE_DEVICES=0", "--sweep-env", "NCCL_SOCKET_IFNAME=eth0,ib0");
        assertEquals("mlx5_0", s.env().get("NCCL_IB_HCA"));
        assertEquals(3, s.env().size());
        ExecutorException e = assertThrows(ExecutorException.class, () -> spec("allreduce", "--env", "NCCL_ALOG=Ring"));
        IllegalArgumentException predict = assertThrows(IllegalArgumentException.class,
                () -> NcclSettings.parse(Map.of("NCCL_ALOG", "Ring")));
        assertEquals("--env 'NCCL_ALOG=Ring': " + predict.getMessage(), e.getMessage());
    }

    @Test
    void sweepIsACartesianProduct() {
        List<Map<String, String>> s = EnvSettings.expandSweep(List.of("NCCL_ALGO=Ring,Tree", "NCCL_PROTO=LL,Simple"));
        assertEquals(4, s.size());
        assertEquals("NCCL_ALGO=Ring NCCL_PROTO=LL", EnvSettings.label(s.get(0)));
        assertEquals("NCCL_ALGO=Tree NCCL_PROTO=Simple", EnvSettings.label(s.get(3)));
        assertEquals(List.of(Map.of()), EnvSettings.expandSweep(List.of()));
        assertEquals(Map.of("NCCL_A", "1"), EnvSettings.ncclVariables(Map.of("NCCL_A", "1", "PATH", "/bin")));
    }

    @Test
    void workerEnvironmentCapturesNcclOutputUnlessTheUserSetIt(@TempDir Path tmp) {
        RunSpec s = spec("allreduce", "--env", "NCCL_PROTO=Simple");
        Map<String, String> env = Supervisor.workerEnv(Map.of("PATH", "/bin"), s, Map.of("NCCL_ALGO", "Ring"), tmp);
        assertEquals("Simple", env.get("NCCL_PROTO"));
        assertEquals("Ring", env.get("NCCL_ALGO"));
        assertEquals(tmp.resolve("topo.xml").toString(), env.get("NCCL_TOPO_DUMP_FILE"));
        assertEquals("INFO", env.get("NCCL_DEBUG"));
        assertEquals("INIT,GRAPH,ENV", env.get("NCCL_DEBUG_SUBSYS"));
        Map<String, String> user = Supervisor.workerEnv(Map.of("NCCL_DEBUG", "WARN"), s, Map.of(), tmp);
        assertEquals("WARN", user.get("NCCL_DEBUG"));
        assertFalse(user.containsKey("NCCL_DEBUG_FILE"));
        Map<String, String> off = Supervisor.workerEnv(Map.of(), spec("allreduce", "--no-nccl-capture"), Map.of(), tmp);
        assertFalse(off.containsKey("NCCL_TOPO_DUMP_FILE"));
    }

    @Test
    void exitCodesCombineWorstFirst() {
        assertEquals(5, Supervisor.worst(4, 5));
        assertEquals(4, Supervisor.worst(0, 4));
        assertEquals(4, Supervisor.worst(4, 2));
        assertEquals(1, Supervisor.worst(5, 1));
    }
}
