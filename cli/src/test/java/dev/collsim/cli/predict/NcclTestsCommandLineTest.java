package dev.collsim.cli.predict;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.collsim.cli.CliRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pasted nccl-tests 2.19.6 command line means in {@code collsim predict} what it means to nccl-tests
 * ({@code src/common.cu}; fact sheet section 7): -c N is the data check, ranks = nProcs x nThreads x nGpus with one
 * process without mpirun, and -d/-o/-r all print one sweep per type, op or root in nccl-tests' loop order.
 */
class NcclTestsCommandLineTest {

    private static List<String[]> rows(String out) {
        return out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.trim().split("\\s+")).toList();
    }

    private static String headerLine(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith("# " + prefix)).findFirst().orElse("(none)");
    }

    /** The task's own line: a cluster with -c and nccl-tests' -c 1 check flag, in either order. */
    @Test
    void checkFlagNextToCluster() {
        for (String[] args : List.of(new String[] {"-c", "dgx-h100", "allreduce", "-b", "8", "-e", "8G", "-f", "2",
            "-g", "8", "-c", "1"}, new String[] {"allreduce", "-c", "1", "-b", "8", "-e", "8G", "-f", "2", "-g", "8",
            "-c", "dgx-h100"})) {
            String[] full = new String[args.length + 1];
            full[0] = "predict";
            System.arraycopy(args, 0, full, 1, args.length);
            CliRun r = run(full);
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains("# Cluster: dgx-h100 (1 host, 8 GPUs)"), r.out());
            assertTrue(r.out().contains("# nccl-tests flags -c read and ignored"), r.out());
            assertEquals(31, rows(r.out()).size(), "8 B .. 8 GiB by factor 2 = 2^3 .. 2^33");
        }
        CliRun two = run("predict", "allreduce", "-c", "dgx-h100", "-c", "dgx-a100");
        assertEquals(2, two.code());
        assertTrue(two.err().contains("dgx-h100, dgx-a100"), two.err());
    }

    /**
     * nccl-tests: n = nProcs x nThreads x nGpus, and one process without mpirun. -t 2 -g 4: 1 x 2 x 4 = 8 ranks of
     * one host; -g 8 on the 4-host default cluster: 8 ranks on host 0, not 32 (one process drives GPUs of one host).
     */
    @Test
    void ranksAreProcessesTimesThreadsTimesGpus() {
        CliRun tg = run("predict", "allreduce", "-t", "2", "-g", "4", "-b", "1G", "-e", "1G");
        assertEquals(0, tg.code(), tg.err());
        assertTrue(tg.out().contains("# nGpus 8 "), tg.out());
        assertTrue(headerLine(tg.out(), "Ranks:").startsWith("# Ranks: 8 = 1 process x 2 threads x 4 GPUs"),
                tg.out());
        CliRun g8 = run("predict", "allreduce", "-g", "8", "-b", "1G", "-e", "1G");
        assertTrue(g8.out().contains("# nGpus 8 "), g8.out());
        assertTrue(g8.out().contains("8 ranks on 1 NCCL node(s)"), g8.out());
        // mpirun -np 4 -N 1 all_reduce_perf -g 4: 4 processes, one per host, 4 GPUs each = 16 ranks, 4 per node
        CliRun mpi = run("predict", "allreduce", "--nprocs", "4", "--procs-per-host", "1", "-g", "4", "-b", "1G",
                "-e", "1G");
        assertEquals(0, mpi.code(), mpi.err());
        assertTrue(mpi.out().contains("16 ranks on 4 NCCL node(s), 4 per node"), mpi.out());
        // mpirun -np 32 all_reduce_perf -g 1 is every GPU of the 4 x 8 cluster, as predict's default
        CliRun all = run("predict", "allreduce", "--nprocs", "32", "-b", "1G", "-e", "1G");
        CliRun dflt = run("predict", "allreduce", "-b", "1G", "-e", "1G");
        assertTrue(all.out().contains("32 ranks on 4 NCCL node(s), 8 per node"), all.out());
        assertEquals(rows(dflt.out()).get(0)[5], rows(all.out()).get(0)[5], "same time");
        // 5 processes of 8 GPUs need 40 GPUs of the 32; 3 x 3 = 9 GPUs do not fit one 8-GPU host
        assertEquals(2, run("predict", "allreduce", "--nprocs", "5", "-g", "8").code());
        CliRun nine = run("predict", "allreduce", "-t", "3", "-g", "3");
        assertEquals(2, nine.code());
        assertTrue(nine.err().contains("-t 3 x -g 3"), nine.err());
    }

    /**
     * Open MPI 4.0 mpirun(1): -N Q (--npernode) without -np launches Q processes on every allocated node. The default
     * cluster has 4 hosts of 8 GPUs, so --procs-per-host 2 alone is 2 x 4 = 8 processes (8 ranks, 2 per host), not
     * the one process of a run without mpirun; -np 8 -N 2 gives the same ranks, so the same time.
     */
    @Test
    void procsPerHostAloneIsEveryHost() {
        CliRun alone = run("predict", "allreduce", "--procs-per-host", "2", "-b", "1G", "-e", "1G");
        assertEquals(0, alone.code(), alone.err());
        assertTrue(alone.out().contains("8 ranks on 4 NCCL node(s), 2 per node"), alone.out());
        assertTrue(headerLine(alone.out(), "Ranks:").startsWith("# Ranks: 8 = 8 processes x 1 thread x 1 GPU"),
                alone.out());
        assertTrue(headerLine(alone.out(), "Ranks:").contains("as mpirun -N 2 without -np"), alone.out());
        CliRun both = run("predict", "allreduce", "--nprocs", "8", "--procs-per-host", "2", "-b", "1G", "-e", "1G");
        assertEquals(rows(both.out()).get(0)[5], rows(alone.out()).get(0)[5], "same ranks, same time");
        // -N 3 x -g 4 = 12 GPUs do not fit an 8-GPU host: exit 2, naming the option and the counts
        CliRun tooMany = run("predict", "allreduce", "--procs-per-host", "3", "-g", "4");
        assertEquals(2, tooMany.code());
        assertTrue(tooMany.err().contains("--procs-per-host must be in [1, 2]"), tooMany.err());
    }

    /**
     * -d all: nccl-tests' twelve types in its order, each its own sweep; the count column is 1 GiB over the type's
     * size (int8 1073741824, float 268435456, double 134217728). -o all: sum, prod, max, min, avg; a collective
     * without a reduction prints one sweep with redop none.
     */
    @Test
    void allTypesAndOps() {
        CliRun r = run("predict", "allreduce", "-c", "dgx-h100", "-d", "all", "-b", "1G", "-e", "1G");
        assertEquals(0, r.code(), r.err());
        List<String[]> rows = rows(r.out());
        List<String> types = rows.stream().map(x -> x[2]).toList();
        assertEquals(List.of("int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double",
                "bfloat16", "f8e4m3", "f8e5m2"), types);
        assertEquals("1073741824", rows.get(0)[1]);
        assertEquals("268435456", rows.get(7)[1]);
        assertEquals("134217728", rows.get(8)[1]);
        assertTrue(r.out().contains("datatype all op sum"), r.out());
        CliRun ops = run("predict", "allreduce", "-c", "dgx-h100", "-o", "all", "-b", "1M", "-e", "2M", "-f", "2");
        assertEquals(List.of("sum", "sum", "prod", "prod", "max", "max", "min", "min", "avg", "avg"),
                rows(ops.out()).stream().map(x -> x[3]).toList());
        CliRun ag = run("predict", "allgather", "-c", "dgx-h100", "-o", "all", "-b", "1M", "-e", "1M");
        assertEquals(List.of("none"), rows(ag.out()).stream().map(x -> x[3]).toList());
        assertEquals(2, run("predict", "allreduce", "-d", "float99").code());
    }

    /** -r all on 8 ranks: roots 0..7, the same time each; -r 3 prints root 3; a root outside the ranks is refused. */
    @Test
    void allRootsAndTheRootColumn() {
        CliRun r = run("predict", "broadcast", "-c", "dgx-h100", "-r", "all", "-b", "64M", "-e", "64M");
        assertEquals(0, r.code(), r.err());
        List<String[]> rows = rows(r.out());
        assertEquals(List.of("0", "1", "2", "3", "4", "5", "6", "7"), rows.stream().map(x -> x[4]).toList());
        assertEquals(1, rows.stream().map(x -> x[5]).distinct().count(), "the same time for every root");
        CliRun three = run("predict", "reduce", "-c", "dgx-h100", "-r", "3", "-b", "64M", "-e", "64M");
        assertEquals("3", rows(three.out()).get(0)[4]);
        assertEquals(2, run("predict", "reduce", "-c", "dgx-h100", "-r", "8").code());
        assertEquals(2, run("predict", "reduce", "-r", "first").code());
    }

    /** --format json carries the NCCL settings typed: numbers as numbers, with collsim's reading and NCCL's default. */
    @Test
    void jsonNcclSettingsAreTyped() throws Exception {
        CliRun r = run("predict", "allreduce", "-c", "dgx-h100", "--env", "NCCL_MAX_NCHANNELS=8", "--env",
                "NCCL_ALGO=Ring", "--format", "json");
        assertEquals(0, r.code(), r.err());
        JsonNode env = new ObjectMapper().readTree(r.out()).get("nccl_env");
        assertTrue(env.get("NCCL_MAX_NCHANNELS").get("value").isInt(), env.toString());
        assertEquals(8, env.get("NCCL_MAX_NCHANNELS").get("value").asInt());
        assertEquals("64", env.get("NCCL_MAX_NCHANNELS").get("default").asText());
        assertEquals("Ring", env.get("NCCL_ALGO").get("value").asText());
        assertTrue(env.get("NCCL_ALGO").get("source").asText().contains("tuning.cc"), env.toString());
    }

    /** --perf-params is the file of performance parameters; --params, its former name, still reads it. */
    @Test
    void perfParamsWithTheFormerNameKept() {
        CliRun missing = run("predict", "allreduce", "--perf-params", "no-such-file.yaml");
        CliRun former = run("predict", "allreduce", "--params", "no-such-file.yaml");
        assertEquals(3, missing.code());
        assertEquals(3, former.code());
        assertTrue(missing.err().contains("no-such-file.yaml"), missing.err());
    }

    /**
     * Every flag of nccl-tests 2.19.6's getopt string "t:g:b:e:i:f:n:m:w:N:p:I:K:c:o:d:r:z:y:T:hG:C:a:R:x:D:V:J:S:M:u:"
     * (src/common.cu) but -V (collsim's --version; nccl-tests' device CTA count, used only with -D) is taken from a pasted
     * command line: the timing and report flags are read and named in the note
     * (they used to stop predict with "Unknown option: '-R'", exit 2), and the same 1 GiB row comes out as without
     * them. -R 1, -x 1, -D 1 and -u 1 change what NCCL runs and are refused (exit 2) naming the flag and its value;
     * their defaults (-R 0, -x 0 = NCCL_CTA_POLICY_DEFAULT, -D 0, -u 0) are read and ignored.
     */
    @Test
    void everyNcclTestsFlagOfAPastedLineIsReadOrRefusedByName() {
        String[] base = {"predict", "allreduce", "-c", "dgx-h100", "-b", "1G", "-e", "1G", "-g", "8"};
        String[] extra = {"-p", "1", "-y", "0", "-S", "1", "-J", "out.json", "-M", "1", "-I", "1", "-K", "2",
            "-R", "0", "-x", "0", "-D", "0", "-u", "0"};
        String[] all = new String[base.length + extra.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        CliRun plain = run(base);
        CliRun pasted = run(all);
        assertEquals(0, pasted.code(), pasted.err());
        assertTrue(pasted.out().contains("# nccl-tests flags -p -y -S -J -R -x -D -M -u -I -K read and ignored"),
                pasted.out());
        assertEquals(String.join(" ", rows(plain.out()).get(0)), String.join(" ", rows(pasted.out()).get(0)));
        for (String flag : List.of("-R", "-x", "-D", "-u")) {
            String[] one = new String[base.length + 2];
            System.arraycopy(base, 0, one, 0, base.length);
            one[base.length] = flag;
            one[base.length + 1] = "1";
            CliRun r = run(one);
            assertEquals(2, r.code(), flag);
            assertTrue(r.err().contains("nccl-tests flag " + flag + " 1: ") && r.err().contains("allowed: " + flag
                    + " 0 (nccl-tests' default) or leave it out"), r.err());
        }
    }

    /**
     * nccl-tests' one process drives its -g GPUs on its own host: a DGX H100 has 8 (DGX H100 User Guide), so -g 16
     * cannot fit and the message says -g 8 is the most; 3 processes of -g 8 on 2 such hosts leave one unplaced.
     */
    @Test
    void ranksThatDoNotFitSayWhatWould() {
        CliRun big = run("predict", "allreduce", "-c", "dgx-h100x2", "-b", "1M", "-e", "1M", "-g", "16");
        assertEquals(2, big.code(), big.out());
        assertTrue(big.err().contains("one process drives its -t x -g = 16 GPUs on one host, which has 8; give -g at"
                + " most 8"), big.err());
        CliRun many = run("predict", "allreduce", "-c", "dgx-h100x2", "-b", "1M", "-e", "1M", "-g", "8", "--nprocs",
                "3");
        assertEquals(2, many.code(), many.out());
        assertTrue(many.err().contains("a process drives -t x -g = 8 GPUs of one host, so only 2 such process(es)"
                + " fit"), many.err());
    }
}
