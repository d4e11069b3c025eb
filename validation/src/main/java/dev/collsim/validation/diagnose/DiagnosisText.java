package dev.collsim.validation.diagnose;

import dev.collsim.hardware.GpuModel;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Locale;

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
                    g.gpu().map(GpuModel::name).orElse(d.gpuModel().isEmpty() ? "unknown GPU" : d.gpuModel()),
                    !d.ncclRelease().known() ? "" : ", NCCL " + d.ncclRelease()));
            if (d.peakBusBw().isPresent()) {
                sb.append(String.format(Locale.ROOT, "  peak busbw %.2f GB/s", d.peakBusBw().getAsDouble()));
                g.nic().ifPresent(n -> sb.append("; network ").append(n.describe()).append(" per host")
                        .append(n.line() > 0 ? "" : " (" + n.text() + ")"));
                sb.append('\n');
            }
            if (g.findings().isEmpty()) {
                sb.append("  no problem found\n");
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
}
