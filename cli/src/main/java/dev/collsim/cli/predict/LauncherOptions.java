package dev.collsim.cli.predict;

import java.util.HashMap;
import java.util.Map;

/**
 * The options of the launchers a pasted nccl-tests line may start with, and what each means to a prediction. Names
 * and meanings from each launcher's manual: Open MPI 5 {@code mpirun(1)} ({@code -np}/{@code -n}/{@code -c},
 * {@code -N}/{@code --npernode}, {@code --map-by ppr:K:node}, {@code -H host:slots}, {@code --hostfile},
 * {@code -x}), MPICH/Intel MPI Hydra {@code mpiexec} ({@code -ppn}, {@code -perhost}, {@code -f},
 * {@code -genv NAME VALUE}), Slurm {@code srun(1)} ({@code -N}/{@code --nodes}, {@code -n}/{@code --ntasks},
 * {@code --ntasks-per-node}, {@code --export}) and PyTorch {@code torchrun} ({@code --nnodes},
 * {@code --nproc-per-node}, either spelling with {@code _}).
 */
final class LauncherOptions {

    /** What an option does to the rank layout. */
    enum Kind {
        /** total processes (one value). */ PROCS,
        /** processes per host (one value). */ PER_HOST,
        /** hosts (one value; srun -N, torchrun --nnodes). */ NODES,
        /** mpirun --map-by (one value). */ MAP_BY,
        /** mpirun -H host[:slots],... (one value). */ HOSTS,
        /** mpirun --hostfile FILE (one value). */ HOSTFILE,
        /** mpirun -x NAME[=VALUE] (one value). */ EXPORT_ONE,
        /** Hydra -genv/-env NAME VALUE (two values). */ EXPORT_PAIR,
        /** srun --export=ALL,NAME=VALUE,... (one value). */ EXPORT_LIST,
        /** no effect, no value. */ FLAG,
        /** no effect, one value. */ IGNORE_ONE,
        /** no effect, two values (mpirun --mca KEY VALUE). */ IGNORE_TWO
    }

    /** The launcher families collsim reads. */
    enum Family {
        /** Open MPI, MPICH and Intel MPI. */ MPI,
        /** Slurm. */ SRUN,
        /** PyTorch. */ TORCHRUN
    }

    private static final Map<String, Kind> MPI = new HashMap<>();
    private static final Map<String, Kind> SRUN = new HashMap<>();
    private static final Map<String, Kind> TORCHRUN = new HashMap<>();

