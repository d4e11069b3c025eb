package dev.collsim.validation.diagnose;

import dev.collsim.hardware.GpuModel;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.perf.PerfResult;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.HeaderNics;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a check looks at: one dataset, the other datasets of the same file, the file's lines, and the hardware
 * figures diagnose could find for it.
 *
 * @param dataset  the dataset
 * @param siblings the other datasets of the same file
 * @param lines    the file's lines (index 0 = line 1); empty for JSON input
 * @param gpu      the GPU's figures, if the model is known
 * @param nic      the host's network figures, if the header states them
 */
record Subject(Dataset dataset, List<Dataset> siblings, List<String> lines, Optional<GpuModel> gpu,
        Optional<HeaderNics> nic) {

    /** @return evidence for a line of the file (its trimmed text) */
    Finding.Evidence at(int line) {
        String text = line >= 1 && line <= lines.size() ? lines.get(line - 1).strip() : "";
        if (text.length() > 160) {
            text = text.substring(0, 160) + "...";
        }
        return new Finding.Evidence(dataset.file(), line, text);
    }

    /**
     * @return evidence for a measured point: its line's text, or, where the file's lines are not at hand (JSON, whose
     *         results share one line in nccl-tests' output), the point's size and times
     */
    Finding.Evidence at(PerfPoint p) {
        Finding.Evidence e = at(p.line());
        if (!e.text().isEmpty()) {
            return e;
        }
        String halves = Stream.of(half("out-of-place", p.outOfPlace()), half("in-place", p.inPlace()))
                .filter(h -> !h.isEmpty()).collect(Collectors.joining("; "));
        return new Finding.Evidence(dataset.file(), p.line(), "size " + p.sizeBytes() + " B: " + halves);
    }

    private static String half(String name, PerfResult r) {
        return r == null || !r.hasTime() ? "" : String.format(Locale.ROOT, "%s %.2f us, busbw %.2f GB/s", name,
                r.timeUs(), r.busBw());
    }

    /** @return evidence for a header key's line */
    Finding.Evidence header(String key) {
        return at(dataset.header().line(key));
    }

    /**
     * @return the run's NCCL settings as the model reads them ({@link NcclSettings#modelled}); NCCL's defaults when
     *         the file's settings contradict each other (that is reported elsewhere)
     */
    NcclSettings ncclSettings() {
        try {
            return NcclSettings.modelled(dataset.env());
        } catch (IllegalArgumentException contradictory) {
            return NcclSettings.DEFAULTS;
        }
    }

    /** @return the point with the highest busbw (either half), if any */
    Optional<PerfPoint> peakPoint() {
        return dataset.points().stream().max((a, b) -> Double.compare(a.peakBusBw(), b.peakBusBw()));
    }

    /** @return true when all ranks sit on one host (from rank lines, the title, or a single 1xN header shape) */
    boolean singleHost() {
        if (dataset.nHosts() > 0) {
            return dataset.nHosts() == 1;
        }
        String label = dataset.label().toLowerCase(Locale.ROOT);
        if (label.contains("intra") || label.contains("single")) {
            return true;
        }
        return dataset.header().nodesXGpus().map(x -> x[0] == 1).orElse(false) && !dataset.header().hasSeveralShapes();
    }

    /** @return a finding about this dataset */
    Finding finding(Finding.Kind kind, Finding.Severity severity, String message, List<Finding.Evidence> evidence) {
        return new Finding(kind, severity, dataset.id(), message, evidence);
    }
}
