package dev.collsim.cli.predict;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pasted nccl-tests line that starts with its launcher: the launcher's options set the processes and processes per
 * host (Open MPI mpirun(1): -np, -N, --map-by ppr:K:node, -H host:slots, --hostfile, -x; Slurm srun(1): -N, -n,
 * --ntasks-per-node, --export; torchrun: --nnodes, --nproc-per-node), never nccl-tests' own flags (-np is not
 * nccl-tests' -n p, and -N after the binary is nccl-tests' run_cycles). Ranks = processes x -t x -g, on the default
 * cluster of 4 hosts x 8 GPUs unless -c says otherwise.
 */
class LauncherPrefixTest {

    private static String ranksLine(CliRun r) {
        return r.out().lines().filter(l -> l.startsWith("# Ranks:")).findFirst().orElse("(none)\n" + r.out() + r.err());
    }

    private static List<String[]> rows(String out) {
        return out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.trim().split("\\s+")).toList();
    }

    private static CliRun ok(String... args) {
        CliRun r = run(args);
        assertEquals(0, r.code(), String.join(" ", args) + "\n" + r.err());
        return r;
    }

    private static void usageError(String expected, String... args) {
        CliRun r = run(args);
        assertEquals(2, r.code(), String.join(" ", args) + "\n" + r.out() + r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertFalse(r.err().contains("internal error"), r.err());
    }

    /** The issue's line: 32 processes, 8 per host, one GPU each = the 32 GPUs of 4 hosts; 8 B .. 8 GiB = 31 sizes. */
    @Test
    void mpirunLineOfTheIssue() {
        CliRun r = ok("predict", "mpirun", "-np", "32", "-N", "8", "./build/all_reduce_perf", "-b", "8", "-e", "8G",
                "-f", "2", "-g", "1");
        assertTrue(r.out().contains("32 ranks on 4 NCCL node(s), 8 per node"), r.out());
        assertEquals("# Ranks: 32 = 32 processes x 1 thread x 1 GPU (nccl-tests -t 1 -g 1, mpirun -np 32 -N 8)"
                + " on 4 hosts", ranksLine(r));
        assertEquals(31, rows(r.out()).size());
        CliRun same = ok("predict", "allreduce", "--nprocs", "32", "--procs-per-host", "8", "-b", "8", "-e", "8G",
                "-f", "2");
        assertEquals(rows(same.out()).get(30)[5], rows(r.out()).get(30)[5], "same time at 8 GiB");
        // -N after the binary is nccl-tests' run_cycles: read and ignored, not processes per host
        CliRun cycles = ok("predict", "mpirun", "-np", "8", "all_reduce_perf", "-N", "2", "-b", "1G", "-e", "1G");
        assertTrue(cycles.out().contains("nccl-tests flags -N read and ignored"), cycles.out());
        assertTrue(cycles.out().contains("8 ranks on 1 NCCL node(s)"), cycles.out());
    }

    /** Each way of saying processes per host gives the layout worked out by hand in the comment. */
    @Test
    void layoutsOfEachLauncher(@TempDir Path dir) throws Exception {
        // 4 processes, 1 per host, 4 GPUs each: 16 ranks, 4 on each of 4 hosts
        assertTrue(ok("predict", "mpirun", "-n", "4", "--npernode", "1", "all_reduce_perf", "-g", "4", "-b", "1G",
                "-e", "1G").out().contains("16 ranks on 4 NCCL node(s), 4 per node"));
        // ppr:2:node with -g 4: 8 processes x 4 GPUs = 32 ranks, 2 x 4 = 8 per host
        assertTrue(ok("predict", "mpirun", "-np", "8", "--map-by", "ppr:2:node", "all_reduce_perf", "-g", "4", "-b",
                "1G", "-e", "1G").out().contains("32 ranks on 4 NCCL node(s), 8 per node"));
        // -H with 2 slots on each of 2 hosts and no -np: 4 processes (the slots) x 4 GPUs, 2 per host: 16 ranks on 2
        assertTrue(ok("predict", "mpirun", "-H", "a:2,b:2", "all_reduce_perf", "-g", "4", "-b", "1G", "-e", "1G")
                .out().contains("16 ranks on 2 NCCL node(s), 8 per node"));
        // hostfile with 8 slots on each of 2 hosts: -np 16 fills node1 then node2
        Path hosts = Files.writeString(dir.resolve("hosts"), "# two DGX\nnode1 slots=8\nnode2 slots=8\n");
        assertTrue(ok("predict", "mpirun", "-np", "16", "--hostfile", hosts.toString(), "all_reduce_perf", "-b", "1G",
                "-e", "1G").out().contains("16 ranks on 2 NCCL node(s), 8 per node"));
        // srun: 2 nodes x 8 tasks, written three ways
        for (String[] srun : List.of(new String[] {"-N", "2", "--ntasks-per-node", "8"}, new String[] {"-N2", "-n16"},
            new String[] {"--nodes=2", "--ntasks=16", "--mpi=pmix", "--exclusive"})) {
            String[] args = new String[srun.length + 7];
            args[0] = "predict";
            args[1] = "srun";
            System.arraycopy(srun, 0, args, 2, srun.length);
            System.arraycopy(new String[] {"all_reduce_perf", "-b", "1G", "-e", "1G"}, 0, args, 2 + srun.length, 5);
            assertTrue(ok(args).out().contains("16 ranks on 2 NCCL node(s), 8 per node"), String.join(" ", args));
        }
        // torchrun: 2 nodes x 8 processes per node, either spelling
        assertTrue(ok("predict", "torchrun", "--nnodes", "2", "--nproc_per_node=8", "--no-python",
                "./build/all_reduce_perf", "-b", "1G", "-e", "1G").out().contains("16 ranks on 2 NCCL node(s), 8 per node"));
        assertTrue(ok("predict", "-c", "dgx-h100x2", "torchrun", "--nnodes=2", "--nproc-per-node", "8", "--no_python",
                "all_reduce_perf", "-b", "1G", "-e", "1G").out().contains("16 ranks on 2 NCCL node(s), 8 per node"));
        // mpirun's spelling straight to predict
        assertTrue(ok("predict", "allreduce", "-np", "16", "-b", "1G", "-e", "1G").out()
                .contains("16 ranks on 2 NCCL node(s), 8 per node"));
    }

    /** -x NCCL_X=V reaches the prediction as --env; options without effect are named in the Ranks line. */
    @Test
    void exportedNcclVariablesAndIgnoredOptions() {
        CliRun r = ok("predict", "mpirun", "-np", "32", "-x", "NCCL_ALGO=Ring", "-x", "LD_LIBRARY_PATH", "--bind-to",
                "none", "--mca", "btl", "tcp,self", "./all_reduce_perf", "-b", "1G", "-e", "1G");
        assertTrue(r.out().contains("# NCCL env: {NCCL_ALGO=Ring}"), r.out());
        assertEquals("Ring", rows(r.out()).get(0)[9]);
        assertTrue(ranksLine(r).contains("(nccl-tests -t 1 -g 1, mpirun -np 32; exports NCCL_ALGO=Ring; read and"
                + " ignored: -x LD_LIBRARY_PATH, --bind-to none, --mca btl tcp,self)"), ranksLine(r));
        CliRun srun = ok("predict", "srun", "-N", "4", "--ntasks-per-node=8", "--export=ALL,NCCL_PROTO=Simple",
                "all_reduce_perf", "-b", "8", "-e", "8");
        assertEquals("Simple", rows(srun.out()).get(0)[10]);
    }

    /**
     * mpirun -N 2 without -np: 2 processes on every node (Open MPI 4.0 mpirun(1), -N / --npernode), here the default
     * cluster's 4 hosts: 2 x 4 = 8 ranks, 2 per node, the same ranks and time as -np 8 -N 2.
     */
    @Test
    void mpirunPerNodeAloneIsEveryHost() {
        CliRun alone = ok("predict", "mpirun", "-N", "2", "./build/all_reduce_perf", "-b", "1G", "-e", "1G");
        assertTrue(alone.out().contains("8 ranks on 4 NCCL node(s), 2 per node"), alone.out());
        assertTrue(ranksLine(alone).startsWith("# Ranks: 8 = 8 processes x 1 thread x 1 GPU"), ranksLine(alone));
        assertTrue(ranksLine(alone).contains("mpirun -N 2"), ranksLine(alone));
        CliRun both = ok("predict", "mpirun", "-np", "8", "-N", "2", "./build/all_reduce_perf", "-b", "1G", "-e",
                "1G");
        assertEquals(rows(both.out()).get(0)[5], rows(alone.out()).get(0)[5], "same ranks, same time");
    }

    /** What collsim cannot read is a usage error naming it, never a stack trace or a silent guess. */
    @Test
    void unknownOrIncompleteLauncherLines() {
        usageError("mpirun option '--foo' is not one collsim reads", "predict", "mpirun", "-np", "32", "--foo",
                "./all_reduce_perf");
        usageError("mpirun names no program", "predict", "mpirun", "-np", "32");
        usageError("option '-np' needs a whole number of processes of at least 1, found 'p'", "predict", "mpirun",
                "-np", "p", "./all_reduce_perf");
        usageError("give -np N", "predict", "mpirun", "./all_reduce_perf");
        usageError("hostfile no-such-hosts is not here", "predict", "mpirun", "-np", "16", "--hostfile",
                "no-such-hosts", "./all_reduce_perf");
        usageError("the tasks do not divide evenly", "predict", "srun", "-N", "4", "-n", "10", "all_reduce_perf");
        usageError("found 'gpu'", "predict", "torchrun", "--nproc_per_node", "gpu", "all_reduce_perf");
        usageError("--map-by ppr:2:socket", "predict", "mpirun", "-np", "8", "--map-by", "ppr:2:socket",
                "all_reduce_perf");
        usageError("different slot counts (a:8, b:4)", "predict", "mpirun", "-np", "12", "-H", "a:8,b:4",
                "all_reduce_perf");
        // more processes than the cluster holds: NcclTestsRanks' own message, exit 2
        assertEquals(2, run("predict", "mpirun", "-np", "64", "-N", "8", "all_reduce_perf").code());
    }

    /** Help names the options as the text does: --nprocs and --procs-per-host, mpirun's spellings in the text. */
    @Test
    void helpAndTextAgree() {
        String help = run("predict", "--help").out();
        assertTrue(help.contains("--nprocs=P"), help);
        assertTrue(help.contains("--procs-per-host=Q"), help);
        assertFalse(help.contains("--np="), help);
        assertFalse(help.contains("--np,"), help);
        assertTrue(help.contains("also -np, --np"), help);
    }

    /**
     * The paste may follow predict's own words: after the collective (whose program word then names it again), or
     * after "--". Both read as the paste alone: 16 processes, 8 per host, on 2 DGX H100 (mpirun -np 16 -N 8). They
     * ended in "Unmatched argument" and "Unknown options: '--nprocs', '--procs-per-host', '--launcher'".
     */
    @Test
    void aPasteAfterTheCollectiveOrAfterDoubleDashReadsAsThePasteAlone() {
        String expected = ranksLine(ok("predict", "-c", "dgx-h100x2", "mpirun", "-np", "16", "-N", "8",
                "./build/all_reduce_perf", "-b", "1M", "-e", "1M"));
        assertTrue(expected.startsWith("# Ranks: 16 = 16 processes x 1 thread x 1 GPU"), expected);
        assertEquals(expected, ranksLine(ok("predict", "-c", "dgx-h100x2", "allreduce", "-b", "1M", "-e", "1M",
                "mpirun", "-np", "16", "-N", "8", "./build/all_reduce_perf")));
        assertEquals(expected, ranksLine(ok("predict", "-c", "dgx-h100x2", "allreduce", "-b", "1M", "-e", "1M", "--",
                "mpirun", "-np", "16", "-N", "8", "./build/all_reduce_perf")));
        usageError("the command names allgather and the pasted line runs ./build/all_reduce_perf", "predict", "-c",
                "dgx-h100x2", "allgather", "mpirun", "-np", "16", "./build/all_reduce_perf");
    }
}