    static {
        put(MPI, Kind.PROCS, "-np", "-n", "--np", "--n", "-c");
        put(MPI, Kind.PER_HOST, "-N", "--npernode", "-npernode", "-ppn", "--ppn", "-perhost", "--perhost");
        put(MPI, Kind.MAP_BY, "--map-by", "-map-by");
        put(MPI, Kind.HOSTS, "-H", "--host", "-host", "-hosts", "--hosts");
        put(MPI, Kind.HOSTFILE, "--hostfile", "-hostfile", "--machinefile", "-machinefile", "-f");
        put(MPI, Kind.EXPORT_ONE, "-x");
        put(MPI, Kind.EXPORT_PAIR, "-genv", "-env");
        put(MPI, Kind.IGNORE_TWO, "--mca", "-mca", "--gmca", "-gmca", "--prtemca", "--pmixmca");
        put(MPI, Kind.IGNORE_ONE, "--bind-to", "-bind-to", "--rank-by", "-rank-by", "--prefix", "-wdir", "--wdir",
                "-wd", "--output-filename", "-iface", "-bootstrap", "--launch-agent", "--cpus-per-proc",
                "--cpus-per-rank");
        put(MPI, Kind.FLAG, "--allow-run-as-root", "--oversubscribe", "--report-bindings", "--tag-output",
                "--timestamp-output", "--display-map", "--display-allocation", "-q", "--quiet", "-v", "--verbose",
                "--use-hwthread-cpus", "--noprefix", "-genvall", "-prepend-rank", "-l", "--merge-stderr-to-stdout");
        put(SRUN, Kind.NODES, "-N", "--nodes");
        put(SRUN, Kind.PROCS, "-n", "--ntasks");
        put(SRUN, Kind.PER_HOST, "--ntasks-per-node");
        put(SRUN, Kind.EXPORT_LIST, "--export");
        put(SRUN, Kind.IGNORE_ONE, "-p", "--partition", "-A", "--account", "-t", "--time", "-c", "--cpus-per-task",
                "--gpus-per-node", "--gpus-per-task", "--gpus", "-G", "--gres", "--mpi", "--cpu-bind", "--cpu_bind",
                "--gpu-bind", "--container-image", "--container-mounts", "--container-name", "--container-workdir",
                "-J", "--job-name", "--qos", "--reservation", "--mem", "--mem-per-cpu", "--mem-per-gpu", "-o",
                "--output", "-e", "--error", "--network", "--switches", "--hint", "-C", "--constraint", "-m",
                "--distribution", "-w", "--nodelist");
        put(SRUN, Kind.FLAG, "--exclusive", "-l", "--label", "-u", "--unbuffered", "--overlap", "-K",
                "--kill-on-bad-exit", "-v", "--verbose", "-Q", "--quiet", "--no-container-mount-home",
                "--container-remap-root");
        put(TORCHRUN, Kind.NODES, "--nnodes");
        put(TORCHRUN, Kind.PER_HOST, "--nproc-per-node");
        put(TORCHRUN, Kind.IGNORE_ONE, "--node-rank", "--master-addr", "--master-port", "--rdzv-backend",
                "--rdzv-endpoint", "--rdzv-id", "--rdzv-conf", "--max-restarts", "--monitor-interval",
                "--start-method", "--role", "--log-dir", "-r", "--redirects", "-t", "--tee", "--local-addr",
                "--local-ranks-filter");
        put(TORCHRUN, Kind.FLAG, "--no-python", "--standalone", "--run-path", "-m", "--module");
    }

    private LauncherOptions() {
    }

    private static void put(Map<String, Kind> map, Kind kind, String... names) {
        for (String n : names) {
            map.put(n, kind);
        }
    }

    /**
     * @param word a word of the command line, e.g. {@code mpirun} or {@code /opt/openmpi/bin/mpirun}
     * @return its launcher family, or null when it is no launcher collsim reads
     */
    static Family family(String word) {
        String name = word.substring(word.lastIndexOf('/') + 1);
        return switch (name) {
            case "mpirun", "mpiexec", "orterun", "prterun", "mpiexec.hydra" -> Family.MPI;
            case "srun" -> Family.SRUN;
            case "torchrun" -> Family.TORCHRUN;
            default -> null;
        };
    }

    /**
     * @param family the launcher
     * @param name   an option name as typed (torchrun's {@code _} spelling is read as {@code -})
     * @return what it does, or null when collsim does not know it
     */
    static Kind kind(Family family, String name) {
        return switch (family) {
            case MPI -> MPI.get(name);
            case SRUN -> SRUN.get(name);
            case TORCHRUN -> TORCHRUN.get(name.startsWith("--") ? "--" + name.substring(2).replace('_', '-') : name);
        };
    }

    /** @return the options of the family that set the layout, for the message naming an unknown option */
    static String layoutOptions(Family family) {
        return switch (family) {
            case MPI -> "-np/-n N, -N/--npernode/-npernode/-ppn K, --map-by ppr:K:node, -H host:slots,...,"
                    + " --hostfile FILE, -x NCCL_X=V";
            case SRUN -> "-N/--nodes N, -n/--ntasks N, --ntasks-per-node K, --export NCCL_X=V";
            case TORCHRUN -> "--nnodes N, --nproc-per-node K";
        };
    }
}
