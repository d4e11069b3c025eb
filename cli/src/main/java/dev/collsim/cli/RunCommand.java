package dev.collsim.cli;

import dev.collsim.executor.ExecutorException;
import dev.collsim.executor.LaunchEnv;
import dev.collsim.executor.RunOptions;
import dev.collsim.executor.RunSpec;
import dev.collsim.executor.Supervisor;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code collsim run COLLECTIVE [nccl-tests flags] [--env NCCL_X=V] [--sweep-env NCCL_X=V1,V2] [-J FILE]}: measures
 * a collective on this host's GPUs through NCCL, as nccl-tests does, printing nccl-tests' table and writing the
 * run as JSON ({@link dev.collsim.perf.PerfRun}). Each NCCL setting runs in its own worker process.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Measure an NCCL collective on this host's GPUs with nccl-tests' options, timing and table.",
            "One process per GPU across hosts: start one 'collsim run' per GPU with torchrun, srun or mpirun; "
                + "the rank comes from RANK/WORLD_SIZE, SLURM_PROCID/SLURM_NTASKS or OMPI_COMM_WORLD_*."})
public final class RunCommand implements Callable<Integer> {

    @Mixin
    RunOptions options = new RunOptions();

    @Spec
    private CommandSpec command;

    @Override
    public Integer call() {
        RunSpec spec;
        Optional<LaunchEnv> launch;
        try {
            spec = options.toSpec(TypedOption.sweepFlags(command));
            launch = LaunchEnv.detect(System.getenv());
        } catch (ExecutorException e) {
            throw new UserError(e.getMessage(), e.exitCode());
        }
        boolean rank0 = launch.map(l -> l.rank() == 0).orElse(true);
        return Supervisor.run(options, spec, rank0, System.out, System.err);
    }
}
