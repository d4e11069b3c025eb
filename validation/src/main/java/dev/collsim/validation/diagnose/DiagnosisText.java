package dev.collsim.validation.diagnose;

import dev.collsim.hardware.GpuModels;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/** Renders diagnoses as plain text for the terminal. */
public final class DiagnosisText {

    private DiagnosisText() {
    }

    /**
     * @param diagnoses diagnoses of one or more files
     * @return text, one block per dataset
     */
    public static String render(List<Diagnoser.Diagnosis> diagnoses) {
        StringBuilder sb = new StringBuilder();
        for (Diagnoser.Diagnosis g : diagnoses) {
            Dataset d = g.dataset();
            sb.append(d.id()).append('\n');
            sb.append(String.format(Locale.ROOT, "  %s, %d ranks%s, %s%s%n", d.collective().testName(), d.nRanks(),
                    d.nHosts() > 0 ? " on " + d.nHosts() + " host" + (d.nHosts() > 1 ? "s" : "") : "",
                    g.gpu().map(x -> x.name() + (fileNamesGpu(d) ? "" : " (the GPU of -c's cluster: the file"
                            + " names none)")).orElse(d.gpuModel().isEmpty() ? "unknown GPU" : d.gpuModel()),
                    !d.ncclRelease().known() ? "" : ", NCCL " + d.ncclRelease()));
            if (d.peakBusBw().isPresent()) {
                sb.append(String.format(Locale.ROOT, "  peak busbw %.2f GB/s", d.peakBusBw().getAsDouble()));
                // a run on one host sends nothing over the network: its NICs are not named
                g.nic().filter(n -> d.nHosts() != 1).ifPresent(n -> sb.append("; network ").append(n.describe())
                        .append(" per host")
                        .append(n.line() > 0 ? "" : " (" + n.text() + ")"));
                sb.append('\n');
                g.nic().filter(n -> !n.assumed().isEmpty())
                        .ifPresent(n -> sb.append("  assumed: ").append(n.assumed()).append('\n'));
            }
            if (noProblem(g)) {
                sb.append("  no problem found").append(judged(g))
                        .append(g.findings().isEmpty() ? "" : "; worth knowing:").append('\n');
            }
            for (Finding f : g.findings()) {
                sb.append("  ").append(f.severity()).append(' ').append(f.kind().name().toLowerCase(Locale.ROOT)
                        .replace('_', ' ')).append(": ").append(f.message()).append('\n');
                for (Finding.Evidence e : f.evidence()) {
                    sb.append("      evidence ").append(e).append('\n');
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * What "no problem found" was judged against, so a user reads how close to the hardware the run came: the peak
     * busbw as a share of {@link Bounds#achievable} (the far-below check fires under half of it), and
     * where to see the run against collsim's prediction, which diagnose does not make. Empty when no bound was
     * judged (single rank, no bound, or a sweep that stays in the latency range below
     * {@link BoundCheck#BANDWIDTH_BOUND_BYTES}).
     */
    static String judged(Diagnoser.Diagnosis g) {
        Dataset d = g.dataset();
        Subject s = new Subject(d, List.of(), List.of(), g.gpu(), g.nic());
        OptionalDouble bound = Bounds.achievable(s);
        OptionalDouble peak = d.peakBusBw();
        boolean bandwidth = d.largest().map(p -> p.sizeBytes() >= BoundCheck.BANDWIDTH_BOUND_BYTES).orElse(false);
        if (bound.isEmpty() || peak.isEmpty() || d.nRanks() < 2 || !bandwidth || bound.getAsDouble() <= 0) {
            return "";
        }
        return String.format(Locale.ROOT, ": the peak is %.0f %% of the %.1f GB/s NCCL ring bound diagnose judges by"
                + " (a ring over NCCL's figures for the GPU links and the hosts' NICs, not the physical busbw bound"
                + " predict and compare print; NVLS and trees can pass it; a run under 50 %% of it is flagged);"
                + " against collsim's prediction, size by size: collsim compare -m FILE [-c CLUSTER]",
                100 * peak.getAsDouble() / bound.getAsDouble(), bound.getAsDouble());
    }

    /**
     * @return true when no finding explains lost bandwidth or casts doubt on the data: none, or only INFO ones (a lone
     *         outlier, a step above the NIC bound) other than {@link Finding.Kind#BOUND_UNKNOWN}, which says the
     *         bandwidth was not judged at all
     */
    static boolean noProblem(Diagnoser.Diagnosis g) {
        return g.findings().stream().allMatch(f -> f.severity() == Finding.Severity.INFO
                && f.kind() != Finding.Kind.BOUND_UNKNOWN);
    }

    /** @return true when the file's device lines or header name a GPU the database knows (not -c's) */
    private static boolean fileNamesGpu(Dataset d) {
        return GpuModels.find(d.gpuModel()).or(() -> GpuModels.find(d.header().text("hardware"))).isPresent();
    }
}
