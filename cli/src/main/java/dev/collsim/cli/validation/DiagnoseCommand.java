package dev.collsim.cli.validation;

import dev.collsim.cli.ExitCodes;
import dev.collsim.io.InputException;
import dev.collsim.validation.diagnose.Diagnoser;
import dev.collsim.validation.diagnose.DiagnosisText;
import dev.collsim.validation.diagnose.Finding;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code collsim diagnose FILE...}: why measured bandwidth falls short of what the hardware allows. */
@Command(name = "diagnose", mixinStandardHelpOptions = true,
        description = {"Explain why measured collective bandwidth falls short of what the hardware allows.",
            "Reads nccl-tests output (any version, with or without NCCL_DEBUG=INFO lines), nccl-tests -J JSON or "
                    + "collsim run JSON, and cites the evidence line of every finding."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done (also when a PROBLEM is found, unless --fail-on-problem)", "2:usage error", "3:invalid or missing input file",
            "4:at least one PROBLEM finding (with --fail-on-problem)", "6:finished, but skipped files it could not read (each named on stderr with why)"})
public final class DiagnoseCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "measurement files or folders")
    private List<Path> files;

    @Option(names = "--fail-on-problem", description = "exit with 4 when a PROBLEM is found (default: ${DEFAULT-VALUE})")
    private boolean failOnProblem;

    @Override
    public Integer call() throws InputException {
        List<Diagnoser.Diagnosis> all = new ArrayList<>();
        Diagnoser d = new Diagnoser();
        MeasuredFiles.Batch batch = MeasuredFiles.readSkipping(files, spec.commandLine().getErr());
        for (MeasuredFiles.Read r : batch.reads()) {
            all.addAll(d.diagnose(r.datasets(), MeasuredFiles.lines(r.file())));
        }
        spec.commandLine().getOut().print(DiagnosisText.render(all));
        boolean problem = all.stream().flatMap(x -> x.findings().stream())
                .anyMatch(x -> x.severity() == Finding.Severity.PROBLEM);
        return batch.exitCode(failOnProblem && problem ? ExitCodes.CHECK_FAILED : ExitCodes.OK);
    }
}
