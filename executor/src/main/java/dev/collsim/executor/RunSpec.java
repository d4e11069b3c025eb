package dev.collsim.executor;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.SizeSweep;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A validated run request: nccl-tests' settings plus collsim's.
 *
 * @param collective  the collective
 * @param sweep       sizes
 * @param iters       timed iterations ({@code -n})
 * @param warmupIters warm-up iterations ({@code -w})
 * @param aggIters    ops per iteration ({@code -m})
 * @param runCycles   sweep repetitions ({@code -N}, >= 1)
 * @param check       data-check iterations ({@code -c})
 * @param ops         reduction ops to run (one, or all for {@code -o all})
 * @param types       data types to run
 * @param root        root rank, or -1 for all roots ({@code -r all})
 * @param blocking    {@code -z} mode 0..3
 * @param average     {@code -a} 0..3
 * @param graphLaunches {@code -G}: CUDA graph replays (0 = off)
 * @param timeoutSec  {@code -T}: seconds before a hung collective is aborted (0 = never)
 * @param cpuTime     {@code -C}: report CPU time (the table's header {@code cputime}, {@code -J}'s key {@code cpu_time})
 * @param nGpus       {@code -g}: GPUs driven by this process
 * @param json        JSON output file, or null
 * @param env         fixed NCCL settings ({@code --env})
 * @param sweepEnv    swept settings ({@code --sweep-env})
 * @param captureNccl capture NCCL's topology dump and INFO log
 * @param rdzvTimeoutSec seconds to wait for all ranks at rendezvous
 * @param useInitAll  one process, several GPUs: ncclCommInitAll instead of nccl-tests' ncclCommInitRankConfig
 * @param notes       header lines ({@code # } added when printed) naming nccl-tests flags that were accepted but
 *                    have no effect in collsim's executor ({@code -p}, {@code -R})
 */
public record RunSpec(Collective collective, SizeSweep sweep, int iters, int warmupIters, int aggIters,
        int runCycles, int check, List<RedOp> ops, List<DataType> types, int root, int blocking, int average,
        int graphLaunches, int timeoutSec, boolean cpuTime, int nGpus, Path json, Map<String, String> env,
        List<String> sweepEnv, boolean captureNccl, int rdzvTimeoutSec, boolean useInitAll, List<String> notes) {

    /** Copies collections. */
    public RunSpec {
        ops = List.copyOf(ops);
        types = List.copyOf(types);
        env = Map.copyOf(env);
        sweepEnv = List.copyOf(sweepEnv);
        notes = List.copyOf(notes);
    }

    /** @return nccl-tests' program name, e.g. {@code all_reduce_perf} */
    public String programName() {
        return collective.testName() + "_perf";
    }

    /**
     * @param s a replacement sweep (after the memory limit)
     * @return a copy with that sweep
     */
    public RunSpec withSweep(SizeSweep s) {
        return new RunSpec(collective, s, iters, warmupIters, aggIters, runCycles, check, ops, types, root,
                blocking, average, graphLaunches, timeoutSec, cpuTime, nGpus, json, env, sweepEnv, captureNccl,
                rdzvTimeoutSec, useInitAll, notes);
    }
}
