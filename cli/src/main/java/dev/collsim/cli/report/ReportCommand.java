package dev.collsim.cli.report;

import dev.collsim.cli.CalibrationOption;
import dev.collsim.cli.ClusterOption;
import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.InputFiles;
import dev.collsim.cli.UserError;
import dev.collsim.io.InputException;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import dev.collsim.reports.whatif.BuiltinSpec;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.topology.io.HardwareHints;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code collsim report [SPEC.yaml] [-o DIR] [--calibration FILE|none|auto]}: a what-if report comparing a base
 * cluster with its variants.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write a what-if report (HTML, charts, CSV, JSON) of a base cluster and its variants on"
            + " collective sweeps and training plans.",
            "Variants change NIC speed, rails, fabric and oversubscription, NVLink bandwidth, host count, the network (InfiniBand, RoCE, EFA, TCPX, TCPXO, sockets, Slingshot), NCCL settings"
            + " or the calibration profile. Output folder: index.html (self-contained, charts"
            + " embedded), charts/ (PNG and SVG), data/ (CSV), report.json, spec.yaml; written atomically.",
            "Without SPEC the built-in spec runs (examples/whatif-default.yaml). Spec keys: title, cluster,"
            + " base-name, backend (analytical|flow), routing (ecmp|spray), seed, variants[name, hosts (trays of a"
            + " rack-scale type such as gb300-nvl72; its NAMExN base counts racks), trays-per-domain, host-type,"
            + " nic-speed, nics-per-host, fabric, oversubscription, leaf-radix, nvlink, network, env, calibration, backend,"
            + " routing, seed], sweeps[collective, min, max, factor, datatype, gpus, measured],"
            + " plans[name, params and every 'collsim plan' option without --, target-tokens-per-s,"
            + " scaling-max-gpus], algorithm-map[collective, min, max, factor]."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "2:usage error, or the output folder cannot be written",
            "3:invalid spec (every problem listed with file:line:col)"})
public final class ReportCommand implements Callable<Integer> {

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SPEC.yaml", description = "the what-if spec (default:"
            + " the built-in one)")
    private Path specFile;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", defaultValue = WhatIfRun.DEFAULT_OUTPUT,
            description = "output folder, replaced atomically; only an empty folder or an earlier collsim report is"
                    + " replaced (default: ${DEFAULT-VALUE})")
    private Path output;

    @Option(names = "--calibration", paramLabel = "FILE|none|auto", description = CalibrationOption.REPORT_DESCRIPTION)
    private Path calibration;

    @Option(names = "--no-progress", description = "do not draw a progress bar")
    private boolean noProgress;

    @Override
    public Integer call() throws InputException {
        ReportSpec s;
        String text;
        if (specFile == null) {
            s = BuiltinSpec.read();
            text = BuiltinSpec.text();
        } else {
            InputFiles.require(specFile, "the report spec");
            s = ReportSpecReader.read(specFile);
            try {
                text = Files.readString(specFile);
            } catch (IOException e) {
                throw InputFiles.failed(specFile, e, "the report spec");
            }
        }
        ClusterOption.fabricWarnings(ClusterLoader.resolve(s.cluster(), HardwareHints.NONE, s.folder()))
                .forEach(w -> spec.commandLine().getErr().println("collsim: warning: " + w));
        s.variants().forEach(v -> v.ncclSettings().passedOverWarning().ifPresent(w -> spec.commandLine().getErr()
                .println("collsim: warning: variant '" + v.name() + "' env: " + w)));
        spec.commandLine().getErr().flush();
        return runOrFail(s, text, output, !noProgress && WhatIfRun.terminal());
    }

    int runOrFail(ReportSpec s, String text, Path out, boolean progress) throws InputException {
        try {
            WhatIfRun.run(s, text, out, spec.commandLine().getOut(), spec.commandLine().getErr(), progress,
                    calibration);
            return ExitCodes.OK;
        } catch (UncheckedIOException e) {
            throw new UserError(e.getMessage(), ExitCodes.USAGE);
        }
    }
}
